import Foundation
import Testing

/// The maintainer docs name only what exists: every path, local link, type-like Swift name
/// and pinned test in `ARCHITECTURE.md`, `BENCHMARKS.md`, `RELIABILITY.md` and `docs/*.md`
/// (rules: ``DocReferences``), and `ARCHITECTURE.md` stays a one-page overview.
@Suite("Docs name what exists")
struct DocsReferenceTests {
  /// The repository the docs are checked against.
  static let index = RepositoryIndex.current

  /// The docs held to the repository, relative to its root.
  static let documents: [String] =
    ["ARCHITECTURE.md", "BENCHMARKS.md", "RELIABILITY.md"]
    + index.files.filter { $0.hasPrefix("docs/") && $0.hasSuffix(".md") }.sorted()

  /// The most lines `ARCHITECTURE.md` may have: it is the map, the detail is under `docs/`.
  static let overviewLineLimit = 250

  /// The findings of one kind in `document`.
  static func findings(_ kinds: Set<DocFinding.Kind>, in document: String) throws -> [String] {
    let text = try String(
      contentsOf: index.root.appendingPathComponent(document), encoding: .utf8)
    return DocReferences(index: index).findings(in: text, document: document)
      .filter { kinds.contains($0.kind) }.map(\.description)
  }

  @Test("every file path and local link a doc names exists", arguments: documents)
  func pathsAndLinksExist(document: String) throws {
    let findings = try Self.findings([.path, .link], in: document)
    #expect(findings == [])
  }

  @Test("every type-like Swift name and pinned test a doc names is declared", arguments: documents)
  func namesAreDeclared(document: String) throws {
    let findings = try Self.findings([.symbol, .pinnedTest], in: document)
    #expect(findings == [])
  }

  @Test("ARCHITECTURE.md is one page and links every subsystem page under docs/")
  func overviewIsOnePage() throws {
    let text = try String(
      contentsOf: Self.index.root.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)
    let lines =
      text.split(separator: "\n", omittingEmptySubsequences: false).count
      - (text.hasSuffix("\n") ? 1 : 0)
    #expect(lines <= Self.overviewLineLimit, "ARCHITECTURE.md has \(lines) lines")
    let pages = Self.documents.filter { $0.hasPrefix("docs/") }
    #expect(!pages.isEmpty)
    #expect(pages.filter { !text.contains("](\($0))") } == [])
  }

  @Test("the rules find a wrong path, a dead link or anchor, a misspelt type and a missing test")
  func rulesFindWhatIsWrong() {
    let page = """
      # A page

      Real: `Sources/SleeveCore/Controls/Control.swift:12`, `Migrations/*.sql`, `Control.swift`,
      `Recorder.startSession`, `RolloutPlan(recordedUnit:salt:stages:)`, `Int64.max`, `VACUUM`,
      `SleeveStore.RowID`, [the overview](../ARCHITECTURE.md#contents), [here](#a-page).

      Wrong: `Sources/SleeveCore/Controls/Contrl.swift`, `Migrations/*.yaml`, `DESIGN.md`,
      [gone](missing.md), [no such heading](../ARCHITECTURE.md#nowhere), `Recordr`,
      `Recorder.startSesion`, `SleeveStore.RowIdentifier`.

      | decision | test |
      |---|---|
      | real | `overviewIsOnePage`, `DocsReferenceTests.rulesFindWhatIsWrong` |
      | wrong, with `a|b` in a cell | `noSuchTestAnywhere`, `NoSuchSuite.overviewIsOnePage` |
      """
    let findings = DocReferences(index: Self.index).findings(in: page, document: "docs/x.md")
    #expect(
      findings.map(\.description) == [
        "docs/x.md:7: `Sources/SleeveCore/Controls/Contrl.swift` names no file or directory in the repository",
        "docs/x.md:7: `Migrations/*.yaml` matches no file in the repository",
        "docs/x.md:7: `DESIGN.md` is the name of no file in the repository",
        "docs/x.md:8: `Recordr`: `Recordr` is declared nowhere in Sources/ or Tests/",
        "docs/x.md:9: `Recorder.startSesion`: `startSesion` is declared nowhere in Sources/ or Tests/",
        "docs/x.md:9: `SleeveStore.RowIdentifier`: `RowIdentifier` is declared nowhere in Sources/ or Tests/",
        "docs/x.md:8: the link `missing.md` leads to no file in the repository",
        "docs/x.md:8: the link `../ARCHITECTURE.md#nowhere` names no heading of ARCHITECTURE.md",
        "docs/x.md:14: the test `noSuchTestAnywhere` pins a decision, but `noSuchTestAnywhere` is declared nowhere in Tests/",
        "docs/x.md:14: the test `NoSuchSuite.overviewIsOnePage` pins a decision, but `NoSuchSuite` is declared nowhere in Tests/",
      ])
  }
}
