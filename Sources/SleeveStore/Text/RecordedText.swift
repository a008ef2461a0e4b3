/// The one place recorded text is bounded: every name, key, message and value Sleeve writes
/// into a database passes through ``capped(_:to:)`` first, so no value (a runaway error
/// description, a generated name, a hostile environment variable) can bloat the file.
///
/// Limits count UTF-8 bytes, the size SQLite stores, never `Character`s: one letter followed
/// by millions of combining marks is one `Character` but millions of bytes. A capped text is
/// cut at a Unicode scalar boundary (never inside a scalar's bytes, so it stays valid UTF-8)
/// and ends with ``marker``; with the marker it is at most the limit's bytes.
///
/// ```swift
/// let key = RecordedText.capped(userKey, to: .name)        // at most 1,024 bytes
/// let message = RecordedText.capped(description, to: .message)  // at most 4,096 bytes
/// ```
public enum RecordedText {
  /// A size limit in UTF-8 bytes.
  public struct Limit: Equatable, Sendable {
    /// The most bytes a capped text has, marker included (never fewer than the marker's).
    public let bytes: Int

    /// A limit of `bytes` UTF-8 bytes; raised to the marker's size when smaller.
    public init(bytes: Int) {
      self.bytes = max(bytes, RecordedText.marker.utf8.count)
    }

    /// 1,024 bytes: identifiers and names (session, control and handler names, control
    /// kinds, handler ids, registration sites, owner types, flag keys and owners, actors,
    /// tags, error types, environment variable names, host, OS and version strings).
    public static let name = Limit(bytes: 1_024)
    /// 4,096 bytes: free text (error messages, rollback reasons, a session's last write
    /// error, environment variable values).
    public static let message = Limit(bytes: 4_096)
  }

  /// What ends a capped text: `… [truncated]` (15 bytes).
  public static let marker = "… [truncated]"

  /// The most tags a session records; later ones are left out.
  public static let maximumTags = 64
  /// The most environment variables a session records; later names are left out.
  public static let maximumEnvironmentVariables = 64

  /// `text` unchanged when it fits in `limit`; otherwise its longest prefix of whole Unicode
  /// scalars that fits together with ``marker``, then the marker.
  ///
  /// Costs O(1) for a text that fits (a native string knows its UTF-8 size) and O(limit)
  /// otherwise, whatever the text's length.
  public static func capped(_ text: String, to limit: Limit) -> String {
    guard text.utf8.count > limit.bytes else { return text }
    let budget = limit.bytes - marker.utf8.count
    var used = 0
    var end = text.unicodeScalars.startIndex
    for scalar in text.unicodeScalars {
      let size = UTF8.width(scalar)
      guard used + size <= budget else { break }
      used += size
      end = text.unicodeScalars.index(after: end)
    }
    return String(text.unicodeScalars[..<end]) + marker
  }
}
