/// A recorded test id as answers that compare tests across sessions (`diff`, `flaky`) key it:
/// the id without a trailing source location.
///
/// Recorders before this one stored Swift Testing's `Test.ID` whole, its source location last
/// (`Module.Suite/payOnce()/PerTestTests.swift:7:4`), so adding a line above a test changed its
/// id and `diff` stopped pairing its sessions. Such an id is read without its location, so an
/// older session pairs with a newer one of the same test.
///
/// The parser is strict: only a last `/`-separated component that is exactly
/// `name.swift:line:column` (a file name of at least one character before `.swift`, with no
/// colon, then two colons each followed by one or more ASCII digits) is a location. Any other
/// id (an XCTest name, a runner's own id, a file name without `.swift`, a location that is not
/// last) is its own key, unchanged. Works on Unicode scalars.
///
/// ```swift
/// RecordedTestID.withoutLocation("M.Suite/pay()/PayTests.swift:7:4")  // "M.Suite/pay()"
/// RecordedTestID.withoutLocation("M.Suite/pay()")                     // unchanged
/// ```
enum RecordedTestID {
  /// `id` without its trailing `/name.swift:line:column` component, or `id` itself when it
  /// has none (or nothing before it).
  static func withoutLocation(_ id: String) -> String {
    let scalars = id.unicodeScalars
    guard let slash = scalars.lastIndex(of: "/"), slash != scalars.startIndex else { return id }
    let last = scalars[scalars.index(after: slash)...]
    let parts = last.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 3, isSwiftFileName(parts[0]), isDigits(parts[1]), isDigits(parts[2])
    else { return id }
    return String(String.UnicodeScalarView(scalars[..<slash]))
  }

  private static func isSwiftFileName(_ name: Substring.UnicodeScalarView) -> Bool {
    let suffix = ".swift".unicodeScalars
    return name.count > suffix.count && name.suffix(suffix.count).elementsEqual(suffix)
  }

  private static func isDigits(_ text: Substring.UnicodeScalarView) -> Bool {
    !text.isEmpty && text.allSatisfy { ("0"..."9").contains($0) }
  }
}
