import SleeveQuery
import Testing

@testable import SleeveCLI

/// Commands are declarations: each option's completion is the one its declaration gives, and a
/// column may be declared for some tabular formats only.
@Suite("Command declarations")
struct CommandDeclarationTests {
  @Test("every option and positional argument completes as its declaration says")
  func completionsComeFromTheDeclarations() {
    let specs = SleeveCLI.commands.map { $0.spec }.filter(\.listedInHelp)
    let model = CompletionModel(specs: specs)
    for spec in specs {
      let subcommand = model.subcommands.first { $0.name == spec.name }
      #expect(subcommand?.arguments == spec.argumentCompletion, "\(spec.name)")
      for option in spec.options {
        let completed = subcommand?.options.first { $0.name == option.name }
        #expect(
          completed?.values == option.value.map { _ in option.completion },
          "\(spec.name) --\(option.name)")
      }
    }
  }

  @Test("the shared declarations carry the completions the commands' options offer")
  func sharedDeclarationsComplete() {
    #expect(SharedOptions.db.spec.completion == .files)
    #expect(SharedOptions.format.spec.completion == .choices(["table", "json", "csv", "markdown"]))
    #expect(JudgedFormat.option.completion == .choices(JudgedFormat.allCases.map(\.rawValue)))
    #expect(TerminalDisplay.color.spec.completion == .choices(["auto", "always", "never"]))
    #expect(
      BaselineGateArguments.quarantineOption.spec.completion
        == .choices(["list", "flaky", "none"]))
    #expect(ReportCommand.formatOption.spec.completion == .choices(["markdown", "json", "html"]))
    #expect(ReportCommand.out.spec.completion == .files)
    #expect(LintCommand.disable.spec.completion == .choices(LintCheck.allCases.map(\.id)))
  }

  struct Row: Sendable {
    let number: Int
    let name: String
    let note: String
  }

  static let columns = Columns<Row>([
    Column.count("#", json: nil) { $0.number }.shown(.tablesOnly),
    .text("name", json: "name") { $0.name },
    Column.text("note", json: "note") { $0.note }.shown(.csvOnly),
  ])

  static let rows = [Row(number: 1, name: "pay", note: "a long explanation")]

  @Test("a table-only column is left out of CSV, a CSV-only one out of the table and Markdown")
  func columnsShownInSomeFormats() {
    let table = Self.columns.table(Self.rows)
    #expect(table.columns == ["#", "name"])
    #expect(table.numeric == [0])
    #expect(Self.columns.table(Self.rows, for: .markdown).columns == ["#", "name"])
    let csv = Self.columns.table(Self.rows, for: .csv)
    #expect(csv.columns == ["name", "note"])
    #expect(csv.csv == "name,note\npay,a long explanation\n")
    #expect(Self.columns.json(Self.rows).text.contains("\"note\""))
  }

  @Test("an option an action does not take is named, the first by name")
  func firstStrayOptionByName() async {
    let result = await CLIRunner.run(
      ["quarantine", "list", "--reason", "x", "--actor", "y", "--db", "/nonexistent"])
    #expect(result.exit == 64)
    #expect(result.error.contains("The option '--actor' does not apply to 'quarantine list'"))
  }
}
