import Foundation

/// Reads an HTTP `Retry-After` header (RFC 9110 §10.2.3): delay-seconds (`120`) or an
/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
///
/// Anything else is `nil` (the caller falls back to its backoff); a date in the past is 0 (and
/// `RetryPolicy` never waits less than its backoff, whatever a header asks); a value above
/// `maximum` is clamped to it, so a hostile header can never overflow a duration.
public enum RetryAfter {
  /// The longest wait a header can ask for: a day (more than any retry budget Sleeve accepts,
  /// so a clamped value still ends the retries).
  public static let maximum = Duration.seconds(86_400)

  /// The wait `value` asks for, measured from `now` for a date; `nil` when it is neither form.
  public static func delay(_ value: String, now: Date) -> Duration? {
    let text = value.trimmingCharacters(in: .whitespaces)
    if !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
      // Any digit string: its leading zeros and a length beyond Int64 only make it larger.
      let digits = text.drop { $0 == "0" }
      guard digits.count <= 6, let seconds = Int64(digits.isEmpty ? "0" : digits) else {
        return maximum
      }
      return min(.seconds(seconds), maximum)
    }
    guard let date = imfFixdate(text) else { return nil }
    let seconds = date.timeIntervalSince(now)
    return .clampedSeconds(seconds, limit: maximum.secondsValue)
  }

  private static let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// `Sun, 06 Nov 1994 08:49:37 GMT`, parsed by hand (no locale, no formatter state).
  static func imfFixdate(_ text: String) -> Date? {
    let parts = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","),
      days.contains(String(parts[0].dropLast())), parts[5] == "GMT",
      let day = number(parts[1], digits: 2), (1...31).contains(day),
      let month = months.firstIndex(of: parts[2]),
      let year = number(parts[3], digits: 4), year >= 1970
    else { return nil }
    let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    guard clock.count == 3, let hour = number(clock[0], digits: 2), hour < 24,
      let minute = number(clock[1], digits: 2), minute < 60,
      let second = number(clock[2], digits: 2), second < 61
    else { return nil }
    let daysSinceEpoch = civilDays(year: year, month: month + 1, day: day)
    let seconds = ((daysSinceEpoch * 24 + hour) * 60 + minute) * 60 + second
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }

  private static func number(_ text: String, digits: Int) -> Int64? {
    guard text.utf8.count == digits, text.utf8.allSatisfy({ (0x30...0x39).contains($0) })
    else { return nil }
    return Int64(text)
  }

  /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
  /// days-from-civil); the year is at most 9999, so nothing overflows.
  private static func civilDays(year: Int64, month: Int, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = y / 400
    let yearOfEra = y - era * 400
    let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
