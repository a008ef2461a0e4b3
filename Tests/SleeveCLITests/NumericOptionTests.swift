import SleeveTestSupport
import Testing

/// Every numeric option reads numbers as the others do (`DecimalText`): digits and a point, no
/// sign, exponent, hex, nan or infinity; anything else is a usage error (64) naming the option.
@Suite("Numeric options")
struct NumericOptionTests {
  static let rateOptions = [
    ["check", "--max-error-rate"], ["check", "--max-data-loss"],
    ["check", "--baseline", "branch=main", "--min-error-change"],
    ["check", "--baseline", "branch=main", "--min-relative-change"],
    ["diff", "--baseline", "branch=main", "--min-error-change"],
    ["flaky", "--broken-share"],
  ]

  @Test(
    "a rate written in hex, with an exponent, a sign or as nan is refused by every rate option",
    arguments: rateOptions, ["0x1p-4", "1e-400%", "5e-2", "+0.05", "nan", "inf%", "0.05 ", "5.%"])
  func nonDecimalRatesAreRefused(option: [String], value: String) async throws {
    let fixture = try FixtureDatabase.standard()
    let result = await CLIRunner.run(option + [value, "--db", fixture.path])
    #expect(result.exit == 64, "\(option) \(value): exit \(result.exit) \(result.error)")
    #expect(
      result.error.hasPrefix("Error: The value '\(value)' is invalid for '\(option.last!)"),
      "\(result.error)")
  }

  @Test("a decimal rate is taken by every rate option", arguments: rateOptions, ["0.05", "5%"])
  func decimalRatesAreTaken(option: [String], value: String) async throws {
    let fixture = try FixtureDatabase.standard()
    let result = await CLIRunner.run(option + [value, "--db", fixture.path])
    #expect(!result.error.contains("is invalid for"), "\(option) \(value): \(result.error)")
  }

  @Test("a count with a sign is refused as a non-decimal number", arguments: ["+5", "-0", "٥"])
  func signedCountsAreRefused(value: String) async throws {
    let fixture = try FixtureDatabase.standard()
    let result = await CLIRunner.run(["check", "--min-samples", value, "--db", fixture.path])
    #expect(result.exit == 64, "\(value): exit \(result.exit) \(result.error)")
    #expect(
      result.error.hasPrefix("Error: The value '\(value)' is invalid for '--min-samples"),
      "\(result.error)")
  }
}
