// A child process for the recorder's multi-process and kill tests: records fires of one
// button with one handler into a database, and reports progress on standard output.
//
//   SleeveRecorderProbe --db PATH --fires N [--strict] [--report-every K] [--forever]
//                       [--leave-open]
//
// Each fire records one fire row and one outcome row. With --report-every K it prints
// "acknowledged N" after every K fires once they are committed (strict: as soon as
// sendActions returns; batched: after flush()). With --forever it never ends the session
// (the test kills it). With --leave-open it prints "leaving" and exits while the recorder and
// its session are still alive and unended, as a script's top-level code does. Otherwise it
// ends the session and prints "ended".
import Foundation
import SleeveCore
import SleeveRecorder

struct ProbeArguments {
  var path = ""
  var fires = 0
  var strict = false
  var reportEvery = 0
  var forever = false
  var leaveOpen = false

  init?(_ arguments: [String]) {
    var iterator = arguments.dropFirst().makeIterator()
    while let argument = iterator.next() {
      switch argument {
      case "--db": path = iterator.next() ?? ""
      case "--fires": fires = Int(iterator.next() ?? "") ?? -1
      case "--strict": strict = true
      case "--report-every": reportEvery = Int(iterator.next() ?? "") ?? -1
      case "--forever": forever = true
      case "--leave-open": leaveOpen = true
      default: return nil
      }
    }
    guard !path.isEmpty, fires >= 0, reportEvery >= 0 else { return nil }
  }
}

func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func complain(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// What --leave-open keeps alive until the process exits.
nonisolated(unsafe) var keptAlive: [AnyObject] = []

guard let arguments = ProbeArguments(CommandLine.arguments) else {
  complain(
    "usage: SleeveRecorderProbe --db PATH --fires N [--strict] [--report-every K] [--forever]"
      + " [--leave-open]")
  exit(64)
}

do {
  let recorder = try Recorder(
    path: arguments.path,
    options: RecorderOptions(
      durability: arguments.strict ? .strict : .batched, whenFull: .block,
      flushInterval: .milliseconds(10), waitTimeout: .seconds(120)))
  let session = try recorder.startSession(
    name: "probe-\(ProcessInfo.processInfo.processIdentifier)")
  let button = Button(name: "probe.button")
  button.on(.touchUpInside, id: "count") { _ in }
  session.attach(button)
  say("started \(session.rowID)")
  var fired = 0
  while arguments.forever || fired < arguments.fires {
    button.sendActions(for: .touchUpInside)
    fired += 1
    if arguments.reportEvery > 0, fired % arguments.reportEvery == 0 {
      if !arguments.strict { try await session.flush() }
      say("acknowledged \(fired)")
    }
  }
  if arguments.leaveOpen {
    keptAlive = [recorder, session, button]
    say("leaving")
    exit(0)
  }
  try await session.end()
  if session.status != .ended { complain("status: \(session.status)") }
  say("ended")
} catch {
  complain("Error: \(error)")
  exit(1)
}
