import SleeveStore

/// Where a shared history is: a PostgreSQL connection URL (`postgresql://…` or `postgres://…`),
/// as libpq takes it (its user, password, host, port, database and query parameters such as
/// `sslmode`; libpq's environment, `PGPASSWORD`, `PGSERVICE` and `.pgpass` fill in the rest).
///
/// Its one promise beyond the URL itself: ``redacted`` never holds a password, so every message
/// that names a history names it through ``redacted``.
///
/// ```swift
/// let location = try HistoryLocation("postgresql://ci:s3cret@db.internal/sleeve")
/// print(location.redacted)  // postgresql://ci:***@db.internal/sleeve
/// ```
public struct HistoryLocation: Equatable, Sendable {
  /// The URL as given (it may hold a password: never print it).
  public let url: String
  /// The passwords the URL holds (its user part's and any `password=` query parameter's,
  /// decoded): messages are scrubbed of them before they are shown.
  public let passwords: [String]
  /// The URL with every password replaced by `***`: the only form of it Sleeve prints.
  public let redacted: String

  /// The URL schemes that name a history (case-insensitive), as libpq accepts them.
  public static let schemes = ["postgresql://", "postgres://"]

  /// Whether `text` names a history rather than a file: it starts with one of ``schemes``.
  public static func isHistory(_ text: String) -> Bool {
    let lowered = String(decoding: text.utf8.prefix(16), as: UTF8.self).lowercased()
    return schemes.contains { lowered.hasPrefix($0) }
  }

  /// Reads `text` as a history URL.
  ///
  /// - Throws: `HistoryError` (exit 64) for text that is not a `postgresql://` or
  ///   `postgres://` URL, or that holds a NUL (libpq reads C strings).
  public init(_ text: String) throws(HistoryError) {
    guard Self.isHistory(text) else {
      throw HistoryError(
        .usage, "'\(text)' is not a PostgreSQL URL (postgresql://user@host:port/database)")
    }
    let bytes = Array(text.utf8)
    guard !bytes.contains(0) else {
      throw HistoryError(.usage, "the history URL holds a NUL byte")
    }
    url = text
    var found: [String] = []
    redacted = Self.redact(bytes, passwords: &found)
    passwords = found.filter { !$0.isEmpty }
  }

  /// Replaces with `***` the password of the user part (between the first `:` of the
  /// authority's user info and its last `@`) and the value of each `password` query
  /// parameter (its name compared after percent-decoding). Works on UTF-8 bytes, so no
  /// combining mark or grapheme cluster can hide a delimiter.
  private static func redact(_ bytes: [UInt8], passwords: inout [String]) -> String {
    let colon = UInt8(ascii: ":")
    let at = UInt8(ascii: "@")
    let slash = UInt8(ascii: "/")
    let question = UInt8(ascii: "?")
    let ampersand = UInt8(ascii: "&")
    let equals = UInt8(ascii: "=")
    var output: [UInt8] = []
    guard let schemeEnd = firstIndex(of: [colon, slash, slash], in: bytes) else {
      return String(decoding: bytes, as: UTF8.self)
    }
    let authorityStart = schemeEnd + 3
    let authorityEnd =
      bytes[authorityStart...].firstIndex { $0 == slash || $0 == question } ?? bytes.endIndex
    output += bytes[..<authorityStart]
    let authority = bytes[authorityStart..<authorityEnd]
    if let lastAt = authority.lastIndex(of: at) {
      let userInfo = authority[authority.startIndex..<lastAt]
      if let firstColon = userInfo.firstIndex(of: colon) {
        output += userInfo[userInfo.startIndex...firstColon]
        output += Array("***".utf8)
        passwords.append(percentDecoded(userInfo[(firstColon + 1)...]))
      } else {
        output += userInfo
      }
      output += authority[lastAt...]
    } else {
      output += authority
    }
    guard authorityEnd < bytes.endIndex else { return String(decoding: output, as: UTF8.self) }
    let rest = bytes[authorityEnd...]
    guard let queryStart = rest.firstIndex(of: question) else {
      output += rest
      return String(decoding: output, as: UTF8.self)
    }
    output += rest[...queryStart]
    let parameters = rest[(queryStart + 1)...].split(
      separator: ampersand, omittingEmptySubsequences: false)
    for (index, parameter) in parameters.enumerated() {
      if index > 0 { output.append(ampersand) }
      let equal = parameter.firstIndex(of: equals)
      let name = percentDecoded(parameter[parameter.startIndex..<(equal ?? parameter.endIndex)])
      if let equal, name.lowercased() == "password" {
        output += parameter[...equal]
        output += Array("***".utf8)
        passwords.append(percentDecoded(parameter[(equal + 1)...]))
      } else {
        output += parameter
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  private static func firstIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
    guard bytes.count >= needle.count else { return nil }
    for start in 0...(bytes.count - needle.count)
    where bytes[start..<(start + needle.count)].elementsEqual(needle) {
      return start
    }
    return nil
  }

  /// `%XX` escapes decoded (an escape that is not two hex digits is kept as it is).
  static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> String {
    var decoded: [UInt8] = []
    var index = bytes.startIndex
    while index < bytes.endIndex {
      if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.endIndex,
        let high = HexDigit.value(bytes[index + 1]), let low = HexDigit.value(bytes[index + 2])
      {
        decoded.append(high << 4 | low)
        index += 3
      } else {
        decoded.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: decoded, as: UTF8.self)
  }

  /// `message` with every password of this location replaced by `***`.
  public func scrubbed(_ message: String) -> String {
    var text = message
    for password in passwords.sorted(by: { $0.utf8.count > $1.utf8.count }) {
      text = text.replacingAll(password, with: "***")
    }
    return text
  }
}

extension String {
  /// Every occurrence of `needle` (compared as UTF-8 bytes) replaced by `replacement`.
  fileprivate func replacingAll(_ needle: String, with replacement: String) -> String {
    let haystack = Array(utf8)
    let pattern = Array(needle.utf8)
    guard !pattern.isEmpty, haystack.count >= pattern.count else { return self }
    var output: [UInt8] = []
    var index = 0
    while index < haystack.count {
      if index + pattern.count <= haystack.count,
        haystack[index..<(index + pattern.count)].elementsEqual(pattern)
      {
        output += Array(replacement.utf8)
        index += pattern.count
      } else {
        output.append(haystack[index])
        index += 1
      }
    }
    return String(decoding: output, as: UTF8.self)
  }
}
