import Foundation
import SleeveStore

/// What a session records about where it ran: the checklist's runtime, versions, OS and host,
/// plus only the environment variables the user names (never the whole environment).
public struct SessionMetadata: Sendable, Equatable {
  /// The session's name, e.g. the test suite's.
  public let name: String
  /// Free-form tags, e.g. `["ci", "nightly"]`.
  public let tags: [String]
  /// A fresh random UUID, lowercase: the session's identity across files.
  public let uuid: String
  /// The host name.
  public let host: String
  /// The process id.
  public let pid: Int32
  /// The operating system, e.g. `Debian GNU/Linux 12 (bookworm); Linux 6.1.0`.
  public let os: String
  /// The Swift runtime the binary was built with, e.g. `Swift 6.3`.
  public let runtime: String
  /// Sleeve's version.
  public let sleeveVersion: String
  /// The SQLite library's version.
  public let sqliteVersion: String
  /// The named environment variables that are set, with their values.
  public let environment: [String: String]

  /// Gathers metadata for a new session, every text capped as it will be recorded
  /// (``RecordedText``): names, tags, host, OS and environment variable names at
  /// `RecordedText.Limit.name` (1,024 UTF-8 bytes), environment values at
  /// `RecordedText.Limit.message` (4,096 bytes); at most `RecordedText.maximumTags` tags and
  /// `RecordedText.maximumEnvironmentVariables` variables (64 each), the first ones given.
  ///
  /// - Parameters:
  ///   - name: The session's name.
  ///   - tags: Free-form tags.
  ///   - environmentNames: The environment variables to record; unset ones are left out.
  package init(name: String, tags: [String], environmentNames: [String]) {
    let process = ProcessInfo.processInfo
    self.name = RecordedText.capped(name, to: .name)
    self.tags = tags.prefix(RecordedText.maximumTags).map { RecordedText.capped($0, to: .name) }
    self.uuid = UUID().uuidString.lowercased()
    self.host = RecordedText.capped(SessionLiveness.localHostName(), to: .name)
    self.pid = process.processIdentifier
    self.os = RecordedText.capped(Self.operatingSystem(), to: .name)
    self.runtime = Self.swiftRuntime
    self.sleeveVersion = Sleeve.version
    self.sqliteVersion = RecordedText.capped(Connection.libraryVersion, to: .name)
    var environment: [String: String] = [:]
    let variables = process.environment
    for name in environmentNames.prefix(RecordedText.maximumEnvironmentVariables) {
      if let value = variables[name] {
        environment[RecordedText.capped(name, to: .name)] = RecordedText.capped(
          value, to: .message)
      }
    }
    self.environment = environment
  }

  /// Tags as a JSON array.
  var tagsJSON: String { JSON.array(tags) }

  /// Environment and anything else as a JSON object with sorted keys.
  var metadataJSON: String { JSON.object(["environment": RawJSON(JSON.object(environment))]) }

  static var swiftRuntime: String {
    #if swift(>=7.0)
      "Swift 7.0 or later"
    #elseif swift(>=6.3)
      "Swift 6.3"
    #elseif swift(>=6.2)
      "Swift 6.2"
    #else
      "Swift 6"
    #endif
  }

  static func operatingSystem() -> String {
    let release = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
    let pretty = release.split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
      .map { $0.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: ["\""]) }
    return [pretty, kernel()].compactMap { $0 }.joined(separator: "; ")
  }

  /// `Linux 6.1.0-18-amd64`: the kernel's name and release, from `uname`.
  static func kernel() -> String? {
    var names = utsname()
    guard uname(&names) == 0 else { return nil }
    func text<Field>(_ field: Field) -> String {
      withUnsafeBytes(of: field) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
    }
    return text(names.sysname) + " " + text(names.release)
  }
}
