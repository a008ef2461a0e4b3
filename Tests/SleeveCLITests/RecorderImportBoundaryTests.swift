import Foundation
import Testing

/// The recorder stays out of what only reads and reports: the command line imports
/// SleeveRecorder in its demo alone (errors carry their own exit codes, so nothing else needs
/// it), and SleeveExport not at all (`SessionExport` lives in SleeveStore).
@Suite("Who imports the recorder")
struct RecorderImportBoundaryTests {
  static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

  /// The files under `Sources/<module>` (relative paths) that import SleeveRecorder.
  func importers(in module: String) throws -> [String] {
    let directory = Self.sources.appendingPathComponent(module)
    let files = try #require(FileManager.default.enumerator(atPath: directory.path))
    var found: [String] = []
    for case let file as String in files where file.hasSuffix(".swift") {
      let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
      if text.split(separator: "\n").contains(where: { line in
        line.trimmingCharacters(in: .whitespaces).hasSuffix("import SleeveRecorder")
      }) {
        found.append(file)
      }
    }
    return found.sorted()
  }

  @Test("the command line imports SleeveRecorder only in Demo/")
  func commandLineOnlyInTheDemo() throws {
    let files = try importers(in: "SleeveCLI")
    #expect(!files.isEmpty, "the demo records, so the scan finds it")
    #expect(files.filter { !$0.hasPrefix("Demo/") } == [])
  }

  @Test("SleeveExport does not import SleeveRecorder")
  func exportNever() throws {
    #expect(try importers(in: "SleeveExport") == [])
  }
}
