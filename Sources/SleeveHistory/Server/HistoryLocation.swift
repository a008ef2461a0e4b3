import CPostgres
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
  /// The passwords the URL holds (its user part's and any `password=` or `sslpassword=`
  /// query parameter's, decoded and as spelled): messages are scrubbed of them before they are
  /// shown.
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

  /// Reads `text` as a history URL, as libpq parses it (`PQconninfoParse`): what libpq would
  /// refuse is refused here, before any connection, and ``redacted`` is rebuilt from libpq's
  /// own reading, so no delimiter libpq reads differently (`?`, `@`, `%`) can carry a password
  /// into it.
  ///
  /// - Throws: `HistoryError` (exit 64) for text that is not a `postgresql://` or
  ///   `postgres://` URL libpq accepts, or that holds a NUL (libpq reads C strings). The
  ///   message never repeats the text.
  public init(_ text: String) throws(HistoryError) {
    guard Self.isHistory(text) else {
      throw HistoryError(
        .usage, "not a PostgreSQL URL (expected postgresql://user@host:port/database)")
    }
    let bytes = Array(text.utf8)
    guard !bytes.contains(0) else {
      throw HistoryError(.usage, "the history URL holds a NUL byte")
    }
    // libpq takes the scheme in lower case only.
    let schemeEnd = bytes.firstIndex(of: UInt8(ascii: ":")) ?? 0
    let scheme = String(decoding: bytes[..<schemeEnd], as: UTF8.self).lowercased()
    url = scheme + String(decoding: bytes[schemeEnd...], as: UTF8.self)
    let raw = Self.rawSecrets(Array(url.utf8))
    var errorText: UnsafeMutablePointer<CChar>?
    guard let options = PQconninfoParse(url, &errorText) else {
      let reason = errorText.map { String(cString: $0) } ?? "libpq could not read it"
      if let errorText { PQfreemem(errorText) }
      throw HistoryError(
        .usage,
        "the history URL is not one libpq reads: "
          + Self.scrub(Self.unquoted(reason), of: raw))
    }
    defer { PQconninfoFree(options) }
    var values: [(String, String)] = []
    var option = options
    while let keyword = option.pointee.keyword {
      if let value = option.pointee.val {
        values.append((String(cString: keyword), String(cString: value)))
      }
      option += 1
    }
    let secret = Set(["password", "sslpassword"])
    let decoded = raw.map { Self.percentDecoded(ArraySlice($0.utf8)) }
    var seen: Set<String> = []
    passwords = (values.filter { secret.contains($0.0) }.map(\.1) + raw + decoded)
      .filter { !$0.isEmpty && seen.insert($0).inserted }
    redacted = Self.display(scheme: scheme, values, secret: secret)
    self.options = Dictionary(values, uniquingKeysWith: { $1 })
  }

  /// The connection options libpq read from the URL (keyword to value; passwords among them).
  let options: [String: String]

  /// The URL as libpq read it, passwords as `***`: `scheme://user:***@host:port/db?k=v`.
  private static func display(scheme: String, _ values: [(String, String)], secret: Set<String>)
    -> String
  {
    let value = Dictionary(values, uniquingKeysWith: { $1 })
    var text = scheme + "://"
    let hasPassword = value["password"] != nil
    if let user = value["user"] { text += user }
    if hasPassword { text += ":***" }
    if value["user"] != nil || hasPassword { text += "@" }
    text += value["host"] ?? value["hostaddr"] ?? ""
    if let port = value["port"] { text += ":" + port }
    text += "/" + (value["dbname"] ?? "")
    let shown = ["user", "password", "host", "hostaddr", "port", "dbname"]
    let rest = values.filter { !shown.contains($0.0) }
      .map { secret.contains($0.0) ? "\($0.0)=***" : "\($0.0)=\($0.1)" }
    return rest.isEmpty ? text : text + "?" + rest.joined(separator: "&")
  }

  /// What in `bytes` (the URL as given) may be a password before libpq decodes it: the user
  /// part's after its first `:` up to the first and up to the last `@`, and each raw value of
  /// a query parameter whose decoded name is `password` or `sslpassword`. libpq's messages
  /// quote tokens as given, so these are scrubbed as well as the decoded passwords.
  private static func rawSecrets(_ bytes: [UInt8]) -> [String] {
    let colon = UInt8(ascii: ":")
    let at = UInt8(ascii: "@")
    let slash = UInt8(ascii: "/")
    let question = UInt8(ascii: "?")
    var found: [String] = []
    guard let schemeColon = bytes.firstIndex(of: colon), schemeColon + 3 <= bytes.count else {
      return []
    }
    let authority = bytes[(schemeColon + 3)...]
    let authorityEnd = authority.firstIndex { $0 == slash || $0 == question } ?? bytes.endIndex
    let hostPart = bytes[(schemeColon + 3)..<authorityEnd]
    if let userColon = hostPart.firstIndex(of: colon) {
      for end in [hostPart.firstIndex(of: at), hostPart.lastIndex(of: at)].compactMap({ $0 })
      where end > userColon {
        found.append(String(decoding: bytes[(userColon + 1)..<end], as: UTF8.self))
      }
    }
    if let query = bytes[authorityEnd...].firstIndex(of: question) {
      for parameter in bytes[(query + 1)...].split(separator: UInt8(ascii: "&")) {
        guard let equal = parameter.firstIndex(of: UInt8(ascii: "=")) else { continue }
        let name = percentDecoded(parameter[parameter.startIndex..<equal]).lowercased()
        if name == "password" || name == "sslpassword" {
          found.append(String(decoding: parameter[(equal + 1)...], as: UTF8.self))
        }
      }
    }
    return found.filter { !$0.isEmpty }
  }

  /// `message` with each double-quoted token replaced by `"…"`: libpq quotes the parts of a
  /// URL it could not read, and one of them may be a password.
  private static func unquoted(_ message: String) -> String {
    var output = String.UnicodeScalarView()
    var quoted = false
    for scalar in message.unicodeScalars {
      if scalar == "\"" {
        if !quoted {
          output.append(contentsOf: "\"…".unicodeScalars)
        } else {
          output.append(scalar)
        }
        quoted.toggle()
      } else if !quoted {
        output.append(scalar)
      }
    }
    return HistoryError.oneLine(String(output))
  }

  private static func scrub(_ message: String, of passwords: [String]) -> String {
    var text = message
    for password in passwords.sorted(by: { $0.utf8.count > $1.utf8.count }) {
      text = text.replacingAll(password, with: "***")
    }
    return text
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

  /// `message` with every password of this location (decoded, and as the URL spells it)
  /// replaced by `***`, longest first.
  public func scrubbed(_ message: String) -> String { Self.scrub(message, of: passwords) }
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
