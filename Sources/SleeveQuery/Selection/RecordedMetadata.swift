import Foundation
import SleeveStore

/// What a session recorded beyond its fixed columns: the `metadata_json` column (today the
/// environment variables the recorder was told to keep) and the `tags_json` column, parsed by
/// the one JSON parser every reader of them uses (Foundation's `JSONSerialization`).
///
/// A value any file can hold gives an answer, never a trap: text that is not JSON, or JSON of
/// another shape, reads as no environment and no tags; a non-string environment value or tag
/// is left out. Values are kept as recorded (quotes, braces, newlines and all; each output
/// format escapes them itself), within the recorder's caps, whatever the file holds: at most
/// `RecordedText.maximumTags` tags (the first ones) and
/// `RecordedText.maximumEnvironmentVariables` variables (the first by name), tags and names
/// capped at `RecordedText.Limit.name`, values at `.message`.
public struct RecordedMetadata: Equatable, Sendable {
  /// The recorded environment variables, by name.
  public let environment: [String: String]
  /// The session's tags, in recorded order.
  public let tags: [String]

  /// The environment variables sorted by name, as `(name, value)` pairs.
  public var sortedEnvironment: [(name: String, value: String)] {
    environment.keys.sorted().map { ($0, environment[$0] ?? "") }
  }

  /// Parses the stored texts (`nil` reads as absent).
  public init(metadataJSON: String?, tagsJSON: String?) {
    let metadata = Self.parse(metadataJSON) as? [String: Any]
    let variables = (metadata?["environment"] as? [String: Any] ?? [:]).compactMapValues {
      $0 as? String
    }
    var environment: [String: String] = [:]
    for name in variables.keys.sorted() {
      guard environment.count < RecordedText.maximumEnvironmentVariables else { break }
      let capped = RecordedText.capped(name, to: .name)
      if environment[capped] == nil, let value = variables[name] {
        environment[capped] = RecordedText.capped(value, to: .message)
      }
    }
    self.environment = environment
    tags = Self.stringArray(tagsJSON).prefix(RecordedText.maximumTags).map {
      RecordedText.capped($0, to: .name)
    }
  }

  /// The strings of a JSON array (other elements left out); none for text that is not one.
  static func stringArray(_ json: String?) -> [String] {
    (parse(json) as? [Any] ?? []).compactMap { $0 as? String }
  }

  private static func parse(_ text: String?) -> Any? {
    guard let text, !text.isEmpty else { return nil }
    return try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
  }
}

extension SessionSummary {
  /// The session's recorded environment and tags, parsed from its stored metadata.
  public var recorded: RecordedMetadata {
    RecordedMetadata(metadataJSON: metadata["metadataJSON"], tagsJSON: metadata["tagsJSON"])
  }
}
