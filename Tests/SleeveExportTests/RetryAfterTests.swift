import Foundation
import SleeveExport
import Testing

@Suite struct RetryAfterTests {
  /// 1994-11-06 08:48:07 UTC: 90 s before the RFC 9110 example date (784111777, Python's
  /// `calendar.timegm((1994, 11, 6, 8, 49, 37))`).
  static let now = Date(timeIntervalSince1970: 784_111_777 - 90)

  @Test(
    "delay-seconds are read as seconds, huge ones clamped to a day",
    arguments: [
      ("120", Duration.seconds(120)), (" 3 ", .seconds(3)), ("0", .zero), ("0001", .seconds(1)),
      ("86400", .seconds(86_400)), ("86401", .seconds(86_400)),
      ("99999999999999999999999999", .seconds(86_400)),
    ])
  func delaySeconds(text: String, expected: Duration) {
    #expect(RetryAfter.delay(text, now: Self.now) == expected)
  }

  @Test("an IMF-fixdate is read as the time from now until it")
  func httpDate() {
    #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:49:37 GMT", now: Self.now) == .seconds(90))
    #expect(
      RetryAfter.delay(
        "Thu, 29 Feb 2024 23:59:60 GMT", now: Date(timeIntervalSince1970: 1_709_251_190))
        == .seconds(10))
  }

  @Test("a date in the past is no wait, one far ahead is clamped to a day")
  func pastAndFarDates() {
    #expect(RetryAfter.delay("Sat, 01 Jan 1994 00:00:00 GMT", now: Self.now) == .zero)
    #expect(RetryAfter.delay("Fri, 31 Dec 9999 23:59:59 GMT", now: Self.now) == .seconds(86_400))
  }

  @Test(
    "anything else is ignored, so the backoff applies",
    arguments: [
      "", "soon", "-1", "1.5", "1e3", "+5", "Sunday, 06-Nov-94 08:49:37 GMT",
      "Sun Nov  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 UTC", "Xyz, 06 Nov 1994 08:49:37 GMT",
      "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 32 Nov 1994 08:49:37 GMT",
      "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 6 Nov 1994 08:49:37 GMT", "\u{1B}[31m5",
    ])
  func garbageIsIgnored(text: String) {
    #expect(RetryAfter.delay(text, now: Self.now) == nil)
  }
}
