import Foundation
import SleeveCore
import SleeveQuery
import SleeveRecorder
import SleeveTestSupport

/// A checkout screen recorded through the real core and recorder, wired cleanly, to which
/// one lint pitfall at a time is added.
///
/// The clean wiring: `pay` with a `submit` handler that a second site replaces on purpose
/// (same owner type, one way, as the core example of `docs/guide/core.md` does), `code`
/// validating each character, `gift` reading its state, and a disabled `later` button tapped
/// once. Each control gets at most two interactions, so no rage burst appears by accident.
@MainActor
final class CheckoutScreen {
  final class Model {
    var steps: [String] = []
  }

  final class Banner {}

  let model = Model()
  let pay: Button
  let code: TextField
  let gift: Switch
  let later: Button

  /// The line of the `submit` handler that replaces the first one and runs.
  nonisolated static let submitLine = #line + 9

  init(observer: any DispatchObserver) {
    pay = Button(name: "checkout.pay", observer: observer)
    code = TextField(name: "checkout.code", observer: observer)
    gift = Switch(name: "checkout.gift", observer: observer)
    later = Button(name: "checkout.later", observer: observer)
    pay.on(.touchUpInside, id: "submit", owner: model) { model, _ in model.steps.append("v1") }
    // The pay button's wiring: the handler that runs (`submitLine`).
    pay.on(.touchUpInside, id: "submit", owner: model) { model, _ in model.steps.append("v2") }
    code.on(.editingChanged, owner: model) { model, field in model.steps.append(field.text) }
    gift.on(.valueChanged, owner: model) { model, toggle in model.steps.append("\(toggle.isOn)") }
    later.isEnabled = false
  }

  /// The clean interactions: one tap, one typing, one toggle, a tap on the disabled button.
  func use() {
    pay.tap()
    code.type("ab")
    gift.toggle()
    later.tap()
  }
}

/// Records sessions for the lint tests and lints them.
enum LintScenario {
  /// Records one session in a fresh file: `body` builds the screen's pitfall on top of the
  /// clean wiring; returns the database.
  static func record(
    _ directory: TemporaryDirectory, sessions: Int = 1,
    _ body: @MainActor @escaping (CheckoutScreen, RecordingSession) -> Void = { _, _ in }
  ) async throws -> QueryDatabase {
    let path = directory.path("lint-\(UUID().uuidString.prefix(8)).sqlite")
    let recorder = try await Recorder(path: path)
    for _ in 0..<sessions {
      let session = try await recorder.startSession(name: "checkout")
      await MainActor.run {
        let screen = CheckoutScreen(observer: session)
        screen.use()
        body(screen, session)
      }
      try await session.end()
    }
    try await recorder.close()
    return try QueryDatabase(path: path)
  }

  /// The options of the scenarios that are not about stalls: every check but
  /// `main-thread-stall`. A recorded handler's duration is wall time on this machine, so on a
  /// loaded one (the suite's own parallel tests) a one-line handler can be preempted past a
  /// 16.7 ms frame: a real stall, but not the pitfall these scenarios plant. The stall tests
  /// pass ``LintOptions()`` and judge only the handler they slow down.
  static let timingFree: LintOptions = {
    var options = LintOptions()
    options.disabled = [.mainThreadStall]
    return options
  }()

  /// The report over every session of `database` (default: ``timingFree``).
  static func lint(_ database: QueryDatabase, options: LintOptions = timingFree) throws
    -> LintReport
  {
    var filter = QueryFilter()
    filter.session = .all
    return try database.lint(filter: filter, options: options)
  }

  /// `SleeveQueryTests/<file>:<line>`: a site as the recorder records it for this module.
  static func site(_ file: String, _ line: Int) -> String {
    "SleeveQueryTests/\(file):\(line)"
  }

  /// `check: control handler @site` of each finding, for exact comparisons.
  static func summary(_ report: LintReport) -> [String] {
    report.findings.map {
      "\($0.check.id): \($0.control) \($0.handler ?? "-") @\($0.site ?? "-")"
        + " [\($0.severity.rawValue)]"
    }
  }

  /// Waits as long as a person takes between two taps (150 ms: people tap at most 6 or 7
  /// times a second), so the next interaction is at a person's pace, not a loop's.
  static func personPause() {
    Thread.sleep(forTimeInterval: 0.150)
  }

  /// The evidence of `finding` as `name=value` texts.
  static func evidence(_ finding: LintFinding) -> [String: String] {
    var values: [String: String] = [:]
    for item in finding.evidence {
      switch item.value {
      case .count(let count): values[item.name] = "\(count)"
      case .nanoseconds(let nanoseconds): values[item.name] = "\(nanoseconds)ns"
      case .share(let share): values[item.name] = String(format: "%.3f", share)
      case .text(let text): values[item.name] = text
      }
    }
    return values
  }
}
