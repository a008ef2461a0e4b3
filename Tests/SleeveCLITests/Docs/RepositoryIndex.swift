import Foundation

/// What the repository holds, for checking what its Markdown docs name: every file and
/// directory (relative to the root), every name a Swift file declares, and every Markdown
/// heading's anchor.
///
/// A name is *declared* when it follows `struct`, `enum`, `class`, `protocol`, `actor`,
/// `typealias`, `associatedtype`, `func`, `var`, `let` or `case` (each name of a `case a, b`
/// list too) in a `.swift` file under `Sources/` or `Tests/`. The index does not know which
/// type a member belongs to: `Type.member` in a doc is held to "`Type` is a declared type name
/// and `member` a declared name", which catches a misspelling or a rename, not a member moved
/// to another type.
struct RepositoryIndex {
  /// The repository's root directory.
  let root: URL
  /// Every file's path relative to the root (`Sources/SleeveCore/Controls/Control.swift`),
  /// build products and version-control data left out.
  let files: Set<String>
  /// Every directory's path relative to the root, without a trailing slash.
  let directories: Set<String>
  /// Every file's last path component (`Control.swift`).
  let fileNames: Set<String>
  /// Every name declared in `Sources/` or `Tests/`.
  let declared: Set<String>
  /// Type names (`struct`, `enum`, `class`, `actor`) declared in `Tests/`: suites.
  let testTypes: Set<String>
  /// Function names declared in `Tests/`: tests (and their helpers).
  let testFunctions: Set<String>
  /// The package's target names, read from `Package.swift` (`name: "SleeveCore"`).
  let modules: Set<String>
  /// The anchors of every Markdown file's headings, by the file's path (GitHub's slugs,
  /// ``DocReferences/anchors(of:)``): read once with the rest of the index, so checking a link
  /// never reads a file again.
  let anchors: [String: Set<String>]

  /// The root of the repository this test file is in (four levels up from it).
  static let currentRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The repository this test file is in.
  static let current = RepositoryIndex(root: currentRoot)

  /// The Markdown files under `directory` (relative to `root`), relative to `root`, sorted: what
  /// `files` holds there, read without walking the rest of the repository, so the docs' tests
  /// can be listed before the index is built (Swift Testing evaluates test arguments on one
  /// thread before any test runs; the whole index took 1.3 to 2.5 s of it there).
  static func markdownFiles(under directory: String, in root: URL) -> [String] {
    let rootPath = root.standardizedFileURL.path
    let walker = FileManager.default.enumerator(
      at: root.appendingPathComponent(directory), includingPropertiesForKeys: [.isDirectoryKey])
    var found: [String] = []
    while let url = walker?.nextObject() as? URL {
      let path = url.standardizedFileURL.path
      guard path.hasPrefix(rootPath + "/"), url.lastPathComponent.hasSuffix(".md") else {
        continue
      }
      if (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true { continue }
      found.append(String(path.dropFirst(rootPath.count + 1)))
    }
    return found.sorted()
  }

  /// Walks `root` once, reading every Swift file under `Sources/` and `Tests/`.
  init(root: URL) {
    self.root = root
    var files = Set<String>()
    var directories = Set<String>()
    var declared = Set<String>()
    var testTypes = Set<String>()
    var testFunctions = Set<String>()
    var anchors: [String: Set<String>] = [:]
    let rootPath = root.standardizedFileURL.path
    let walker = FileManager.default.enumerator(
      at: root, includingPropertiesForKeys: [.isDirectoryKey])
    while let url = walker?.nextObject() as? URL {
      let path = url.standardizedFileURL.path
      guard path.hasPrefix(rootPath + "/") else { continue }
      let relative = String(path.dropFirst(rootPath.count + 1))
      let name = url.lastPathComponent
      let isDirectory = (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory ?? false
      if isDirectory {
        if Self.skippedDirectories.contains(name) {
          walker?.skipDescendants()
          continue
        }
        directories.insert(relative)
        continue
      }
      files.insert(relative)
      if name.hasSuffix(".md"), let text = try? String(contentsOf: url, encoding: .utf8) {
        anchors[relative] = DocReferences.anchors(of: text)
        continue
      }
      guard name.hasSuffix(".swift"),
        relative.hasPrefix("Sources/") || relative.hasPrefix("Tests/"),
        let text = try? String(contentsOf: url, encoding: .utf8)
      else { continue }
      let found = SwiftDeclarations(text)
      declared.formUnion(found.names)
      if relative.hasPrefix("Tests/") {
        testTypes.formUnion(found.typeNames)
        testFunctions.formUnion(found.functionNames)
      }
    }
    self.files = files
    self.directories = directories
    self.fileNames = Set(files.map { String($0.split(separator: "/").last ?? "") })
    self.declared = declared
    self.testTypes = testTypes
    self.testFunctions = testFunctions
    self.anchors = anchors
    let manifest =
      (try? String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8))
      ?? ""
    self.modules = Set(
      manifest.matches(of: /name: "([A-Za-z0-9_]+)"/).map { String($0.output.1) })
  }

  /// Directories that hold no documented file: build products, version control, editor state.
  static let skippedDirectories: Set<String> = [".build", ".git", ".swiftpm", ".index-build"]

  /// Whether `path` (relative to the root, no trailing slash) is a file or a directory.
  func exists(_ path: String) -> Bool { files.contains(path) || directories.contains(path) }
}

/// The names one Swift file declares, found by a scan of its identifiers (no parser: a name
/// after a declaration keyword counts, in code, comments and strings alike, which can only
/// admit a name, never miss one).
struct SwiftDeclarations {
  /// Every declared name.
  private(set) var names = Set<String>()
  /// Names declared by `struct`, `enum`, `class` or `actor`.
  private(set) var typeNames = Set<String>()
  /// Names declared by `func`.
  private(set) var functionNames = Set<String>()

  /// The keywords a declared name follows.
  static let keywords: Set<String> = [
    "struct", "enum", "class", "protocol", "actor", "typealias", "associatedtype", "func", "var",
    "let", "case",
  ]
  /// The keywords that declare a type a suite can be.
  static let typeKeywords: Set<String> = ["struct", "enum", "class", "actor"]

  /// The length in bytes of the longest keyword: a longer token is no keyword, and is not
  /// looked up.
  private static let longestKeyword = keywords.map(\.utf8.count).max() ?? 0

  /// Scans `text`, line by line: each identifier that follows a keyword with only spaces or
  /// backticks between them is declared, and so are the further names of a
  /// `case a, b(x), c = 1` list.
  init(_ text: String) {
    let bytes = Array(text.utf8)
    var keyword: String?  // the keyword the next identifier follows, if only blanks came since
    var caseList = false
    var depth = 0
    var afterComma = false
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if Self.isIdentifier(byte) {
        let start = index
        while index < bytes.count, Self.isIdentifier(bytes[index]) { index += 1 }
        let token = bytes[start..<index]
        if let declaring = keyword {
          let name = String(decoding: token, as: UTF8.self)
          names.insert(name)
          if Self.typeKeywords.contains(declaring) { typeNames.insert(name) }
          if declaring == "func" { functionNames.insert(name) }
          if declaring == "case" { caseList = true }
        } else if caseList, afterComma, depth == 0 {
          names.insert(String(decoding: token, as: UTF8.self))
        }
        afterComma = false
        // A set lookup of a short string: comparing the token with each keyword's bytes in
        // turn was most of the index's time in this unoptimized target.
        if token.count <= Self.longestKeyword {
          let word = String(decoding: token, as: UTF8.self)
          keyword = Self.keywords.contains(word) ? word : nil
        } else {
          keyword = nil
        }
        continue
      }
      switch byte {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "`"): break
      case UInt8(ascii: "\n"):
        keyword = nil
        caseList = false
        depth = 0
        afterComma = false
      case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "<"):
        depth += 1
        keyword = nil
      case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: ">"):
        depth = max(depth - 1, 0)
        keyword = nil
      case UInt8(ascii: ","):
        afterComma = true
        keyword = nil
      default: keyword = nil
      }
      index += 1
    }
  }

  /// Whether `byte` can be part of a Swift identifier (ASCII letters, digits, `_`).
  private static func isIdentifier(_ byte: UInt8) -> Bool {
    (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte) || (0x30...0x39).contains(byte)
      || byte == 0x5F
  }
}
