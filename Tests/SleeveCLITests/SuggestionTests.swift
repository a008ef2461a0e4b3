import Testing

@testable import SleeveCLI

@Suite("Did you mean: the closest known name to a typo")
struct SuggestionTests {
  static func distance(_ a: String, _ b: String) -> Int {
    Suggestion.distance(a.unicodeScalars.map(\.value), b.unicodeScalars.map(\.value))
  }

  @Test(
    "the distance is the optimal string alignment distance (published values)",
    arguments: [
      ("kitten", "sitting", 3), ("flaw", "lawn", 2), ("", "abc", 3), ("abc", "abc", 0),
      // A swap of neighbours is one step; OSA (unlike full Damerau-Levenshtein, 2) gives 3 here.
      ("errors", "erorrs", 1), ("ca", "abc", 3),
    ])
  func distances(a: String, b: String, expected: Int) {
    #expect(Self.distance(a, b) == expected)
    #expect(Self.distance(b, a) == expected)
  }

  @Test("a close name is suggested, a far one or a long one is not, and ties go to the first")
  func closeOnly() {
    #expect(Suggestion.closest(to: "erors", among: ["sessions", "errors"]) == "errors")
    #expect(Suggestion.closest(to: "LATENCY", among: ["errors", "latency"]) == "latency")
    #expect(Suggestion.closest(to: "xyzzy", among: ["errors", "latency"]) == nil)
    #expect(Suggestion.closest(to: "ab", among: ["ac", "ad"]) == "ac")
    #expect(Suggestion.closest(to: String(repeating: "e", count: 65), among: ["errors"]) == nil)
  }

  @Test(
    "an unknown subcommand, option or enumerated value names the closest known one",
    arguments: [
      (["erors"], "Error: Unknown subcommand 'erors'. Did you mean 'errors'?"),
      (["help", "lantency"], "Error: Unknown subcommand 'lantency'. Did you mean 'latency'?"),
      (
        ["latency", "--percentile", "99"],
        "Error: Unknown option '--percentile'. Did you mean '--percentiles'?"
      ),
      (["--bd", "x.sqlite", "sessions"], "Error: Unknown option '--bd'. Did you mean '--db'?"),
      (
        ["errors", "--format", "jsno"],
        "expected one of table, json, csv, markdown; did you mean 'json'?"
      ),
      (["errors", "--by", "handlr"], "; did you mean 'handler'?"),
      (["errors", "--method", "exatc"], "; did you mean 'exact'?"),
    ])
  func commandLineSuggests(arguments: [String], expected: String) async {
    let result = await CLIRunner.run(arguments)
    #expect(result.exit == 64, "\(result.error)")
    #expect(result.error.contains(expected), "\(result.error)")
  }

  @Test(
    "a name far from every known one gets no suggestion, and scripts' commands are never offered")
  func noSuggestion() async {
    for arguments in [["xyzzy"], ["_complete"], ["errors", "--zzzzzz"]] {
      let result = await CLIRunner.run(arguments)
      #expect(result.exit == 64, "\(result.error)")
      #expect(!result.error.contains("Did you mean"), "\(arguments): \(result.error)")
    }
  }
}
