import SleeveQuery

extension SVGCharts {
  /// A handler's error rate (bars, left axis) and p99 (line and dots, right axis) per
  /// session in time order; baseline sessions' bars are grey, the others coloured, each
  /// session's id under its slot (every k-th when there are many), and each point's `<title>`
  /// names its session and numbers. A session with no failure still shows a thin bar, so a
  /// handler seen in one session is never an empty chart.
  static func trend(_ trend: HandlerTrend) -> String {
    var svg = open(title: "\(trend.key.display): error rate and p99 per session")
    svg += axes(xLabel: "session", yLabel: "")
    let count = max(trend.points.count, 1)
    let topRate = niceCeiling(max(trend.points.map(\.errorRate).max() ?? 0, 0.01))
    let topP99 = max(trend.points.compactMap(\.p99).max() ?? 1, 1) * 1.1
    let slot = (width - margin.left - margin.right) / Double(count)
    for fraction in [0.0, 0.5, 1.0] {
      svg += yTick(plotY(fraction), label: Formatting.percent(topRate * fraction))
      svg += yTick(plotY(fraction), label: Formatting.duration(topP99 * fraction), right: true)
    }
    let every = max(1, Int((Double(count) / 16).rounded(.up)))
    var line: [String] = []
    var dots = ""
    for (index, point) in trend.points.enumerated() {
      let x = plotX((Double(index) + 0.5) / Double(count))
      let barHeight = max(
        (height - margin.top - margin.bottom) * min(point.errorRate / topRate, 1), 1.5)
      let role =
        point.isBaseline
        ? " (baseline)" : point.isBeforeChange ? " (before its change: not in its baseline)" : ""
      let label =
        "session \(point.session)\(role): n \(point.n), "
        + "error rate \(Formatting.percent(point.errorRate)), p99 "
        + Formatting.duration(point.p99)
      svg +=
        "<rect class=\"\(point.isBaseline ? "baseline" : point.isBeforeChange ? "before-change" : "candidate")\" "
        + "x=\"\(fixed(x - min(slot * 0.35, 40)))\" y=\"\(fixed(plotY(0) - barHeight))\" "
        + "width=\"\(fixed(min(slot * 0.7, 80)))\" height=\"\(fixed(barHeight))\" "
        + "fill=\"\(point.isBaseline ? "#b8b8b8" : point.isBeforeChange ? "#e6e6e6" : colors.on)\">"
        + "<title>\(MarkupText.escaped(label))</title></rect>"
      if index % every == 0 {
        svg += xTick(x, label: String(point.session))
      }
      if let p99 = point.p99 {
        let y = plotY(p99 / topP99)
        line.append("\(fixed(x)),\(fixed(y))")
        dots +=
          "<circle cx=\"\(fixed(x))\" cy=\"\(fixed(y))\" r=\"3\" fill=\"\(colors.disabled)\">"
          + "<title>\(MarkupText.escaped(label))</title></circle>"
      }
    }
    if line.count > 1 {
      svg +=
        "<polyline points=\"\(line.joined(separator: " "))\" fill=\"none\" "
        + "stroke=\"\(colors.disabled)\" stroke-width=\"2\"/>"
    }
    svg += dots
    svg += changeMarks(trend, slot: slot, topRate: topRate, topP99: topP99)
    // The key sits in the x label's row, clear of the bars.
    let key = [
      ("error rate (left)", colors.on), ("p99 (right)", colors.disabled),
    ]
    for (index, (name, color)) in key.enumerated() {
      let x = index == 0 ? margin.left : width - margin.right - 90
      svg +=
        "<rect x=\"\(fixed(x))\" y=\"\(fixed(height - 17))\" width=\"10\" height=\"10\" "
        + "fill=\"\(color)\"/><text x=\"\(fixed(x + 14))\" y=\"\(fixed(height - 8))\" "
        + "font-size=\"11\">\(MarkupText.escaped(name))</text>"
    }
    return svg + "</svg>"
  }

  /// Each change point of the baseline: a dashed vertical rule before the first session of its
  /// first commit, and its two levels as thin lines on their axis (p99 on the right, error
  /// rate on the left), each from the previous change of the metric (or the first session) to
  /// the next (or the last baseline session); a `<title>` on each says what changed.
  private static func changeMarks(
    _ trend: HandlerTrend, slot: Double, topRate: Double, topP99: Double
  ) -> String {
    let count = max(trend.points.count, 1)
    /// The left edge of the slot of the first session of `change`'s first commit.
    func boundary(_ change: HandlerChange) -> Double? {
      let sessions = Set(change.firstCommit.sessions)
      return trend.points.firstIndex { sessions.contains($0.session) }.map {
        plotX(Double($0) / Double(count))
      }
    }
    let lastBaseline = trend.points.lastIndex { $0.isBaseline }.map {
      plotX(Double($0 + 1) / Double(count))
    }
    var svg = ""
    for metric in [ChangeMetric.p99, .errorRate] {
      let changes = trend.changes.filter { $0.metric == metric }
      let bounds = changes.map(boundary)
      for (index, change) in changes.enumerated() {
        guard let x = bounds[index] else { continue }
        let before = index == 0 ? plotX(0) : bounds[index - 1] ?? plotX(0)
        let after = index + 1 < bounds.count ? bounds[index + 1] ?? x : lastBaseline ?? x
        let row = ChangeRow(change: change, isNew: false)
        let title = MarkupText.escaped(
          "\(metric.rawValue) change at commit \(CommitID.short(change.firstCommit.commit)): "
            + "\(ChangeRow.value(change.comparison.before.mean, metric)) → "
            + "\(ChangeRow.value(change.comparison.after.mean, metric)) (\(row.changeText)), p "
            + NumberText.pValue(change.comparison.pValue))
        let color = metric == .p99 ? colors.disabled : colors.on
        func y(_ level: Double) -> Double {
          plotY(min(metric == .p99 ? level / topP99 : level / topRate, 1))
        }
        svg +=
          "<line class=\"change\" x1=\"\(fixed(x))\" y1=\"\(fixed(plotY(1)))\" "
          + "x2=\"\(fixed(x))\" y2=\"\(fixed(plotY(0)))\" stroke=\"#444\" "
          + "stroke-dasharray=\"4 3\"><title>\(title)</title></line>"
        for (from, to, level) in [
          (before, x, change.comparison.before.mean), (x, after, change.comparison.after.mean),
        ] where to > from {
          svg +=
            "<line class=\"level\" x1=\"\(fixed(from))\" y1=\"\(fixed(y(level)))\" "
            + "x2=\"\(fixed(to))\" y2=\"\(fixed(y(level)))\" stroke=\"\(color)\" "
            + "stroke-width=\"1\" stroke-dasharray=\"2 2\"><title>\(title)</title></line>"
        }
      }
    }
    return svg
  }
}
