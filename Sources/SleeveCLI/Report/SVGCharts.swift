import SleeveQuery
import SleeveStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The report's charts as inline SVG: no scripts, no external resources.
enum SVGCharts {
  static let width = 640.0
  static let height = 220.0
  static let margin = (left: 70.0, right: 70.0, top: 28.0, bottom: 36.0)
  static let colors = (
    on: "#d95f02", off: "#1b9e77", enabled: "#1b9e77", disabled: "#7570b3",
    rolledBack: "#d95f02"
  )

  /// The cumulative distribution of durations per cohort on a logarithmic time axis, from
  /// the shortest duration to the 99.5th percentile. `on` and `off` are the points drawn (a
  /// sample, from summaries); each legend's n is the cohort's invocations (`onN`, `offN`).
  static func latencyCDF(flag: String, on: [Int64], onN: Int, off: [Int64], offN: Int) -> String {
    let cohorts = [("on", on.sorted(), onN, colors.on), ("off", off.sorted(), offN, colors.off)]
      .filter { !$0.1.isEmpty }
    var all = on + off
    let top = max(Percentile.of(&all, at: [99.5])?.first ?? 1, 2)
    let bottom = max(Double(all.min() ?? 1), 1)
    let span = max(log10(top) - log10(bottom), 1e-9)
    func position(_ value: Double) -> Double {
      min(max((log10(max(value, bottom)) - log10(bottom)) / span, 0), 1)
    }
    var svg = open(title: "Latency distribution of \(flag): flag on vs off (cumulative)")
    svg += axes(xLabel: "duration (log scale)", yLabel: "")
    for fraction in [0.0, 0.25, 0.5, 0.75, 1.0] {
      let value = pow(10, log10(bottom) + span * fraction)
      svg += xTick(plotX(fraction), label: Formatting.duration(value))
    }
    for share in [0.0, 0.25, 0.5, 0.75, 1.0] {
      svg += yTick(plotY(share), label: Formatting.fixed(share * 100, digits: 0) + "%")
    }
    for (index, (name, values, n, color)) in cohorts.enumerated() {
      let points = stride(from: 0, to: 201, by: 1).map { step -> String in
        let fraction = Double(step) / 200
        let index = min(Int(fraction * Double(values.count - 1)), values.count - 1)
        return "\(fixed(plotX(position(Double(values[index]))))),\(fixed(plotY(fraction)))"
      }
      svg +=
        "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\""
        + points.joined(separator: " ") + "\"/>"
      svg += legend(index: index, name: "flag \(name) (n \(n))", color: color)
    }
    return svg + "</svg>"
  }

  /// The most handlers the error-rate chart draws besides those it must draw.
  static let maximumErrorRows = 12

  /// What a chart of at most `limit` items draws: every item that `must` be drawn (one that
  /// failed, breached or regressed), then the others in order while room is left, in the
  /// items' order; and how many it left out. The one rule of every chart that picks.
  static func drawn<Item>(_ items: [Item], limit: Int, must: (Item) -> Bool) -> (
    items: [Item], left: Int
  ) {
    var room = max(limit - items.filter(must).count, 0)
    let kept = items.filter { item in
      if must(item) { return true }
      guard room > 0 else { return false }
      room -= 1
      return true
    }
    return (kept, items.count - kept.count)
  }

  /// The error rate per handler with its Wilson 95% interval: every handler that failed or
  /// that a check named (`named`), then the most invoked, saying how many it left out. The
  /// scale runs to the highest rate drawn (an interval past it is cut, with an arrow); when
  /// that would make the smallest non-zero rate a sliver, the scale is a square root, and
  /// the axis says so. Each bar is labelled with its rate and n.
  static func errorRates(_ handlers: [RolloutReport.HandlerRow], named: Set<String> = []) -> String
  {
    let (rows, left) = drawn(handlers, limit: maximumErrorRows) {
      $0.errors.failed > 0 || named.contains($0.errors.key)
    }
    let rates = rows.map { $0.errors.rate ?? 0 }
    let top = niceCeiling(max(rates.max() ?? 0, 0.01))
    let smallest = rates.filter { $0 > 0 }.min() ?? top
    let rooted = smallest / top < 0.05
    func scaled(_ rate: Double) -> Double {
      let clamped = min(max(rate / top, 0), 1)
      return rooted ? clamped.squareRoot() : clamped
    }
    let labelWidth = min(
      max(Double(rows.map { $0.errors.key.unicodeScalars.count }.max() ?? 4) * 6.6, 60), 330)
    let chartWidth = max(width, labelWidth + 520)
    let rowHeight = 22.0
    let barX = labelWidth + 16
    let barSpace = chartWidth - barX - 150
    let plotBottom = margin.top + rowHeight * Double(max(rows.count, 1))
    let chartHeight = plotBottom + 44
    let title =
      "Error rate per handler (bars) with 95% interval"
      + (left > 0 ? ": \(left) handler\(left == 1 ? "" : "s") not drawn (none failed)" : "")
    var svg = open(title: title, height: chartHeight, width: chartWidth, titleX: 8)
    for (index, row) in rows.enumerated() {
      let y = margin.top + rowHeight * Double(index)
      let rate = row.errors.rate ?? 0
      let name = row.errors.key
      let shown =
        name.unicodeScalars.count > 48
        ? String(String.UnicodeScalarView(name.unicodeScalars.prefix(47))) + "…" : name
      svg +=
        "<text x=\"\(fixed(labelWidth + 8))\" y=\"\(fixed(y + 15))\" text-anchor=\"end\" "
        + "font-size=\"11\"><title>\(MarkupText.escaped(name))</title>"
        + MarkupText.escaped(shown) + "</text>"
      svg +=
        "<rect x=\"\(fixed(barX))\" y=\"\(fixed(y + 4))\" "
        + "width=\"\(fixed(max(barSpace * scaled(rate), rate > 0 ? 2 : 0)))\" "
        + "height=\"14\" fill=\"\(rate > 0 ? colors.on : colors.off)\"/>"
      if let interval = row.errors.interval {
        let low = barX + barSpace * scaled(interval.lower)
        let high = barX + barSpace * scaled(interval.upper)
        svg +=
          "<line x1=\"\(fixed(low))\" x2=\"\(fixed(high))\" y1=\"\(fixed(y + 11))\" "
          + "y2=\"\(fixed(y + 11))\" stroke=\"#333\" stroke-width=\"1.5\"/>"
        if interval.upper > top {
          svg +=
            "<path d=\"M\(fixed(high)) \(fixed(y + 7)) l6 4 l-6 4 z\" fill=\"#333\">"
            + "<title>interval to \(MarkupText.escaped(Formatting.percent(interval.upper)))"
            + "</title></path>"
        }
      }
      svg +=
        "<text x=\"\(fixed(barX + barSpace + 12))\" y=\"\(fixed(y + 15))\" font-size=\"10\">"
        + MarkupText.escaped(
          "\(Formatting.percent(rate)) (\(row.errors.failed) of \(row.errors.n))") + "</text>"
    }
    svg +=
      "<line x1=\"\(fixed(barX))\" y1=\"\(fixed(plotBottom))\" x2=\"\(fixed(barX + barSpace))\" "
      + "y2=\"\(fixed(plotBottom))\" stroke=\"#888\"/>"
    let ticks = rooted ? [0, 0.01, 0.05, 0.25, 0.5, 1.0] : [0, 0.25, 0.5, 0.75, 1.0]
    for fraction in ticks {
      let rate = fraction * top
      let x = barX + barSpace * scaled(rate)
      svg +=
        "<line x1=\"\(fixed(x))\" y1=\"\(fixed(plotBottom))\" x2=\"\(fixed(x))\" "
        + "y2=\"\(fixed(plotBottom + 4))\" stroke=\"#888\"/>"
        + "<text x=\"\(fixed(x))\" y=\"\(fixed(plotBottom + 16))\" font-size=\"10\" "
        + "text-anchor=\"middle\">\(MarkupText.escaped(Formatting.percent(rate)))</text>"
    }
    svg +=
      "<text x=\"\(fixed(barX + barSpace / 2))\" y=\"\(fixed(plotBottom + 34))\" font-size=\"11\" "
      + "text-anchor=\"middle\">"
      + (rooted ? "error rate (square-root scale)" : "error rate") + "</text>"
    return svg + "</svg>"
  }

  /// A round upper bound for a scale: 1, 2, 2.5 or 5 times a power of ten, at most 100%.
  static func niceCeiling(_ value: Double) -> Double {
    guard value > 0 else { return 0.01 }
    let power = pow(10, floor(log10(value)))
    let step = [1.0, 2, 2.5, 5, 10].first { $0 * power >= value * (1 - 1e-12) } ?? 10
    return min(step * power, 1)
  }

  /// A flag's states over time, one coloured band per state; a rollout's band is filled in
  /// the enabled colour from the bottom to the share it served, so the chart reads as the
  /// percentage over time.
  static func timeline(flag: String, history: [FlagReport.Change], endUnixNanoseconds: Int64)
    -> String
  {
    let chartHeight = 90.0
    var svg = open(title: "State of \(flag) over time", height: chartHeight)
    guard let first = history.first else { return svg + "</svg>" }
    // In Double: any two Int64 times differ by less than 2^64, far inside Double's range, and
    // a chart position needs no more than Double's 53 bits. Positions are clamped to the plot.
    let start = Double(first.atUnixNanoseconds)
    let span = max(Double(endUnixNanoseconds) - start, 1)
    func position(_ unixNanoseconds: Int64) -> Double {
      plotX(min(max((Double(unixNanoseconds) - start) / span, 0), 1))
    }
    for (index, change) in history.enumerated() {
      let end =
        index + 1 < history.count ? history[index + 1].atUnixNanoseconds : endUnixNanoseconds
      let x = position(change.atUnixNanoseconds)
      let bandWidth = max(position(end) - x, 1)
      let color =
        switch change.state {
        case RecordCodes.FlagChangeState.enabled.name: colors.enabled
        case RecordCodes.FlagChangeState.rolledBack.name: colors.rolledBack
        default: colors.disabled
        }
      svg +=
        "<rect x=\"\(fixed(x))\" y=\"34\" width=\"\(fixed(bandWidth))\" height=\"24\" "
        + "fill=\"\(color)\"><title>\(MarkupText.escaped(ReportText.changeLine(change)))</title></rect>"
      if let percent = change.percent, percent.basisPoints > 0 {
        let filled = 24 * percent.fraction
        svg +=
          "<rect x=\"\(fixed(x))\" y=\"\(fixed(58 - filled))\" width=\"\(fixed(bandWidth))\" "
          + "height=\"\(fixed(filled))\" fill=\"\(colors.enabled)\"><title>"
          + "\(MarkupText.escaped(ReportText.changeLine(change)))</title></rect>"
      }
      svg +=
        "<text x=\"\(fixed(x + 3))\" y=\"72\" font-size=\"10\">\(MarkupText.escaped(change.display))</text>"
    }
    return svg + "</svg>"
  }

  static func open(
    title: String, height: Double = height, width: Double = width, titleX: Double = margin.left
  ) -> String {
    "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(fixed(width)) \(fixed(height))\" "
      + "width=\"\(fixed(width))\" height=\"\(fixed(height))\" role=\"img\" "
      + "aria-label=\"\(MarkupText.escaped(title))\"><title>\(MarkupText.escaped(title))</title>"
      + "<text x=\"\(fixed(titleX))\" y=\"18\" font-size=\"13\" font-weight=\"600\">"
      + MarkupText.escaped(title) + "</text>"
  }

  /// A tick under the x axis at `x`, labelled.
  static func xTick(_ x: Double, label: String) -> String {
    let bottom = height - margin.bottom
    return "<line x1=\"\(fixed(x))\" y1=\"\(fixed(bottom))\" x2=\"\(fixed(x))\" "
      + "y2=\"\(fixed(bottom + 4))\" stroke=\"#888\"/><text x=\"\(fixed(x))\" "
      + "y=\"\(fixed(bottom + 15))\" font-size=\"10\" text-anchor=\"middle\">"
      + MarkupText.escaped(label) + "</text>"
  }

  /// A tick left of the y axis at `y`, labelled; on the right axis with `right`.
  static func yTick(_ y: Double, label: String, right: Bool = false) -> String {
    let x = right ? width - margin.right : margin.left
    return "<line x1=\"\(fixed(x - (right ? 0 : 4)))\" y1=\"\(fixed(y))\" "
      + "x2=\"\(fixed(x + (right ? 4 : 0)))\" y2=\"\(fixed(y))\" stroke=\"#888\"/>"
      + "<text x=\"\(fixed(right ? x + 6 : x - 6))\" y=\"\(fixed(y + 3.5))\" font-size=\"10\" "
      + "text-anchor=\"\(right ? "start" : "end")\">\(MarkupText.escaped(label))</text>"
  }

  static func axes(xLabel: String, yLabel: String) -> String {
    let left = fixed(margin.left)
    let bottom = fixed(height - margin.bottom)
    return "<line x1=\"\(left)\" y1=\"\(fixed(margin.top))\" x2=\"\(left)\" y2=\"\(bottom)\" "
      + "stroke=\"#888\"/><line x1=\"\(left)\" y1=\"\(bottom)\" x2=\"\(fixed(width - margin.right))\" "
      + "y2=\"\(bottom)\" stroke=\"#888\"/>"
      + "<text x=\"\(fixed(width / 2))\" y=\"\(fixed(height - 8))\" font-size=\"11\" "
      + "text-anchor=\"middle\">\(MarkupText.escaped(xLabel))</text>"
      + "<text x=\"14\" y=\"\(fixed(height / 2))\" font-size=\"11\">\(MarkupText.escaped(yLabel))</text>"
  }

  static func legend(index: Int, name: String, color: String) -> String {
    let y = height - margin.bottom - 30 + 16 * Double(index)
    return "<rect x=\"\(fixed(width - 190))\" y=\"\(fixed(y - 9))\" width=\"10\" height=\"10\" "
      + "fill=\"\(color)\"/><text x=\"\(fixed(width - 175))\" y=\"\(fixed(y))\" font-size=\"11\">"
      + MarkupText.escaped(name) + "</text>"
  }

  static func plotX(_ fraction: Double) -> Double {
    margin.left + (width - margin.left - margin.right) * fraction
  }

  static func plotY(_ fraction: Double) -> Double {
    height - margin.bottom - (height - margin.top - margin.bottom) * fraction
  }

  static func fixed(_ value: Double) -> String { Formatting.fixed(value, digits: 1) }

}
