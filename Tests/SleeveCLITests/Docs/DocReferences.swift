import Foundation

/// One thing a Markdown doc names that the repository does not have.
struct DocFinding: Equatable, CustomStringConvertible {
  /// What kind of reference failed.
  enum Kind: Equatable {
    /// A backticked path (`Sources/…`, `Tests/…`, `Migrations/…`, `scripts/…`, `docs/…`,
    /// `.ci/…`) or a bare file name (`Control.swift`).
    case path
    /// A Markdown link to a local file, or to a heading of one.
    case link
    /// A backticked Swift name that looks like a type (`Recorder`, `Recorder.startSession`).
    case symbol
    /// A backticked name in the test column of a `| decision | test |` table.
    case pinnedTest
  }

  /// The doc's path relative to the repository root.
  let document: String
  /// The line of the doc the reference is on (1-based).
  let line: Int
  /// What kind of reference failed.
  let kind: Kind
  /// What is wrong, naming the reference.
  let message: String

  var description: String { "\(document):\(line): \(message)" }
}

/// The rules that hold Sleeve's Markdown docs to the repository.
///
/// Outside fenced code blocks, a doc's references are checked as follows:
/// - **Paths.** A code span that starts with `Sources/`, `Tests/`, `Migrations/`, `scripts/`,
///   `docs/` or `.ci/` (a trailing `:line` or `:line:column` and a trailing `/` are allowed)
///   names a file or directory that exists; one with `*` matches at least one file. A code span
///   that is a bare file name (`Control.swift`, `RELIABILITY.md`) is some file's name (or one
///   of ``externalFileNames``). Spans with a space, `<`, `…` or `...` are patterns or prose,
///   not paths.
/// - **Links.** A link to a local file (`[x](docs/core.md)`, relative to the doc) points at a
///   file or directory that exists, and its `#anchor`, if any, at a heading of that file
///   (GitHub's slugs). `http`, `https` and `mailto` links are not fetched.
/// - **Types.** A code span that looks like a Swift type (an UpperCamelCase identifier, with
///   at least one lowercase letter, so SQL and shell words like `VACUUM` or `COLUMNS` are not
///   taken), optionally followed by `.member`s and one argument-label list
///   (`RolloutPlan(recordedUnit:salt:stages:)`), names only declared names
///   (``RepositoryIndex/declared``). A span that starts with a package target's name checks
///   the rest; one that starts with a name in ``externalNames`` is not checked.
/// - **Pinned tests.** In a `| decision | test |` table, every code span of the last column
///   that is an identifier or a `Suite.test` chain names a test function (lowercase) or a
///   suite type (uppercase) declared under `Tests/`.
struct DocReferences {
  /// The repository the docs are checked against.
  let index: RepositoryIndex

  /// Names the docs cite that Sleeve does not declare, kept in this one place: Swift's
  /// standard library and the toolchain's modules, the platforms' UI frameworks (the bridge's
  /// page names their controls), and other projects' APIs named for comparison. Members of
  /// these names (`Int64.max`, `Task.immediate`) are not checked either.
  static let externalNames: Set<String> = [
    // Swift's standard library, Synchronization, Foundation, Testing, XCTest.
    "Array", "CancellationError", "Character", "ContinuousClock", "Double", "Duration", "Int",
    "Int64", "Int128", "Mutex", "Self", "Sendable", "String", "Task", "Unmanaged",
    "Process", "URLSession", "HTTPURLResponse", "IssueHandlingTrait", "XCTestCase", "XCTSkip",
    "Synchronization", "Foundation", "FoundationNetworking", "Dispatch", "Glibc", "Darwin",
    "ObjectiveC", "Testing", "XCTest", "Test", "Issue",
    // UIKit and AppKit.
    "UIKit", "AppKit", "UIControl", "UIAction", "UIButton", "UISwitch", "UISlider",
    "UITextField", "UISegmentedControl", "UIStepper", "UIDatePicker", "NSControl", "NSView",
    "NSButton", "NSSlider", "NSTextField",
    // Other projects: GrowthBook's gbstats, statsmodels, OpenTelemetry's protocol.
    "TestSequentialTTest", "NormalIndPower", "ExportTraceServiceRequest",
    "ExportMetricsServiceRequest", "ExponentialHistogramDataPoint",
  ]

  /// Bare file names the docs cite that are not the repository's: another project's file
  /// (Unicode's `EastAsianWidth.txt`) and the placeholder a registration site is shown with
  /// (`File.swift:42`).
  static let externalFileNames: Set<String> = ["EastAsianWidth.txt", "File.swift"]

  /// The directories a backticked path may start with.
  static let pathRoots = ["Sources/", "Tests/", "Migrations/", "scripts/", "docs/", ".ci/"]

  /// Every reference in `text`, the doc at `document` (relative to the root), that fails.
  func findings(in text: String, document: String) -> [DocFinding] {
    var findings: [DocFinding] = []
    var anchors: [String: Set<String>] = [:]
    for block in Self.blocks(of: text) {
      // Counted on from the last index asked for (spans and links are each met in order),
      // not from the block's start every time.
      var counted = (index: block.text.startIndex, lines: 0)
      func line(at index: String.Index) -> Int {
        if index < counted.index { counted = (block.text.startIndex, 0) }
        counted.lines += block.text[counted.index..<index].reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
        counted.index = index
        return block.start + counted.lines
      }
      let pinned = Self.pinnedTests(in: block.text)
      for (start, content) in Self.codeSpans(in: block.text[...]) {
        let span = content.replacingOccurrences(of: "\n", with: " ")
          .trimmingCharacters(in: .whitespaces)
        let at = line(at: start)
        if let message = pathProblem(span) {
          findings.append(DocFinding(document: document, line: at, kind: .path, message: message))
        }
        // A pinned test is held to Tests/ below, by the stricter rule.
        if pinned.contains(where: { block.start + $0.0 == at && $0.1 == span }) { continue }
        for message in symbolProblems(span) {
          findings.append(
            DocFinding(document: document, line: at, kind: .symbol, message: message))
        }
      }
      for (start, target) in Self.linkTargets(in: block.text) {
        if let message = linkProblem(target, from: document, text: text, anchors: &anchors) {
          findings.append(
            DocFinding(document: document, line: line(at: start), kind: .link, message: message))
        }
      }
      for (offset, name) in pinned {
        if let message = pinnedTestProblem(name) {
          findings.append(
            DocFinding(
              document: document, line: block.start + offset, kind: .pinnedTest,
              message: message))
        }
      }
    }
    return findings
  }

  // MARK: - Paths

  /// Why `span` is a path that does not exist, or `nil` (it exists, or it is no path).
  func pathProblem(_ span: String) -> String? {
    var path = Self.withoutLineNumbers(span)
    if path.contains(" ") || path.contains("<") || path.contains("…") || path.contains("...") {
      return nil
    }
    if Self.pathRoots.contains(where: path.hasPrefix) {
      if path.hasSuffix("/") { path.removeLast() }
      if path.contains("*") {
        let pattern =
          "^"
          + path.split(separator: "*", omittingEmptySubsequences: false)
          .map { NSRegularExpression.escapedPattern(for: String($0)) }
          .joined(separator: "[^/]*") + "$"
        guard let glob = try? Regex(pattern) else { return "`\(span)` is not a valid pattern" }
        return index.files.contains(where: { $0.wholeMatch(of: glob) != nil })
          ? nil : "`\(span)` matches no file in the repository"
      }
      return index.exists(path) ? nil : "`\(span)` names no file or directory in the repository"
    }
    if Self.isFileName(path) {
      return index.fileNames.contains(path) || Self.externalFileNames.contains(path)
        ? nil : "`\(span)` is the name of no file in the repository"
    }
    return nil
  }

  /// Whether `span` is a bare file name (`Control.swift`, `RELIABILITY.md`): no directory, and
  /// one of the extensions the repository's files have.
  static func isFileName(_ span: String) -> Bool {
    guard let dot = span.lastIndex(of: "."), dot > span.startIndex,
      fileExtensions.contains(String(span[span.index(after: dot)...]))
    else { return false }
    return span.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_+.-".contains($0)) }
  }

  /// The extensions a bare file name in a doc may have.
  static let fileExtensions: Set<String> = ["swift", "md", "sql", "py", "sh", "txt", "json"]

  /// `span` without a trailing `:line` or `:line:column`.
  static func withoutLineNumbers(_ span: String) -> String {
    var path = Substring(span)
    for _ in 0..<2 {
      guard let colon = path.lastIndex(of: ":"), colon < path.index(before: path.endIndex),
        path[path.index(after: colon)...].allSatisfy(\.isASCII),
        path[path.index(after: colon)...].allSatisfy(\.isNumber)
      else { break }
      path = path[..<colon]
    }
    return String(path)
  }

  /// Whether `text` is `name` or `name.name…`, each name an ASCII identifier (a trailing `?`
  /// allowed on each when `optionals`: `init?`).
  static func isNameChain(_ text: Substring, optionals: Bool = false) -> Bool {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    return parts.allSatisfy { part in
      let name = optionals && part.hasSuffix("?") ? part.dropLast() : part
      guard let first = name.first, first.isASCII, first.isLetter || first == "_" else {
        return false
      }
      return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }
  }

  // MARK: - Links

  /// Why the link `target` in `document` (whose text is `text`) leads nowhere, or `nil`.
  func linkProblem(
    _ target: String, from document: String, text: String,
    anchors cache: inout [String: Set<String>]
  ) -> String? {
    if target.hasPrefix("http://") || target.hasPrefix("https://") || target.hasPrefix("mailto:") {
      return nil
    }
    let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
    let file = String(parts[0])
    let anchor = parts.count > 1 ? String(parts[1]) : ""
    var resolved = document
    if !file.isEmpty {
      let directory = document.split(separator: "/").dropLast()
      var components = directory.map(String.init)
      for component in file.split(separator: "/") {
        if component == ".." {
          if components.isEmpty { return "the link `\(target)` leaves the repository" }
          components.removeLast()
        } else if component != "." {
          components.append(String(component))
        }
      }
      resolved = components.joined(separator: "/")
      guard index.exists(resolved) else {
        return "the link `\(target)` leads to no file in the repository"
      }
    }
    guard !anchor.isEmpty else { return nil }
    // The document's own headings come from `text` (which may be a fixture not on disk); every
    // other file's from the index, read once per process.
    let headings: Set<String>
    if resolved == document {
      if cache[resolved] == nil { cache[resolved] = Self.anchors(of: text) }
      headings = cache[resolved, default: []]
    } else {
      headings = index.anchors[resolved, default: []]
    }
    return headings.contains(anchor)
      ? nil : "the link `\(target)` names no heading of \(resolved)"
  }

  /// The anchors GitHub gives the headings of `text`: lowercased, every character but
  /// letters, digits, spaces, `-` and `_` removed, spaces made `-`; a repeated slug gets `-1`,
  /// `-2`, ….
  static func anchors(of text: String) -> Set<String> {
    var seen: [String: Int] = [:]
    var anchors = Set<String>()
    var inFence = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inFence.toggle() }
      guard !inFence, let heading = line.firstMatch(of: /^#{1,6} +(.*?) *#* *$/) else { continue }
      let slug = String(
        heading.output.1.lowercased().unicodeScalars.compactMap { scalar -> Character? in
          if scalar == " " { return "-" }
          if scalar == "-" || scalar == "_" { return Character(scalar) }
          return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
            ? Character(scalar) : nil
        })
      let count = seen[slug, default: 0]
      seen[slug] = count + 1
      anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
    }
    return anchors
  }

  // MARK: - Types

  /// Why the Swift name `span` names something undeclared (one reason per unknown part), or
  /// nothing (declared, external, or not a type-like name).
  func symbolProblems(_ span: String) -> [String] {
    let name = span.prefix { $0 != "(" }
    let arguments = span[name.endIndex...]
    guard let initial = span.first, initial.isASCII, initial.isUppercase,
      Self.isNameChain(name, optionals: true), !Self.isFileName(span),
      arguments.isEmpty
        || (arguments.hasSuffix(")") && arguments.filter { "()".contains($0) }.count == 2)
    else { return [] }
    var parts = name.split(separator: ".").map { $0.hasSuffix("?") ? $0.dropLast() : $0 }
      .map(String.init)
    guard let first = parts.first, first.contains(where: \.isLowercase) else { return [] }
    if Self.externalNames.contains(first) { return [] }
    if index.modules.contains(first) { parts.removeFirst() }
    return parts.filter { $0 != "init" && !index.declared.contains($0) }.map { part in
      "`\(span)`: `\(part)` is declared nowhere in Sources/ or Tests/"
    }
  }

  // MARK: - Pinned tests

  /// Why the pinned test `name` (`test`, `Suite`, `Suite.test`) is not a test, or `nil`.
  func pinnedTestProblem(_ name: String) -> String? {
    let missing = name.split(separator: ".").map(String.init).filter { part in
      part.first?.isUppercase == true
        ? !index.testTypes.contains(part) : !index.testFunctions.contains(part)
    }
    guard !missing.isEmpty else { return nil }
    return "the test `\(name)` pins a decision, but "
      + missing.map { "`\($0)`" }.joined(separator: ", ") + " is declared nowhere in Tests/"
  }

  /// The code spans in the last column of every `| decision | test |` table row of `block`,
  /// each with its line's offset in the block, that are an identifier or a dotted chain.
  static func pinnedTests(in block: String) -> [(Int, String)] {
    var result: [(Int, String)] = []
    var inTable = false
    for (offset, line) in block.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      if line.filter({ $0 != " " }) == "|decision|test|" {
        inTable = true
        continue
      }
      guard inTable, line.hasPrefix("|") else {
        inTable = false
        continue
      }
      guard let cell = cells(of: line).last else { continue }
      for (_, name) in codeSpans(in: cell) where isNameChain(name) {
        result.append((offset, String(name)))
      }
    }
    return result
  }

  /// The cells of a table row, split at the `|`s outside code spans.
  static func cells(of row: Substring) -> [Substring] {
    var cells: [Substring] = []
    var inCode = false
    var start = row.startIndex
    var index = row.startIndex
    while index < row.endIndex {
      let character = row[index]
      if character == "`" { inCode.toggle() }
      if character == "|", !inCode {
        if index > start || !cells.isEmpty { cells.append(row[start..<index]) }
        start = row.index(after: index)
      }
      index = row.index(after: index)
    }
    if start < row.endIndex, !row[start...].trimmingCharacters(in: .whitespaces).isEmpty {
      cells.append(row[start...])
    }
    return cells
  }

  // MARK: - Blocks

  /// The code spans of `text` (between a pair of single backticks), each with where it starts.
  static func codeSpans(in text: Substring) -> [(String.Index, Substring)] {
    var spans: [(String.Index, Substring)] = []
    var rest = text[...]
    while let open = rest.firstIndex(of: "`") {
      let inside = rest[rest.index(after: open)...]
      guard let close = inside.firstIndex(of: "`") else { break }
      if close > inside.startIndex { spans.append((open, inside[..<close])) }
      rest = inside[inside.index(after: close)...]
    }
    return spans
  }

  /// The targets of the inline links of `text` (`](target)`, no space in the target), each
  /// with where its `](` starts. Code spans are skipped.
  static func linkTargets(in text: String) -> [(String.Index, String)] {
    var targets: [(String.Index, String)] = []
    var inCode = false
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if character == "`" { inCode.toggle() }
      let next = text.index(after: index)
      if !inCode, character == "]", next < text.endIndex, text[next] == "(" {
        let start = text.index(after: next)
        let target = text[start...].prefix { $0 != ")" && !$0.isWhitespace }
        if target.endIndex < text.endIndex, text[target.endIndex] == ")", !target.isEmpty {
          targets.append((index, String(target)))
        }
      }
      index = next
    }
    return targets
  }

  /// The paragraphs, lists and tables of `text` (runs of lines without a blank one), each with
  /// its first line number, fenced code blocks left out. A code span cannot cross a blank line,
  /// so each block holds whole spans.
  static func blocks(of text: String) -> [(start: Int, text: String)] {
    var blocks: [(start: Int, text: String)] = []
    var current: [Substring] = []
    var start = 0
    var inFence = false
    func close() {
      if !current.isEmpty { blocks.append((start, current.joined(separator: "\n"))) }
      current = []
    }
    for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
        close()
        inFence.toggle()
        continue
      }
      if inFence { continue }
      if line.trimmingCharacters(in: .whitespaces).isEmpty {
        close()
        continue
      }
      if current.isEmpty { start = offset + 1 }
      current.append(line)
    }
    close()
    return blocks
  }
}
