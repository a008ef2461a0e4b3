import Foundation
import SleeveCore
import SleeveQuery

/// Turns option values into typed values, or says in one line why they are wrong.
enum ValueParsers {
  /// `50,90,99.9`: each in 0…100.
  static func percentiles(_ text: String) throws(ValueError) -> [Double] {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    var values: [Double] = []
    for part in parts {
      guard let value = DecimalText.unsignedValue(part.trimmingPrefix("p")), value.isFinite else {
        throw ValueError("expected numbers separated by commas, like 50,95,99.9")
      }
      guard (0...100).contains(value) else {
        throw ValueError("each percentile must be between 0 and 100")
      }
      values.append(value)
    }
    return values
  }

  /// `50ms`, `1.5s`, `200us`, `300ns`: a duration in nanoseconds.
  static func duration(_ text: String) throws(ValueError) -> Int64 {
    let units: [(String, Double)] = [
      ("ns", 1), ("us", 1e3), ("µs", 1e3), ("ms", 1e6), ("s", 1e9), ("m", 60e9),
    ]
    for (unit, scale) in units where text.hasSuffix(unit) {
      guard let value = DecimalText.unsignedValue(text.dropLast(unit.count)) else { continue }
      if unit == "ns", let exact = Int64(text.dropLast(2)) { return exact }
      guard let nanoseconds = Int64(exactly: (value * scale).rounded()) else {
        throw ValueError("a duration is at most 9223372036854775807ns (about 292 years)")
      }
      return nanoseconds
    }
    throw ValueError("expected a duration with a unit, like 50ms, 1.5s, 200us or 300ns")
  }

  /// `16.7` (milliseconds) or a duration with a unit (`16.7ms`, `1s`): more than zero, in
  /// nanoseconds. A value too large for 64-bit nanoseconds is an error, never a trap.
  static func positiveMilliseconds(_ text: String) throws(ValueError) -> Int64 {
    let nanoseconds: Int64
    if let value = DecimalText.unsignedValue(text) {
      guard let exact = Int64(exactly: (value * 1e6).rounded()) else {
        throw ValueError("a duration is at most 9223372036854775807ns (about 292 years)")
      }
      nanoseconds = exact
    } else {
      do {
        nanoseconds = try duration(text)
      } catch  where error.reason.hasPrefix("expected") {
        throw ValueError("expected milliseconds (16.7) or a duration with a unit (16.7ms, 1s)")
      }
    }
    guard nanoseconds > 0 else { throw ValueError("the duration must be more than 0") }
    return nanoseconds
  }

  /// `0.05` or `5%`: a rate in 0…1, written as every amount on the command line is
  /// (`DecimalText.unsignedValue`: digits and a point, no sign, exponent, hex, nan or inf).
  static func rate(_ text: String) throws(ValueError) -> Double {
    let isPercent = text.hasSuffix("%")
    guard let number = DecimalText.unsignedValue(isPercent ? text.dropLast() : Substring(text))
    else {
      throw ValueError("expected a rate like 0.05 or 5%")
    }
    let value = isPercent ? number / 100 : number
    guard (0...1).contains(value) else {
      throw ValueError("a rate must be between 0 and 1 (0% and 100%)")
    }
    return value
  }

  /// A rollout's share: `25`, `0.5`, `12.25` or `25%`, from 0 to 100 with at most two
  /// decimals (digits only: no sign, exponent, hex or spaces).
  static func rolloutPercent(_ text: String) throws(ValueError) -> RolloutPercentage {
    let number = text.hasSuffix("%") ? text.dropLast() : Substring(text)
    let parts = number.split(separator: ".", omittingEmptySubsequences: false)
    let isDigits = { (part: Substring) in part.utf8.allSatisfy { (0x30...0x39).contains($0) } }
    guard (1...2).contains(parts.count), !parts[0].isEmpty, parts.allSatisfy(isDigits),
      parts.count == 1 || (1...2).contains(parts[1].count), parts[0].utf8.count <= 3,
      let whole = Int(parts[0])
    else {
      throw ValueError("expected a percentage like 25, 0.5 or 12.25%")
    }
    let cents =
      parts.count == 2 ? Int(parts[1].padding(toLength: 2, withPad: "0", startingAt: 0)) ?? 0 : 0
    guard let share = RolloutPercentage(basisPoints: whole * 100 + cents) else {
      throw ValueError("a percentage must be from 0 to 100")
    }
    return share
  }

  /// A whole number in `minimum...maximum`, in decimal digits only (no sign: `Int(_:)` alone
  /// also reads `+5`).
  static func count(_ text: String, minimum: Int, maximum: Int = .max) throws(ValueError) -> Int {
    guard text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
      let value = Int(text), value >= minimum, value <= maximum
    else {
      throw ValueError(
        maximum == .max
          ? "expected a whole number of at least \(minimum)"
          : "expected a whole number from \(minimum) to \(maximum)")
    }
    return value
  }

  /// `2026-11-30`, `2026-11-30T10:00:00Z`, or an age like `30m`, `2h`, `7d`: Unix nanoseconds.
  ///
  /// The result must fit Unix nanoseconds in 64 bits (1677-09-22 to 2262-04-11); anything
  /// outside is an error naming that range, never a trap.
  static func since(_ text: String, now: Date = Date()) throws(ValueError) -> Int64 {
    let ages: [(String, Double)] = [
      ("s", 1), ("m", 60), ("h", 3_600), ("d", 86_400), ("w", 604_800),
    ]
    var seconds: Double?
    for (unit, scale) in ages where text.hasSuffix(unit) {
      if let amount = DecimalText.unsignedValue(text.dropLast()), amount.isFinite {
        seconds = now.timeIntervalSince1970 - amount * scale
      }
    }
    // A date or time is taken only when it reads back the same: the parser rolls 2026-02-30
    // over to March and 25:00 to the next day, which nobody meant.
    let full = Date.ISO8601FormatStyle()
    let day = Date.ISO8601FormatStyle().year().month().day()
    for style in [full, day] where seconds == nil {
      guard let date = try? Date(text, strategy: style) else { continue }
      guard date.formatted(style) == text else {
        throw ValueError("no such date or time (\(text) does not exist on the calendar)")
      }
      seconds = date.timeIntervalSince1970
    }
    guard let seconds else {
      throw ValueError(
        "expected a date (2026-11-30), a time (2026-11-30T10:00:00Z) or an age (30m, 2h, 7d)")
    }
    guard let nanoseconds = Int64(exactly: (seconds * 1e9).rounded(.down)) else {
      throw ValueError(
        "the time must be between 1677-09-22 and 2262-04-11 (an age cannot reach back further)")
    }
    return nanoseconds
  }

  /// `last`, `all`, a session id or a UUID.
  static func session(_ text: String) throws(ValueError) -> SessionSelector {
    guard let selector = SessionSelector(text) else {
      throw ValueError("expected last, all, a session id (a positive number) or a UUID")
    }
    return selector
  }

  /// One of the enumeration's raw values.
  static func choice<Choice: RawRepresentable & CaseIterable>(_ text: String, of: Choice.Type)
    throws(ValueError) -> Choice where Choice.RawValue == String
  {
    guard let value = Choice(rawValue: text) else {
      throw ValueError(Suggestion.expectedOneOf(Choice.allCases.map(\.rawValue), typed: text))
    }
    return value
  }

  /// `a,b,c`: each one of `Choice`'s names, none twice.
  static func list<Choice: RawRepresentable & CaseIterable>(_ text: String, of: Choice.Type)
    throws(ValueError) -> [Choice] where Choice.RawValue == String
  {
    var chosen: [Choice] = []
    for name in text.split(separator: ",", omittingEmptySubsequences: false) {
      let value = try choice(String(name), of: Choice.self)
      guard !chosen.contains(where: { $0.rawValue == value.rawValue }) else {
        throw ValueError("'\(name)' is named twice")
      }
      chosen.append(value)
    }
    return chosen
  }
}

/// Why an option's value is wrong, in a few words.
struct ValueError: Error {
  let reason: String
  init(_ reason: String) { self.reason = reason }
}
