import SleeveQuery

extension SVGCharts {
  /// A handler's error rate (bars) and p99 (line) per session in time order; baseline
  /// sessions' bars are grey, the others coloured, and each point's `<title>` names its
  /// session and numbers.
  static func trend(_ trend: HandlerTrend) -> String {
    var svg = open(title: "\(trend.key.display): error rate and p99 per session")
    svg += axes(xLabel: "sessions, oldest first", yLabel: "")
    let count = max(trend.points.count, 1)
    let topRate = max(trend.points.map(\.errorRate).max() ?? 0, 0.01)
    let topP99 = max(trend.points.compactMap(\.p99).max() ?? 1, 1)
    let slot = (width - margin.left - margin.right) / Double(count)
    var line: [String] = []
    for (index, point) in trend.points.enumerated() {
      let x = plotX((Double(index) + 0.5) / Double(count))
      let barHeight = (height - margin.top - margin.bottom) * point.errorRate / topRate
      let label =
        "session \(point.session)\(point.isBaseline ? " (baseline)" : ""): n \(point.n), "
        + "error rate \(Formatting.percent(point.errorRate)), p99 "
        + Formatting.duration(point.p99)
      svg +=
        "<rect class=\"\(point.isBaseline ? "baseline" : "candidate")\" "
        + "x=\"\(fixed(x - slot * 0.35))\" y=\"\(fixed(plotY(0) - barHeight))\" "
        + "width=\"\(fixed(slot * 0.7))\" height=\"\(fixed(barHeight))\" "
        + "fill=\"\(point.isBaseline ? "#b8b8b8" : colors.on)\">"
        + "<title>\(MarkupText.escaped(label))</title></rect>"
      if let p99 = point.p99 {
        line.append("\(fixed(x)),\(fixed(plotY(p99 / topP99)))")
      }
    }
    if !line.isEmpty {
      svg +=
        "<polyline points=\"\(line.joined(separator: " "))\" fill=\"none\" "
        + "stroke=\"\(colors.disabled)\" stroke-width=\"2\"/>"
    }
    // The key sits in the x label's row, clear of the bars.
    let key = [
      ("error rate, top \(Formatting.percent(topRate))", colors.on),
      ("p99, top \(Formatting.duration(topP99))", colors.disabled),
    ]
    for (index, (name, color)) in key.enumerated() {
      let x = index == 0 ? margin.left : width - margin.right - 150
      svg +=
        "<rect x=\"\(fixed(x))\" y=\"\(fixed(height - 17))\" width=\"10\" height=\"10\" "
        + "fill=\"\(color)\"/><text x=\"\(fixed(x + 14))\" y=\"\(fixed(height - 8))\" "
        + "font-size=\"11\">\(MarkupText.escaped(name))</text>"
    }
    return svg + "</svg>"
  }
}
