/// How a command's table meets its reader: the width to fit (a terminal's) or none (a pipe or
/// file: the full table, exactly as it always printed), the layout asked for, and whether to
/// colour. Machine formats (json, csv, markdown) never change with the terminal.
struct TerminalDisplay: Sendable {
  /// `--color`.
  enum ColorChoice: String, CaseIterable, Sendable {
    /// Colour when standard output is a terminal, `NO_COLOR` is unset or empty and `TERM` is
    /// not `dumb`.
    case auto
    /// Colour in the table format even into a pipe or file (for `less -R`).
    case always
    /// No colour.
    case never
  }

  /// The layout a table takes.
  enum Layout: Sendable {
    /// The full table when it fits; else free text moved to notes; else expanded.
    case fit
    /// One block per row, `field  value` lines (`--expanded`).
    case expanded
    /// The full table, however wide (`--wide`, and every pipe and file).
    case wide
  }

  /// The narrowest width laid out: a narrower terminal gets lines of this many cells.
  static let minimumWidth = 20

  /// The width in cells to fit, or `nil` for no limit.
  let width: Int?
  /// The layout.
  let layout: Layout
  /// Whether verdicts, the decision line and the header row are coloured.
  let colored: Bool
  /// Whether the rows that need no attention (``Table/RowFold``: `diff`'s unchanged rows,
  /// `check`'s passed checks) fold into one note under the table: on a terminal, for a
  /// command that takes `--all-rows`, unless it is given. Pipes and files keep every row.
  let foldsRows: Bool

  /// A pipe's or file's display: the full table, no colour.
  static let plain = TerminalDisplay(width: nil, layout: .wide, colored: false)

  init(width: Int?, layout: Layout, colored: Bool, foldsRows: Bool = false) {
    self.width = width.map { max($0, Self.minimumWidth) }
    self.layout = layout
    self.colored = colored
    self.foldsRows = foldsRows
  }

  /// `--color auto|always|never`.
  static let color = Option<ColorChoice>(
    "color", value: "when",
    help:
      "Colour verdicts: auto (default: on a terminal, unless NO_COLOR or TERM=dumb), always or never."
  )
  /// `--expanded`.
  static let expanded = Flag(
    "expanded", help: "One block per row (field, value), whatever the width.")
  /// `--wide`.
  static let wide = Flag("wide", help: "The full table, however wide the terminal.")

  /// `--all-rows` (only commands whose rows fold on a terminal take it: `diff`, `check`).
  static let allRows = Flag(
    "all-rows", help: "Every row on a terminal too: none folded into a note (unchanged, passed).")

  /// The options that shape a table (accepted by every command that prints one).
  static let options = [color.spec, expanded.spec, wide.spec]

  /// The display `arguments` ask for, in `format`, on `console`.
  ///
  /// - Throws: `UsageError` (exit 64) for a `--color` other than auto, always or never, for
  ///   `--expanded` or `--wide` with a format other than table, and for both together.
  static func resolve(
    _ arguments: ParsedArguments, format: OutputFormat, console: Console, command: CommandSpec
  ) throws -> TerminalDisplay {
    let choice = try color.value(in: arguments, command: command.name) ?? .auto
    let expanded = arguments.has(Self.expanded)
    let wide = arguments.has(Self.wide)
    if expanded && wide {
      throw UsageError("'--expanded' and '--wide' cannot be used together", command: command.name)
    }
    if (expanded || wide) && format != .table {
      throw UsageError(
        "'--\(expanded ? "expanded" : "wide")' lays out tables: it needs --format table, not "
          + "\(format.rawValue) (formats: "
          + OutputFormat.allCases.map(\.rawValue).joined(separator: ", ") + ")",
        command: command.name)
    }
    guard format == .table else { return .plain }
    let colored =
      switch choice {
      case .always: true
      case .never: false
      case .auto: console.usesColor
      }
    let width = console.outputIsTerminal ? console.terminalColumns : nil
    let layout: Layout = expanded ? .expanded : (wide || width == nil) ? .wide : .fit
    let foldsRows =
      width != nil && command.options.contains { $0.name == allRows.spec.name }
      && !arguments.has(allRows)
    return TerminalDisplay(width: width, layout: layout, colored: colored, foldsRows: foldsRows)
  }
}
