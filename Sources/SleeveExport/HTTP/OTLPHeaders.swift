import SleeveStore

/// Extra request headers from `OTEL_EXPORTER_OTLP_HEADERS` (or a signal's own
/// `…_TRACES_HEADERS`), usually for auth.
///
/// The format is the OpenTelemetry one: `name=value,name=value`, each name and value trimmed
/// of spaces and tabs, each value percent-decoded (`Basic%20abc` is `Basic abc`); empty
/// entries (a trailing comma) are skipped. A malformed entry is an
/// `OTLPConfigurationError.invalidHeaders` naming the variable and the entry's position,
/// never its text.
///
/// Values are secrets: `description`, `debugDescription` and the mirror list names only, so
/// neither an error, a log line nor a test failure can print one.
public struct OTLPHeaders: Sendable, Equatable, CustomStringConvertible,
  CustomDebugStringConvertible, CustomReflectable
{
  /// One header: its name as given and its decoded value.
  struct Field: Sendable, Equatable {
    let name: String
    let value: String
  }

  /// The headers in the order given (a repeated name is sent once per entry).
  let fields: [Field]

  /// No headers.
  public init() { fields = [] }

  /// The headers in `text`, read from `variable`.
  ///
  /// - Throws: `OTLPConfigurationError.invalidHeaders(variable:entry:problem:)`.
  public static func parse(_ text: String, variable: String) throws(OTLPConfigurationError)
    -> OTLPHeaders
  {
    var fields: [Field] = []
    let entries = Array(text.utf8).split(
      separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
    for (index, entry) in entries.enumerated() {
      func refuse(_ problem: OTLPConfigurationError.HeaderProblem) -> OTLPConfigurationError {
        .invalidHeaders(variable: variable, entry: index + 1, problem: problem)
      }
      let bytes = trimmed(entry)
      if bytes.isEmpty { continue }
      guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else {
        throw refuse(.missingEquals)
      }
      let name = trimmed(bytes[..<equals])
      guard !name.isEmpty else { throw refuse(.emptyName) }
      guard name.allSatisfy(isTokenByte) else { throw refuse(.invalidName) }
      let value = try decoded(trimmed(bytes[(equals + 1)...]), refuse: refuse)
      fields.append(Field(name: String(decoding: name, as: UTF8.self), value: value))
    }
    return OTLPHeaders(fields: fields)
  }

  private init(fields: [Field]) { self.fields = fields }

  /// The header names, in order (never the values).
  public var names: [String] { fields.map(\.name) }

  /// The value of the header `name` (compared case-insensitively), the values of a repeated
  /// name joined with `, ` as HTTP does; `nil` when absent.
  public func value(named name: String) -> String? {
    let matching = fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    return matching.isEmpty ? nil : matching.joined(separator: ", ")
  }

  /// `OTLPHeaders(Authorization, X-Team: values hidden)`.
  public var description: String {
    "OTLPHeaders(\(names.joined(separator: ", ")): values hidden)"
  }

  /// The same as `description`: values hidden.
  public var debugDescription: String { description }

  /// A mirror with the names only, so `dump` and test failures never show a value.
  public var customMirror: Mirror { Mirror(self, children: ["names": names]) }

  private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    guard let first = bytes.firstIndex(where: { !isBlank($0) }),
      let last = bytes.lastIndex(where: { !isBlank($0) })
    else { return [] }
    return bytes[first...last]
  }

  /// RFC 9110 `tchar`: ALPHA, DIGIT and ``!#$%&'*+-.^_`|~``.
  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
  }

  /// A control byte a header value cannot hold (tab is allowed).
  private static func isControl(_ byte: UInt8) -> Bool {
    (byte < 0x20 && byte != 0x09) || byte == 0x7F
  }

  private static func decoded(
    _ bytes: ArraySlice<UInt8>,
    refuse: (OTLPConfigurationError.HeaderProblem) -> OTLPConfigurationError
  ) throws(OTLPConfigurationError) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%") {
        guard bytes.endIndex - index >= 3, let high = HexDigit.value(bytes[index + 1]),
          let low = HexDigit.value(bytes[index + 2])
        else { throw refuse(.badPercentEscape) }
        out.append(high << 4 | low)
        index += 3
      } else {
        out.append(byte)
        index += 1
      }
    }
    guard !out.contains(where: isControl) else { throw refuse(.controlInValue) }
    guard let text = String(validating: out, as: UTF8.self) else { throw refuse(.notUTF8) }
    return text
  }

}
