import SleeveCore
import SleeveQuery
import SleeveStore
import SleeveTestSupport
import Testing

/// What lint reads survives `merge`: interactions, lifetimes and replacements are copied
/// under the session's new id.
@Suite("Lint after merge")
struct LintMergeTests {
  @Test("a merged file lints exactly as its input, for every check that reads 0004's tables")
  func mergedFileLintsAsItsInput() async throws {
    let directory = TemporaryDirectory()
    let input = try await LintScenario.record(directory) { screen, session in
      LintCheckTests.configure(screen.pay)
      LintCheckTests.configure(screen.pay)
      let banner = CheckoutScreen.Banner()
      screen.pay.on(.touchUpInside, id: "submit", owner: banner) { _, _ in }
      let help = Button(name: "checkout.help", observer: session)
      for tap in 0..<3 {
        if tap > 0 { LintScenario.personPause() }
        help.tap()
      }
    }
    // The output already holds a session, so the input's lands under another id.
    let other = try await LintScenario.record(directory)
    let target = try SleeveDatabase.openForWriting(path: other.path)
    _ = try SessionMerger(target: target).merge(path: input.path, includeUnterminated: false)
    let merged = try QueryDatabase(path: other.path)
    var second = QueryFilter()
    second.session = .id(2)
    let report = try LintScenario.lint(input)
    #expect(
      report.findings.map(\.check) == [
        .accumulation, .deadInteraction, .rageInteraction, .silentReplacement,
      ])
    let before = LintScenario.summary(report)
    #expect(LintScenario.summary(try merged.lint(filter: second)) == before)
  }
}
