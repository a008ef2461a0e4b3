// The `sleeve` executable: a thin shell around SleeveCLI.
import Foundation
import SleeveCLI

let status = await SleeveCLI.main(
  arguments: Array(CommandLine.arguments.dropFirst()),
  environment: ProcessInfo.processInfo.environment)
exit(status)
