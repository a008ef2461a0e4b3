// Sleeve's benchmarks, each measured against a baseline in the same run (see scripts/bench).
//
//   SleeveBench                                 dispatch hot path vs a plain loop: one
//                                               process's best ns per fire, one line each
//   SleeveBench recorder                        recorder firing cost vs its floor, and ingest
//                                               vs plain prepared inserts: one line of numbers
//                                               (RecorderTimings)
//   SleeveBench recorder-ir-probe floor|recorded|unrecorded H N
//                                               fires N times into H handlers (or runs the
//                                               floor's work as often) and exits (callgrind)
//   SleeveBench latency-db N H PATH             writes N outcomes over H handlers into PATH
//   SleeveBench diff-db N H B PATH              writes B sessions on branch main and one on
//                                               branch feature, N outcomes in all over H
//                                               handlers, into PATH (for `sleeve diff`)
//   SleeveBench summaries-db S N H PATH        writes S ended sessions of N outcomes each over
//                                               H handlers into PATH and summarizes each;
//                                               prints the seconds writing and summarizing took
//   SleeveBench changes-db C H N PATH PLAN      writes C commits on main, one summarized
//                                               session each of N outcomes per handler over H
//                                               handlers, with planted changes (listed in PLAN)
//   SleeveBench changes-series PATH DIR         writes each handler's per-commit p50 to
//                                               DIR/<handler>.csv (for Apache Otava)
//   SleeveBench latency-query METHOD PATH R     times the latency query per handler over every
//                                               session of PATH in process (METHOD: histogram,
//                                               exact or auto), R runs after one untimed;
//                                               prints median, min and max ms of the query
//                                               and of its session listing, and the groups
//   SleeveBench summary-floor PATH R            times every summary row of PATH read by one
//                                               statement, then also decoded and merged per
//                                               handler, R runs after one untimed; prints
//                                               median, min and max ms of each, and handlers
//   SleeveBench lint-db N PATH                  writes one session of N outcomes from user
//                                               interactions on a checkout screen into PATH
//                                               (for `sleeve lint` against `sleeve errors`)
//   SleeveBench long-session N PATH             records N invocations into PATH and exits
//                                               (for /usr/bin/time -v)
//   SleeveBench rollout-timing                  best ns per fire of one handler with no
//                                               observer: ungated, on/off-gated and gated by
//                                               a 50% rollout per fire, key and session, one
//                                               line `CASE NS` each (one process, same run)
//   SleeveBench rollout-probe CASE N            fires N times into that case's handler and
//                                               exits (for valgrind)
//   SleeveBench --alloc-probe|--plain-probe|--observed-probe H N
//                                               fires N times into H handlers and exits
//                                               (for valgrind)
import Foundation
import SleeveCore
import SleeveQuery

let arguments = Array(CommandLine.arguments.dropFirst())
do {
  switch arguments.first {
  case nil:
    try DispatchBench.runTimings()
  case "recorder":
    try await RecorderTimings.printValues()
  case "recorder-probe" where arguments.count == 2:
    guard let fires = Int(arguments[1]) else { throw BenchFailure("bad count") }
    _ = try RecorderBench.invocationNanoseconds(
      handlers: 8, fires: fires, repeats: 1, recorded: true)
  case "recorder-ir-probe" where arguments.count == 4:
    guard let handlers = Int(arguments[2]), let fires = Int(arguments[3]) else {
      throw BenchFailure("bad recorder-ir-probe arguments")
    }
    try RecorderBench.instructionProbe(arguments[1], handlers: handlers, fires: fires)
  case "latency-db" where arguments.count == 4:
    guard let outcomes = Int(arguments[1]), let handlers = Int(arguments[2]) else {
      throw BenchFailure("bad latency-db arguments")
    }
    try LatencyFixture.write(outcomes: outcomes, handlers: handlers, path: arguments[3])
  case "diff-db" where arguments.count == 5:
    guard let outcomes = Int(arguments[1]), let handlers = Int(arguments[2]),
      let baselines = Int(arguments[3]), outcomes > 0, handlers > 0, baselines > 0
    else { throw BenchFailure("bad diff-db arguments") }
    try LatencyFixture.writeDiff(
      outcomes: outcomes, handlers: handlers, baselines: baselines, path: arguments[4])
  case "summaries-db" where arguments.count == 5:
    guard let sessions = Int(arguments[1]), let outcomes = Int(arguments[2]),
      let handlers = Int(arguments[3]), sessions > 0, outcomes > 0, handlers > 0
    else { throw BenchFailure("bad summaries-db arguments") }
    let timing = try LatencyFixture.writeSummarized(
      sessions: sessions, outcomes: outcomes, handlers: handlers, path: arguments[4])
    print(timing.writeSeconds, timing.summarizeSeconds)
  case "changes-db" where arguments.count == 6:
    guard let commits = Int(arguments[1]), let handlers = Int(arguments[2]),
      let outcomes = Int(arguments[3]), commits > 0, handlers > 0, outcomes > 0
    else { throw BenchFailure("bad changes-db arguments") }
    try ChangesFixture.write(
      commits: commits, handlers: handlers, outcomesPerHandler: outcomes, path: arguments[4],
      plan: arguments[5])
  case "changes-series" where arguments.count == 3:
    try ChangesFixture.writeSeries(path: arguments[1], directory: arguments[2])
  case "latency-query" where arguments.count == 4:
    guard let method = AnswerMethod(rawValue: arguments[1]), let runs = Int(arguments[3]),
      runs > 0
    else { throw BenchFailure("bad latency-query arguments") }
    let result = try LatencyQueryBench.measure(path: arguments[2], method: method, runs: runs)
    print(
      result.query.median, result.query.minimum, result.query.maximum,
      result.sessionListing.median, result.sessionListing.minimum, result.sessionListing.maximum,
      result.groups)
  case "summary-floor" where arguments.count == 3:
    guard let runs = Int(arguments[2]), runs > 0 else {
      throw BenchFailure("bad summary-floor arguments")
    }
    let result = try SummaryFloorBench.measure(path: arguments[1], runs: runs)
    print(
      result.read.median, result.read.minimum, result.read.maximum,
      result.decodeAndMerge.median, result.decodeAndMerge.minimum, result.decodeAndMerge.maximum,
      result.handlers)
  case "lint-db" where arguments.count == 3:
    guard let outcomes = Int(arguments[1]), outcomes > 0 else {
      throw BenchFailure("bad lint-db arguments")
    }
    try LintFixture.write(outcomes: outcomes, path: arguments[2])
  case "long-session" where arguments.count == 3:
    guard let invocations = Int(arguments[1]) else { throw BenchFailure("bad count") }
    try await RecorderBench.longSession(invocations: invocations, path: arguments[2])
  case "rollout-timing" where arguments.count == 1:
    try RolloutBench.printTimings()
  case "rollout-probe" where arguments.count == 3:
    guard let benchCase = RolloutBench.Case(rawValue: arguments[1]), let fires = Int(arguments[2])
    else { throw BenchFailure("bad rollout-probe arguments") }
    RolloutBench.runProbe(benchCase, fires: fires)
  case let mode? where mode.hasSuffix("-probe") && arguments.count == 3:
    guard let handlers = Int(arguments[1]), let fires = Int(arguments[2]) else {
      throw BenchFailure("bad probe arguments")
    }
    DispatchBench.runProbe(mode, handlers: handlers, fires: fires)
  default:
    throw BenchFailure("unknown arguments: \(arguments.joined(separator: " "))")
  }
} catch {
  FileHandle.standardError.write(Data("SleeveBench: \(error)\n".utf8))
  exit(1)
}
