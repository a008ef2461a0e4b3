/// The Markdown Sleeve appends to a GitHub step summary, fitted to GitHub's limit.
///
/// GitHub keeps a step's summary only when the file holds at most 1 MiB (1,048,576 bytes); past
/// that it drops the whole summary ("upload aborted"). So Sleeve never writes past the limit:
/// a summary that does not fit in what the file has left is cut at the last line break that
/// fits (at a scalar boundary inside a line when no break is in the second half of the room,
/// so one over-long line is not dropped whole), an open code fence and open
/// `<details>` blocks are closed, and a quoted note says the summary was cut, how big it was,
/// and how to see all of it. When not even the note fits, nothing is written (and
/// `JobSummaryWrite.noRoom` says so).
enum StepSummaryText {
  /// The bytes a step summary may hold in all.
  static let limit = 1_048_576
  /// Bytes kept free for closing an open fence and `<details>` blocks after a cut.
  static let closingReserve = 128

  /// What to append to a summary file that already holds `existing` bytes: `markdown`, after a
  /// line feed when the file is not empty and ending with one; cut to fit as described above;
  /// `nil` when nothing fits.
  static func fitted(_ markdown: String, existing: Int) -> (text: String, isCut: Bool)? {
    guard !markdown.isEmpty else { return ("", false) }
    let room = limit - max(existing, 0)
    let full = (existing > 0 ? "\n" : "") + markdown + (markdown.hasSuffix("\n") ? "" : "\n")
    let bytes = Array(full.utf8)
    if bytes.count <= room { return (full, false) }
    let note = cutNote(totalBytes: markdown.utf8.count)
    let budget = room - note.utf8.count - closingReserve
    guard budget > 0 else { return nil }
    var end = budget
    if let lastBreak = bytes[..<budget].lastIndex(of: 0x0A), lastBreak + 1 >= budget / 2 {
      end = lastBreak + 1
    } else {
      // No line break in the second half of the room: cut inside the line, between scalars.
      while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
    }
    var kept = String(decoding: bytes[..<end], as: UTF8.self)
    if !kept.hasSuffix("\n") { kept += "\n" }
    return (kept + closers(for: Array(kept.utf8)) + note, true)
  }

  /// The note that ends a cut summary.
  static func cutNote(totalBytes: Int) -> String {
    "\n> **Cut here by Sleeve:** this summary has \(totalBytes) bytes, and GitHub keeps a step "
      + "summary only when it holds at most 1 MiB (1,048,576 bytes) in all. Run the same command "
      + "with `--format markdown` for the whole report.\n"
  }

  /// What closes a code fence left open and the `<details>` blocks left open (at most eight)
  /// in `kept`.
  private static func closers(for kept: [UInt8]) -> String {
    var openFence: UInt8?
    for line in kept.split(separator: 0x0A, omittingEmptySubsequences: false) {
      let indent = line.prefix { $0 == 0x20 }.count
      guard indent <= 3 else { continue }
      let rest = line.dropFirst(indent)
      guard let first = rest.first, first == 0x60 || first == 0x7E,
        rest.prefix(3).count == 3, rest.prefix(3).allSatisfy({ $0 == first })
      else { continue }
      if openFence == nil {
        openFence = first
      } else if openFence == first {
        openFence = nil
      }
    }
    var out = openFence.map { String(repeating: String(UnicodeScalar($0)), count: 3) + "\n" } ?? ""
    let open =
      count(of: Array("<details".utf8), in: kept) - count(of: Array("</details>".utf8), in: kept)
    out += String(repeating: "</details>\n", count: min(max(open, 0), 8))
    return out
  }

  /// How many times `needle` occurs in `haystack` as markup, without overlaps: an occurrence
  /// right after a `\` is Markdown-escaped text (`MarkdownText` writes a recorded `<details>`
  /// as `\<details\>`), not a block.
  private static func count(of needle: [UInt8], in haystack: [UInt8]) -> Int {
    guard !needle.isEmpty, haystack.count >= needle.count else { return 0 }
    var found = 0
    var index = 0
    while index <= haystack.count - needle.count {
      if haystack[index] == needle[0], index == 0 || haystack[index - 1] != 0x5C,
        haystack[index..<(index + needle.count)].elementsEqual(needle)
      {
        found += 1
        index += needle.count
      } else {
        index += 1
      }
    }
    return found
  }
}
