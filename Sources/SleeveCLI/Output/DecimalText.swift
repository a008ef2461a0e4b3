/// What counts as a number written in decimal, the one rule for options and CSV: Swift's
/// `Double(_:)` also reads `0x10`, `nan`, `inf` and `-0x1p3`, which no user means as a number
/// and a spreadsheet does not read as one.
enum DecimalText {
  /// `123`, `-4.5`, `+6e-7`: an optional sign, digits, an optional fraction, an optional
  /// exponent; nothing else (no spaces, no hex, no nan or infinity).
  static func isNumber(_ text: some StringProtocol) -> Bool {
    var bytes = Substring(text).utf8[...]
    if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
      bytes = bytes.dropFirst()
    }
    let mantissa = bytes.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
    let parts = mantissa.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), !parts[0].isEmpty, parts.allSatisfy(isDigits(_:))
    else { return false }
    if parts.count == 2, parts[1].isEmpty { return false }
    let exponent = bytes.dropFirst(mantissa.count)
    guard !exponent.isEmpty else { return true }
    var digits = exponent.dropFirst()
    if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
      digits = digits.dropFirst()
    }
    return !digits.isEmpty && isDigits(digits)
  }

  /// The value of `text` when it is an unsigned decimal without exponent (`50`, `99.9`), the
  /// form the command line takes for amounts; `nil` otherwise.
  static func unsignedValue(_ text: some StringProtocol) -> Double? {
    guard let first = text.utf8.first, first != UInt8(ascii: "-"), first != UInt8(ascii: "+"),
      !text.contains(where: { $0 == "e" || $0 == "E" }), isNumber(text)
    else { return nil }
    return Double(String(text))
  }

  private static func isDigits(_ bytes: some Collection<UInt8>) -> Bool {
    !bytes.isEmpty && bytes.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
  }
}
