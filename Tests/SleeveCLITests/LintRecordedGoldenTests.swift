import Foundation
import SleeveCore
import SleeveRecorder
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// `sleeve lint`'s table, JSON and JUnit output of one session recorded through the real core
/// and recorder, holding every pitfall whose evidence does not depend on the clock (a stall's
/// durations do; its output is pinned from a constructed report in `LintOutputTests`).
@Suite("Lint goldens from a recorded session")
struct LintRecordedGoldenTests {
  final class Cart {}
  final class Banner {}

  @MainActor
  final class Router {
    func pay(_ button: Button) {}
  }

  @MainActor
  static func configure(_ button: Button) {
    button.on(.touchUpInside) { _ in }
  }

  /// Records the session once per process; each test reads the same file.
  static let recorded = RecordedFile()

  /// The recording, started by the first test that asks and awaited by every other (a task,
  /// not a stored path: the actor is reentrant across the recording's awaits).
  actor RecordedFile {
    private var recording: Task<String, any Error>?
    private let directory = TemporaryDirectory()

    func get() async throws -> String {
      if let recording { return try await recording.value }
      let path = directory.path("pitfalls.sqlite")
      let task = Task {
        let recorder = try await Recorder(path: path)
        let session = try await recorder.startSession(name: "pitfalls")
        await MainActor.run { LintRecordedGoldenTests.perform(observer: session) }
        try await session.end()
        try await recorder.close()
        return path
      }
      recording = task
      return try await task.value
    }
  }

  /// One of each pitfall, on controls of their own.
  @MainActor
  static func perform(observer session: RecordingSession) {
    let cart = Cart()
    let banner = Banner()
    let router = Router()
    // Accumulation: configured twice.
    let pay = Button(name: "checkout.pay", observer: session)
    configure(pay)
    configure(pay)
    pay.sendActions(for: .touchUpInside)
    // Silent replacement: two owners of one id.
    let submit = Button(name: "checkout.submit", observer: session)
    submit.on(.touchUpInside, id: "submit", owner: cart) { _, _ in }
    submit.on(.touchUpInside, id: "submit", owner: banner) { _, _ in }
    // Mixed wiring: a target-action beside a closure.
    let wrap = Button(name: "checkout.wrap", observer: session)
    wrap.on(.touchUpInside) { _ in }
    wrap.addTarget(router, action: Router.pay, for: .touchUpInside)
    // Orphaned: the owner goes, the control keeps firing.
    let track = Switch(name: "checkout.track", observer: session)
    var owner: Cart? = Cart()
    track.on(.valueChanged, owner: owner!) { _, _ in }
    track.sendActions(for: .valueChanged)
    owner = nil
    track.sendActions(for: .valueChanged)
    // Dead and rage: a button wired to an event a tap never sends, tapped three times.
    let help = Button(name: "checkout.help", observer: session)
    help.on(.valueChanged) { _ in }
    for tap in 0..<3 {
      // A person's pace: taps closer together are a machine's, never rage.
      if tap > 0 { Thread.sleep(forTimeInterval: 0.150) }
      help.tap()
    }
    // Error interaction.
    let promo = Button(name: "checkout.promo", observer: session)
    promo.on(.touchUpInside) { _ in throw CocoaError(.userCancelled) }
    promo.tap()
    // Nesting pressure.
    let loop = Button(name: "checkout.loop", observer: session)
    loop.on(.valueChanged) { control in control.sendActions(for: .valueChanged) }
    loop.sendActions(for: .valueChanged)
    withExtendedLifetime((cart, banner, router)) {}
  }

  @Test(
    "each format's output of the recorded pitfalls matches its golden file",
    arguments: [
      ("table", "lint-recorded-table.txt"), ("json", "lint-recorded.json"),
      ("junit", "lint-recorded-junit.xml"),
    ])
  func golden(format: String, file: String) async throws {
    let path = try await Self.recorded.get()
    // The stall is measured, so a loaded machine can make one anywhere: it is left out here.
    let result = await CLIRunner.run([
      "lint", "--db", path, "--format", format, "--disable", "main-thread-stall",
    ])
    #expect(result.exit == 1, "\(result.error)")
    // JUnit's timestamp is when the report was made: held to its form, then set aside.
    let stamp = /timestamp="\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}"/
    #expect(format != "junit" || result.out.contains(stamp))
    let text = result.out.replacing(stamp, with: "timestamp=\"(now)\"")
    CLIRunner.updateGoldenIfAsked(file, with: text)
    #expect(text == CLIRunner.golden(file))
  }

  @Test("every finding names its registration site, and each GitHub annotation has file= and line=")
  func everyFindingIsAnnotatedAtItsSite() async throws {
    let path = try await Self.recorded.get()
    let result = await CLIRunner.run([
      "lint", "--db", path, "--format", "github", "--disable", "main-thread-stall",
    ])
    let annotations = result.out.split(separator: "\n").filter {
      !$0.hasPrefix("::notice title=sleeve lint::")
    }
    #expect(annotations.count == LintCheckIDs.deterministic.count, "\(result.out)")
    for annotation in annotations {
      #expect(
        annotation.contains(
          /^::(error|warning|notice) file=[^,]*SleeveCLITests\/LintRecordedGoldenTests\.swift,line=[1-9][0-9]*,title=/
        ),
        "\(annotation)")
    }
  }

  @Test("the recorded pitfalls are each found once, and nothing else is")
  func eachPitfallOnce() async throws {
    let path = try await Self.recorded.get()
    let result = await CLIRunner.run([
      "lint", "--db", path, "--format", "json", "--disable", "main-thread-stall",
    ])
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    let findings = try #require(object["findings"] as? [[String: Any]])
    let checks = findings.compactMap { $0["check"] as? String }.sorted()
    let expected = LintCheckIDs.deterministic.sorted()
    #expect(checks == expected)
  }
}

/// The checks the recorded goldens hold: every one but the stall.
enum LintCheckIDs {
  static let deterministic = [
    "handler-accumulation", "silent-replacement", "mixed-wiring", "orphaned-handler",
    "dead-interaction", "rage-interaction", "error-interaction", "nesting-pressure",
  ]
}
