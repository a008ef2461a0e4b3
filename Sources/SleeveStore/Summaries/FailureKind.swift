/// A kind of failure: the error's type and its message with the parts that vary between runs
/// taken out, so `timeout after 312 ms (order 8f3a9c21e0)` and `timeout after 97 ms (order
/// 0b1c2d3e4f)` are one kind, and a message a run has never produced before is a new one.
///
/// The pattern replaces every run of hexadecimal digits that holds a decimal digit or is 8 or
/// more long (numbers, ids, hashes, addresses, UUIDs' parts) by `#`, working on Unicode
/// scalars; words stay. It is capped at
/// ``maximumPatternScalars`` scalars so a huge message cannot make a huge key.
public struct FailureKind: Hashable, Sendable, Comparable {
  /// The error's type as recorded (`-` when none was).
  public let type: String
  /// The message's pattern (empty when there was no message).
  public let pattern: String

  /// The longest pattern kept, in Unicode scalars.
  public static let maximumPatternScalars = 200

  /// The kind of an error of `type` with `message`.
  public init(type: String?, message: String?) {
    self.type = (type?.isEmpty ?? true) ? "-" : type!
    self.pattern = message.map(Self.pattern) ?? ""
  }

  /// The kind a summary counts failures under once it keeps as many kinds as it may
  /// (``OutcomeSummary/maximumFailureKinds``): type and pattern `…`.
  public static let overflow = FailureKind(stored: "…", pattern: "…")

  /// A kind as stored: `type` and `pattern` taken as they are.
  public init(stored type: String, pattern: String) {
    self.type = type
    self.pattern = pattern
  }

  /// How reports show it: `CheckoutError: timeout after # ms`.
  public var display: String { pattern.isEmpty ? type : "\(type): \(pattern)" }

  /// Orders by type, then pattern.
  public static func < (left: FailureKind, right: FailureKind) -> Bool {
    (left.type, left.pattern) < (right.type, right.pattern)
  }

  /// The pattern of `message`: varying hexadecimal and decimal runs as `#`, capped.
  public static func pattern(_ message: String) -> String {
    // Called for every failed outcome a scan reads: the pattern's length is counted as it
    // grows (a UnicodeScalarView counts by walking), and at most 4 × the cap is looked at.
    var out = String.UnicodeScalarView()
    var length = 0
    func append<Scalars: Collection<Unicode.Scalar>>(_ scalars: Scalars) {
      let taken = scalars.prefix(maximumPatternScalars - length)
      out.append(contentsOf: taken)
      length += taken.count
    }
    let scalars = Array(message.unicodeScalars.prefix(maximumPatternScalars * 4))
    var index = 0
    while index < scalars.count, length < maximumPatternScalars {
      var end = index
      while end < scalars.count, scalars[end].properties.isASCIIHexDigit { end += 1 }
      let run = scalars[index..<end]
      if end - index >= 8 || run.contains(where: { ("0"..."9").contains($0) }) {
        append(CollectionOfOne("#"))
        index = end
      } else if end > index {
        append(run)
        index = end
      } else {
        append(CollectionOfOne(scalars[index]))
        index += 1
      }
    }
    return String(out)
  }
}
