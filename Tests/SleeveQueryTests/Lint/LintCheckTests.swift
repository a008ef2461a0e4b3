import Foundation
import SleeveCore
import SleeveRecorder
import SleeveTestSupport
import Testing

@testable import SleeveQuery

#if canImport(Glibc)
  import Glibc
#endif

/// One recorded session per pitfall, through the real core and recorder: each is found with
/// its evidence, and nothing else is.
@Suite("Lint checks")
struct LintCheckTests {
  @Test("the clean checkout flags nothing, its deliberate replacement by id included")
  func cleanSessionFlagsNothing() async throws {
    let directory = TemporaryDirectory()
    let database = try await LintScenario.record(directory)
    let report = try LintScenario.lint(database)
    #expect(LintScenario.summary(report) == [])
    #expect(report.sessions == 1 && report.sessionsWithoutInteractionData == 0)
    #expect(report.checks == LintCheck.allCases.filter { $0 != .mainThreadStall })
    // With every check: a stall is the only finding a loaded machine can add (wall time).
    let every = try LintScenario.lint(database, options: LintOptions())
    #expect(every.checks == LintCheck.allCases)
    #expect(
      every.findings.allSatisfy { $0.check == .mainThreadStall }, "\(LintScenario.summary(every))")
  }

  @Test("a site configured n times without an id is found, n registrations live at once")
  func accumulationIsFound() async throws {
    let seed = UInt64(Date().timeIntervalSince1970)
    var generator = SeededGenerator(seed: seed)
    let times = Int.random(in: 2...6, using: &generator)
    let directory = TemporaryDirectory()
    let database = try await LintScenario.record(directory) { screen, _ in
      for _ in 0..<times { Self.configure(screen.pay) }
      screen.pay.sendActions(for: .touchUpInside)
    }
    let report = try LintScenario.lint(database)
    let findings = report.findings
    try #require(findings.count == 1, "seed \(seed): \(LintScenario.summary(report))")
    #expect(findings[0].check == .accumulation && findings[0].severity == .error)
    #expect(findings[0].control == "checkout.pay")
    #expect(findings[0].site?.hasSuffix("LintCheckTests.swift:\(Self.configureLine)") == true)
    let evidence = LintScenario.evidence(findings[0])
    #expect(evidence["registrations"] == "\(times)", "seed \(seed)")
    #expect(evidence["live at once"] == "\(times)", "seed \(seed)")
    #expect(evidence["event"] == "touchUpInside")
  }

  static let configureLine = #line + 3
  @MainActor
  static func configure(_ button: Button) {
    button.on(.touchUpInside) { _ in }
  }

  @Test("one site registering again after cancelling its earlier handler is not accumulation")
  func sequentialRegistrationsDoNotAccumulate() async throws {
    let directory = TemporaryDirectory()
    let database = try await LintScenario.record(directory) { screen, _ in
      var previous: Registration?
      for _ in 0..<3 {
        previous?.cancel()
        previous = Self.configureReturning(screen.pay)
      }
    }
    #expect(LintScenario.summary(try LintScenario.lint(database)) == [])
  }

  @MainActor
  static func configureReturning(_ button: Button) -> Registration {
    button.on(.touchUpInside) { _ in }
  }

  @Test("an id taken over by another owner type is a silent replacement, with both sites")
  func replacementByAnotherOwnerIsFound() async throws {
    let directory = TemporaryDirectory()
    let database = try await LintScenario.record(directory) { screen, _ in
      let banner = CheckoutScreen.Banner()
      screen.pay.on(.touchUpInside, id: "submit", owner: banner) { _, _ in }
      withExtendedLifetime(banner) { screen.pay.sendActions(for: .touchUpInside) }
    }
    let report = try LintScenario.lint(database)
    try #require(report.findings.count == 1, "\(LintScenario.summary(report))")
    let finding = report.findings[0]
    #expect(finding.check == .silentReplacement && finding.severity == .warning)
    #expect(finding.handler == "submit")
    #expect(finding.otherSites.count == 2)  // the clean second site and the banner's
    #expect(LintScenario.evidence(finding)["why"] == "owners Model and Banner")
  }

  @Test("an id that goes back to a site it was taken from is a silent replacement")
  func replacementBackAndForthIsFound() async throws {
    let directory = TemporaryDirectory()
    let database = try await LintScenario.record(directory) { screen, _ in
      let field = TextField(name: "checkout.email", observer: screen.pay.observer)
      for _ in 0..<2 {
        Self.ownEmail(field, model: screen.model)
        field.on(.editingChanged, id: "email", owner: screen.model) { _, _ in }
      }
    }
    let report = try LintScenario.lint(database)
    try #require(report.findings.count == 1, "\(LintScenario.summary(report))")
    #expect(report.findings[0].check == .silentReplacement)
    #expect(report.findings[0].control == "checkout.email")
    #expect(LintScenario.evidence(report.findings[0])["replacements across sites"] == "3")
    #expect(LintScenario.evidence(report.findings[0])["why"]?.hasPrefix("taken back by") == true)
  }

  @MainActor
  static func ownEmail(_ field: TextField, model: CheckoutScreen.Model) {
    field.on(.editingChanged, id: "email", owner: model) { _, _ in }
  }

  @Test("a target-action and a closure from different sites on one event are mixed wiring")
  func mixedWiringIsFound() async throws {
    let directory = TemporaryDirectory()
    let database = try await LintScenario.record(directory) { screen, _ in
      screen.pay.addTarget(Router.shared, action: Router.pay, for: .touchUpInside)
      screen.pay.sendActions(for: .touchUpInside)
    }
    let report = try LintScenario.lint(database)
    try #require(report.findings.count == 1, "\(LintScenario.summary(report))")
    let finding = report.findings[0]
    #expect(finding.check == .mixedWiring && finding.severity == .warning)
    #expect(finding.handler?.hasPrefix("Router@") == true)
    #expect(finding.otherSites.count == 1)
    #expect(LintScenario.evidence(finding)["events"] == "touchUpInside")
  }

  @Test("a handler whose owner went away while its control kept firing is orphaned")
  func orphanedHandlerIsFound() async throws {
    let directory = TemporaryDirectory()
    let database = try await LintScenario.record(directory) { screen, _ in
      var owner: CheckoutScreen.Banner? = CheckoutScreen.Banner()
      screen.gift.on(.valueChanged, owner: owner!) { _, _ in }
      screen.gift.sendActions(for: .valueChanged)
      owner = nil
      screen.gift.sendActions(for: .valueChanged)
      screen.gift.sendActions(for: .valueChanged)
    }
    let report = try LintScenario.lint(database)
    try #require(report.findings.count == 1, "\(LintScenario.summary(report))")
    let finding = report.findings[0]
    #expect(finding.check == .orphanedHandler && finding.control == "checkout.gift")
    let evidence = LintScenario.evidence(finding)
    #expect(evidence["fires missed"] == "2" && evidence["fires reached"] == "1")
    #expect(evidence["share missed"] == "0.667")
  }

  @Test("an interaction on an enabled control that runs no handler is dead; disabled is not")
  func deadInteractionIsFound() async throws {
    let directory = TemporaryDirectory()
    let database = try await LintScenario.record(directory) { screen, session in
      let help = Button(name: "checkout.help", observer: session)
      Self.wireHelp(help)
      help.tap()
    }
    let report = try LintScenario.lint(database)
    // It names the control's wiring: the handler registered for an event a tap never sends.
    let wiring = LintScenario.site("LintCheckTests.swift", Self.helpLine)
    #expect(
      LintScenario.summary(report) == ["dead-interaction: checkout.help - @\(wiring) [warning]"])
    let evidence = try LintScenario.evidence(#require(report.findings.first))
    #expect(evidence["dead interactions"] == "1" && evidence["interactions"] == "1")
  }

  static let helpLine = #line + 3
  @MainActor
  static func wireHelp(_ help: Button) {
    help.on(.valueChanged) { _ in }
  }

  @Test("three taps within a second are a rage burst: a note while every tap did something")
  func rageBurstIsFound() async throws {
    let directory = TemporaryDirectory()
    let database = try await LintScenario.record(directory) { screen, _ in
      for _ in 0..<2 {
        LintScenario.personPause()
        screen.pay.tap()
      }
    }
    let report = try LintScenario.lint(database)
    // It names the pay button's wiring: the submit handler that ran the taps.
    let wiring = LintScenario.site("LintScenario.swift", CheckoutScreen.submitLine)
    #expect(LintScenario.summary(report) == ["rage-interaction: checkout.pay - @\(wiring) [note]"])
    let evidence = try LintScenario.evidence(#require(report.findings.first))
    #expect(evidence["bursts"] == "1" && evidence["largest burst"] == "3")
    #expect(evidence["dead in bursts"] == "0" && evidence["failed in bursts"] == "0")
  }

  @Test("a rage burst of taps that did nothing is a warning, beside the dead interactions")
  func rageOnDeadControlIsWarning() async throws {
    let directory = TemporaryDirectory()
    let database = try await LintScenario.record(directory) { _, session in
      let help = Button(name: "checkout.help", observer: session)
      for _ in 0..<4 {
        help.tap()
        LintScenario.personPause()
      }
    }
    let report = try LintScenario.lint(database)
    #expect(
      LintScenario.summary(report) == [
        "dead-interaction: checkout.help - @- [warning]",
        "rage-interaction: checkout.help - @- [warning]",
      ])
    let rage = try LintScenario.evidence(#require(report.findings.last))
    #expect(rage["largest burst"] == "4" && rage["dead in bursts"] == "4")
  }

  @Test("a test's loop tapping a control 40 times at machine speed is no rage burst")
  func machineSpeedLoopIsNotRage() async throws {
    let directory = TemporaryDirectory()
    let database = try await LintScenario.record(directory) { screen, session in
      for _ in 0..<40 { screen.pay.tap() }
      // A control whose taps run nothing is dead at machine speed too, and still not rage.
      let help = Button(name: "checkout.help", observer: session)
      for _ in 0..<40 { help.tap() }
    }
    let report = try LintScenario.lint(database)
    #expect(LintScenario.summary(report) == ["dead-interaction: checkout.help - @- [warning]"])
  }

  @Test("interactions closer together than the minimum gap end a person's burst and start none")
  func machinePacedInteractionEndsTheBurst() {
    var options = LintOptions()
    options.rageWindowNanoseconds = 10_000
    options.rageMinimumGapNanoseconds = 100
    var window = RageWindow()
    // Two at a person's pace, one a machine's (10 ns later), then two at a person's pace:
    // no three in a row are paced, so there is no burst.
    for start: Int64 in [0, 200, 210, 400, 600] {
      window.add(startedAt: start, endedAt: start + 5, dead: false, failed: false, options: options)
    }
    #expect(window.bursts == 0)
    // A third paced one completes a burst of the three since the machine's.
    window.add(startedAt: 800, endedAt: 805, dead: false, failed: false, options: options)
    #expect(window.bursts == 1 && window.largest == 3)
    // A start before the last one (a damaged time) ends it, as a machine's does.
    window.add(startedAt: 700, endedAt: 810, dead: false, failed: false, options: options)
    window.add(startedAt: 1_000, endedAt: 1_005, dead: false, failed: false, options: options)
    #expect(window.bursts == 1 && window.largest == 3 && window.members == 3)
  }

  @Test("an interaction whose handler throws is an error interaction")
  func errorInteractionIsFound() async throws {
    let directory = TemporaryDirectory()
    let database = try await LintScenario.record(directory) { _, session in
      let promo = Button(name: "checkout.promo", observer: session)
      Self.wirePromo(promo)
      promo.tap()
    }
    let report = try LintScenario.lint(database)
    let thrower = LintScenario.site("LintCheckTests.swift", Self.promoLine)
    #expect(
      LintScenario.summary(report) == [
        "error-interaction: checkout.promo \(thrower) @\(thrower) [warning]"
      ])
    let evidence = try LintScenario.evidence(#require(report.findings.first))
    #expect(evidence["error interactions"] == "1" && evidence["interactions"] == "1")
  }

  static let promoLine = #line + 5
  @MainActor
  static func wirePromo(_ promo: Button) {
    // A handler that does not throw, then the one that does: the finding names the second.
    promo.on(.touchUpInside) { _ in }
    promo.on(.touchUpInside) { _ in throw PromoError.expired }
  }

  @Test("a synchronous handler slower than a frame is a main-thread stall, with n and p99")
  func stallIsFound() async throws {
    let directory = TemporaryDirectory()
    let database = try await LintScenario.record(directory) { screen, _ in
      screen.gift.on(.valueChanged) { _ in usleep(20_000) }
      screen.gift.sendActions(for: .valueChanged)
    }
    // Every check: the stall judged is the gift handler's (on a loaded machine another
    // handler may stall too, for real; only the planted one is asserted).
    let report = try LintScenario.lint(database, options: LintOptions())
    let stalls = report.findings.filter { $0.control == "checkout.gift" }
    try #require(stalls.count == 1, "\(LintScenario.summary(report))")
    let finding = stalls[0]
    #expect(finding.check == .mainThreadStall && finding.severity == .warning)
    let evidence = LintScenario.evidence(finding)
    #expect(evidence["n"] == "1" && evidence["over budget"] == "1")
    #expect(evidence["p99"] == evidence["max"])
    #expect(report.findings.allSatisfy { $0.check == .mainThreadStall })
    // A budget above the handler's time flags nothing.
    var generous = LintOptions()
    generous.frameBudgetNanoseconds = 10_000_000_000
    #expect(try LintScenario.lint(database, options: generous).findings.isEmpty)
  }

  @Test("a handler that fires its own control until the limit is nesting pressure, with its chain")
  func nestingPressureIsFound() async throws {
    let directory = TemporaryDirectory()
    let database = try await LintScenario.record(directory) { _, session in
      let loop = Button(name: "checkout.loop", observer: session)
      Self.wireLoop(loop)
      loop.sendActions(for: .valueChanged)
    }
    let report = try LintScenario.lint(database)
    try #require(report.findings.count == 1, "\(LintScenario.summary(report))")
    let finding = report.findings[0]
    #expect(finding.check == .nestingPressure && finding.severity == .error)
    let evidence = LintScenario.evidence(finding)
    #expect(evidence["refused"] == "1" && evidence["depth"] == "33")
    #expect(evidence["chain"] == "checkout.loop → checkout.loop → … (33 fires deep)")
    #expect(finding.site == LintScenario.site("LintCheckTests.swift", Self.loopLine))
    #expect(finding.handler == finding.site)
  }

  static let loopLine = #line + 3
  @MainActor
  static func wireLoop(_ loop: Button) {
    loop.on(.valueChanged) { control in control.sendActions(for: .valueChanged) }
  }

  @Test("nesting pressure names the handler that re-sent the refused fire, not the one refused")
  func nestingPressureNamesTheReSender() async throws {
    let directory = TemporaryDirectory()
    let database = try await LintScenario.record(directory) { _, session in
      let ping = Button(name: "checkout.ping", observer: session)
      let pong = Button(name: "checkout.pong", observer: session)
      Self.wirePingPong(ping, pong)
      ping.sendActions(for: .valueChanged)
    }
    let report = try LintScenario.lint(database)
    try #require(report.findings.count == 1, "\(LintScenario.summary(report))")
    // Fires alternate ping (odd depths), pong (even): the limit refuses ping's 33rd, which
    // pong's handler sent.
    let finding = report.findings[0]
    #expect(finding.check == .nestingPressure && finding.control == "checkout.ping")
    #expect(finding.site == LintScenario.site("LintCheckTests.swift", Self.pongLine))
  }

  static let pongLine = #line + 5
  @MainActor
  static func wirePingPong(_ ping: Button, _ pong: Button) {
    // Each fires the other.
    ping.on(.valueChanged) { _ in pong.sendActions(for: .valueChanged) }
    pong.on(.valueChanged) { _ in ping.sendActions(for: .valueChanged) }
  }

  @Test("every check's finding names the site of a registration, a file and a line")
  func everyCheckNamesASite() async throws {
    let directory = TemporaryDirectory()
    let database = try await LintScenario.record(directory) { screen, session in
      for _ in 0..<3 { Self.configure(screen.pay) }
      screen.pay.sendActions(for: .touchUpInside)
      screen.pay.on(.touchUpInside, id: "submit", owner: CheckoutScreen.Banner()) { _, _ in }
      screen.code.addTarget(Router.shared, action: Router.edit, for: .editingChanged)
      screen.code.on(.editingChanged) { _ in }
      var owner: CheckoutScreen.Banner? = CheckoutScreen.Banner()
      screen.gift.on(.valueChanged, owner: owner!) { _, _ in }
      screen.gift.sendActions(for: .valueChanged)
      owner = nil
      screen.gift.sendActions(for: .valueChanged)
      screen.gift.on(.valueChanged) { _ in usleep(20_000) }
      screen.gift.sendActions(for: .valueChanged)
      let help = Button(name: "checkout.help", observer: session)
      Self.wireHelp(help)
      for tap in 0..<3 {
        if tap > 0 { LintScenario.personPause() }
        help.tap()
      }
      let promo = Button(name: "checkout.promo", observer: session)
      Self.wirePromo(promo)
      promo.tap()
      let loop = Button(name: "checkout.loop", observer: session)
      Self.wireLoop(loop)
      loop.sendActions(for: .valueChanged)
    }
    let report = try LintScenario.lint(database, options: LintOptions())
    #expect(Set(report.findings.map(\.check)) == Set(LintCheck.allCases))
    for finding in report.findings {
      let site = try #require(finding.site, "\(finding.check.id) names no site")
      #expect(
        site.wholeMatch(of: /SleeveQueryTests\/Lint(CheckTests|Scenario)\.swift:[1-9][0-9]*/)
          != nil, "\(finding.check.id): \(site)")
    }
  }
}

private enum PromoError: Error {
  case expired
}

@MainActor
private final class Router {
  static let shared = Router()
  func pay(_ button: Button) {}
  func edit(_ field: TextField) {}
}
