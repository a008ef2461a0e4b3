import SleeveQuery

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The report's charts as inline SVG: no scripts, no external resources.
enum SVGCharts {
  static let width = 640.0
  static let height = 220.0
  static let margin = (left: 70.0, right: 20.0, top: 28.0, bottom: 36.0)
  static let colors = (
    on: "#d95f02", off: "#1b9e77", enabled: "#1b9e77", disabled: "#7570b3",
    rolledBack: "#d95f02"
  )

  /// The cumulative distribution of durations per cohort on a logarithmic time axis, from
  /// the shortest duration to the 99.5th percentile.
  static func latencyCDF(flag: String, on: [Int64], off: [Int64]) -> String {
    let cohorts = [("on", on.sorted(), colors.on), ("off", off.sorted(), colors.off)]
      .filter { !$0.1.isEmpty }
    var all = on + off
    let top = max(Percentile.of(&all, at: [99.5])?.first ?? 1, 2)
    let bottom = max(Double(all.min() ?? 1), 1)
    let span = max(log10(top) - log10(bottom), 1e-9)
    func position(_ value: Double) -> Double {
      min(max((log10(max(value, bottom)) - log10(bottom)) / span, 0), 1)
    }
    var svg = open(title: "Latency distribution of \(flag): flag on vs off (cumulative)")
    svg += axes(xLabel: "duration (log scale)", yLabel: "share")
    for fraction in [0.0, 0.5, 1.0] {
      let value = pow(10, log10(bottom) + span * fraction)
      svg +=
        "<text x=\"\(fixed(plotX(fraction)))\" y=\"\(fixed(height - margin.bottom + 14))\" "
        + "font-size=\"10\" text-anchor=\"middle\">\(MarkupText.escaped(Formatting.duration(value)))</text>"
    }
    for (index, (name, values, color)) in cohorts.enumerated() {
      let points = stride(from: 0, to: 201, by: 1).map { step -> String in
        let fraction = Double(step) / 200
        let index = min(Int(fraction * Double(values.count - 1)), values.count - 1)
        return "\(fixed(plotX(position(Double(values[index]))))),\(fixed(plotY(fraction)))"
      }
      svg +=
        "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\""
        + points.joined(separator: " ") + "\"/>"
      svg += legend(index: index, name: "flag \(name) (n \(values.count))", color: color)
    }
    return svg + "</svg>"
  }

  /// The error rate per handler with its Wilson 95% interval.
  static func errorRates(_ handlers: [RolloutReport.HandlerRow]) -> String {
    let rows = Array(handlers.prefix(12))
    let top = max(rows.compactMap { $0.errors.interval?.upper }.max() ?? 0.01, 0.01)
    let rowHeight = 22.0
    let chartHeight = margin.top + margin.bottom + rowHeight * Double(max(rows.count, 1))
    var svg = open(title: "Error rate per handler (bars) with 95% interval", height: chartHeight)
    for (index, row) in rows.enumerated() {
      let y = margin.top + rowHeight * Double(index)
      let rate = row.errors.rate ?? 0
      let labelX = fixed(margin.left + 100)
      svg +=
        "<text x=\"\(labelX)\" y=\"\(fixed(y + 15))\" text-anchor=\"end\" font-size=\"11\">"
        + MarkupText.escaped(row.errors.key) + "</text>"
      let barX = margin.left + 105
      let barSpace = width - barX - 70
      let barWidth = barSpace * rate / top
      svg +=
        "<rect x=\"\(fixed(barX))\" y=\"\(fixed(y + 4))\" width=\"\(fixed(barWidth))\" "
        + "height=\"14\" fill=\"\(colors.off)\"/>"
      if let interval = row.errors.interval {
        let low = barX + barSpace * interval.lower / top
        let high = barX + barSpace * interval.upper / top
        svg +=
          "<line x1=\"\(fixed(low))\" x2=\"\(fixed(high))\" y1=\"\(fixed(y + 11))\" "
          + "y2=\"\(fixed(y + 11))\" stroke=\"#333\" stroke-width=\"1.5\"/>"
      }
      svg +=
        "<text x=\"\(fixed(width - 4))\" y=\"\(fixed(y + 15))\" text-anchor=\"end\" "
        + "font-size=\"10\">\(MarkupText.escaped(Formatting.percent(rate)))</text>"
    }
    return svg + "</svg>"
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
        case "enabled": colors.enabled
        case "rolledBack": colors.rolledBack
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

  static func open(title: String, height: Double = height) -> String {
    "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(fixed(width)) \(fixed(height))\" "
      + "width=\"\(fixed(width))\" height=\"\(fixed(height))\" role=\"img\" "
      + "aria-label=\"\(MarkupText.escaped(title))\"><title>\(MarkupText.escaped(title))</title>"
      + "<text x=\"\(fixed(margin.left))\" y=\"18\" font-size=\"13\" font-weight=\"600\">"
      + MarkupText.escaped(title) + "</text>"
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
