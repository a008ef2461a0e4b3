import Foundation
import SleeveRecorder
import Testing

/// The table "Where a session ran" (`docs/guide/recording.md`) is the code's table: the same
/// variables, in the same order of preference.
@Suite("Run context table in the recording reference page")
struct RunContextReadmeTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The table's rows after `### Where a session ran`: the field, then one cell per system.
  static func table() throws -> [(field: String, cells: [String])] {
    let page = try String(
      contentsOf: root.appendingPathComponent("docs/guide/recording.md"), encoding: .utf8)
    let section = try #require(page.range(of: "### Where a session ran"))
    let lines = page[section.upperBound...].split(
      separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex { $0.hasPrefix("| field |") })
    return lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map { line in
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst()
        .dropLast().map { $0.trimmingCharacters(in: .whitespaces) }
      return (cells[0], Array(cells.dropFirst()))
    }
  }

  /// The variable names in backticks in `cell` (`NAME`, `NAME=value`, `$NAME/…`).
  static func variables(in cell: String) -> [String] {
    let names = cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
      .filter { $0.offset % 2 == 1 }.flatMap { part -> [String] in
        part.element.split(whereSeparator: { !($0.isUppercase || $0.isNumber || $0 == "_") })
          .map(String.init).filter { $0.count > 2 && $0.first?.isUppercase == true }
      }
    return names
  }

  /// A cell naming only variables, first choice first: `` `A`, `B` ``.
  static func alternatives(in cell: String) -> [String]? {
    let parts = cell.components(separatedBy: ", ")
    guard
      parts.allSatisfy({
        $0.hasPrefix("`") && $0.hasSuffix("`")
          && $0.dropFirst().dropLast().allSatisfy {
            $0.isUppercase || $0.isNumber || $0 == "_"
          }
      })
    else { return nil }
    return parts.map { String($0.dropFirst().dropLast()) }
  }

  /// The field the page's row `name` shows, read from `context`.
  static func field(_ name: String, of context: RunContext) -> String?? {
    switch name {
    case "commit": context.commit
    case "branch": context.branch
    case "pull request": context.pullRequest
    case "pipeline": context.pipeline
    case "attempt": context.attempt
    case "job": context.job
    case "runner": context.runner
    case "repository": context.repository
    case "build URL": context.buildURL
    default: .none
    }
  }

  @Test("the page names exactly the variables the code reads")
  func sameVariables() throws {
    let shown = Set(try Self.table().flatMap { $0.cells.flatMap(Self.variables) })
    let source = try String(
      contentsOf: Self.root.appendingPathComponent(
        "Sources/SleeveRecorder/Metadata/CIVariables.swift"), encoding: .utf8)
    let code = source.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
      .filter { $0.offset % 2 == 1 }.map { String($0.element) }
      .filter {
        $0.first?.isUppercase == true
          && $0.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" }
      }
    #expect(shown == Set(code))
    #expect(shown.count > 50)
  }

  @Test("each field of each system follows the page's order of preference")
  func sameOrder() throws {
    let rows = try Self.table()
    let markers = try #require(rows.first { $0.field == "marker" })
    #expect(markers.cells.count == RunContext.CISystem.allCases.count)
    var checked = 0
    for (column, system) in RunContext.CISystem.allCases.enumerated() {
      var marker: [String: String] = [:]
      let markerCell = markers.cells[column]
      let markerName = try #require(Self.variables(in: markerCell).first)
      marker[markerName] =
        markerCell.contains("=True") ? "True" : markerCell.contains("=true") ? "true" : "http://ci/"
      #expect(RunContext(environment: marker).ciSystem == system)
      for row in rows where row.field != "marker" {
        guard let names = Self.alternatives(in: row.cells[column]) else { continue }
        #expect(Self.field(row.field, of: RunContext()) != .none, "unknown field \(row.field)")
        for (index, name) in names.enumerated() {
          var environment = marker
          for later in names[index...] { environment[later] = "\(later)-value" }
          #expect(
            Self.field(row.field, of: RunContext(environment: environment)) == "\(name)-value",
            "\(system) \(row.field) from \(name)")
          checked += 1
        }
      }
    }
    #expect(checked > 40)
  }
}
