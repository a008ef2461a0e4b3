import Foundation
import Testing

/// The docs name only what exists: every path, local link (and its `#anchor`), type-like Swift
/// name and pinned test in `README.md`, `ARCHITECTURE.md`, `BENCHMARKS.md`, `RELIABILITY.md`
/// and every `docs/**/*.md` (rules: ``DocReferences``); `README.md` stays a newcomer's page
/// that links every reference page of `docs/guide/`, and `ARCHITECTURE.md` a one-page overview
/// that links every subsystem page of `docs/`.
@Suite("Docs name what exists")
struct DocsReferenceTests {
  /// The repository the docs are checked against, with every heading's anchor (read once).
  static let index = RepositoryIndex.current

  /// The docs held to the repository, relative to its root.
  static let documents: [String] =
    ["README.md", "ARCHITECTURE.md", "BENCHMARKS.md", "RELIABILITY.md"]
    + RepositoryIndex.markdownFiles(under: "docs", in: RepositoryIndex.currentRoot)

  /// The maintainers' subsystem pages: `docs/*.md`, linked from `ARCHITECTURE.md`.
  static let subsystemPages = documents.filter {
    $0.hasPrefix("docs/") && $0.split(separator: "/").count == 2
  }

  /// The users' reference pages: `docs/guide/*.md`, linked from `README.md`.
  static let guidePages = documents.filter { $0.hasPrefix("docs/guide/") }

  /// The most lines `ARCHITECTURE.md` may have: it is the map, the detail is under `docs/`.
  static let overviewLineLimit = 250

  /// The most lines `README.md` may have: a newcomer reads it in five minutes; the reference is
  /// under `docs/guide/`.
  static let readmeLineLimit = 250

  /// The number of lines of `text` (a final line break ends the last line, it starts none).
  static func lineCount(_ text: String) -> Int {
    text.split(separator: "\n", omittingEmptySubsequences: false).count
      - (text.hasSuffix("\n") ? 1 : 0)
  }

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

  @Test("the docs checked are every Markdown file under docs/ the repository holds")
  func documentsAreEveryDocsPage() {
    let indexed = Self.index.files.filter { $0.hasPrefix("docs/") && $0.hasSuffix(".md") }
    #expect(Array(Self.documents.dropFirst(4)) == indexed.sorted())
    #expect(!indexed.isEmpty)
  }

  @Test("ARCHITECTURE.md is one page and links every subsystem page under docs/")
  func overviewIsOnePage() throws {
    try Self.expectShort(
      "ARCHITECTURE.md", limit: Self.overviewLineLimit, linking: Self.subsystemPages)
  }

  @Test("README.md is at most 250 lines and links every reference page under docs/guide/")
  func readmeIsShort() throws {
    try Self.expectShort("README.md", limit: Self.readmeLineLimit, linking: Self.guidePages)
  }

  /// `document` has at most `limit` lines and links each of `pages` (which must not be empty).
  static func expectShort(_ document: String, limit: Int, linking pages: [String]) throws {
    let text = try String(
      contentsOf: index.root.appendingPathComponent(document), encoding: .utf8)
    let lines = lineCount(text)
    #expect(lines <= limit, "\(document) has \(lines) lines")
    #expect(!pages.isEmpty)
    #expect(pages.filter { !text.contains("](\($0)") } == [])
  }

  @Test("the rules find a dead link and a dead anchor in README and in a reference page")
  func rulesFindDeadLinksAndAnchors() {
    let readme = """
      # Sleeve

      ## Gate CI: check, `diff` & baselines

      Real: [the gate](docs/guide/gate.md), [its section](docs/guide/gate.md#gate-a-pull-request-against-main),
      [here](#gate-ci-check-diff--baselines), [the map](ARCHITECTURE.md).

      Wrong: [gone](docs/guide/gates.md), [no heading](docs/guide/gate.md#gate-a-pull-request),
      [not here](#gate-ci).
      """
    let page = """
      # A reference page

      [Up](../../README.md#test), [beside](lint.md#lint-closure-sleeve-pitfalls),
      [a moved section](../../README.md#install), [a typo](lint.md#lint-closure-sleeve-pitfall),
      [a missing page](../guides/lint.md).
      """
    let rules = DocReferences(index: Self.index)
    let findings =
      rules.findings(in: readme, document: "README.md")
      + rules.findings(in: page, document: "docs/guide/x.md")
    #expect(
      findings.map(\.description) == [
        "README.md:8: the link `docs/guide/gates.md` leads to no file in the repository",
        "README.md:8: the link `docs/guide/gate.md#gate-a-pull-request` names no heading of docs/guide/gate.md",
        "README.md:9: the link `#gate-ci` names no heading of README.md",
        "docs/guide/x.md:4: the link `../../README.md#install` names no heading of README.md",
        "docs/guide/x.md:4: the link `lint.md#lint-closure-sleeve-pitfall` names no heading of docs/guide/lint.md",
        "docs/guide/x.md:5: the link `../guides/lint.md` leads to no file in the repository",
      ])
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
