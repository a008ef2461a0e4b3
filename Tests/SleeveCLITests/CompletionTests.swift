import Foundation
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// A shell from Debian's packages, for the completion proofs.
enum Shell {
  /// The path of `name` on `PATH`, or `nil`.
  static func path(_ name: String) -> String? { Proofs.executable(name) }
}

/// `sleeve completions` and the `sleeve __complete` helper its scripts call.
@Suite("Shell completions")
struct CompletionTests {
  @Test(
    "each completion script passes its shell's syntax check (bash -n, zsh -n, fish -n)",
    .enabled(
      if: Proofs.run(needs: ["bash", "zsh", "fish"].map { .program($0) }),
      "needs Debian's zsh and fish packages"),
    arguments: ["bash", "zsh", "fish"])
  func scriptsParse(shell: String) async throws {
    let result = await CLIRunner.run(["completions", shell])
    #expect(result.exit == 0)
    #expect(result.out.contains("command sleeve __complete"), "\(result.out)")
    let directory = TemporaryDirectory()
    let file = directory.path("sleeve.\(shell)")
    try result.out.write(toFile: file, atomically: true, encoding: .utf8)
    let checked = try await ChildProcess.run(try #require(Shell.path(shell)), ["-n", file])
    #expect(checked.status == 0, "\(checked.output)")
    #expect(checked.output.isEmpty, "\(checked.output)")
  }

  @Test("the scripts complete every subcommand, option and --format, --by and --color value")
  func scriptsCoverTheCommands() async {
    for shell in ["bash", "zsh", "fish"] {
      let script = await CLIRunner.run(["completions", shell]).out
      for spec in SleeveCLI.commands.map({ $0.spec }) where spec.listedInHelp {
        #expect(script.contains(spec.name), "\(shell): \(spec.name)")
        for option in spec.options {
          #expect(
            script.contains("--" + option.name) || script.contains("-l " + option.name),
            "\(shell): \(spec.name) --\(option.name)")
        }
      }
      for value in ["otlp-json", "html", "markdown", "variant", "always", "last"] {
        #expect(script.contains(value), "\(shell): \(value)")
      }
    }
  }

  @Test("the hidden helper is not offered as a subcommand")
  func helperIsNotOffered() {
    let model = CompletionModel(specs: SleeveCLI.commands.map { $0.spec })
    #expect(!model.subcommands.contains { $0.name.hasPrefix("__") })
    #expect(model.subcommands.contains { $0.name == "completions" })
    #expect(model.subcommands.count == SleeveCLI.commands.count - 1)
  }

  @Test("an unknown shell is a usage error naming the shells")
  func unknownShell() async {
    let result = await CLIRunner.run(["completions", "tcsh"])
    #expect(result.exit == 64)
    #expect(result.error.contains("Unknown shell 'tcsh': expected one of bash, zsh, fish"))
  }

  @Test("the helper lists session ids and UUIDs, handler names and flag keys")
  func helperListsRecordedValues() async throws {
    let fixture = try FixtureDatabase.standard()
    let sessions = await CLIRunner.run(["__complete", "sessions", "--db", fixture.path])
    #expect(
      sessions.out == "1\n00000000-0000-0000-0000-000000000001\n2\n"
        + "00000000-0000-0000-0000-000000000002\n")
    let handlers = await CLIRunner.run(["__complete", "handlers", "--db", fixture.path])
    #expect(Set(handlers.out.split(separator: "\n")) == ["charge", "validate"])
    let flags = await CLIRunner.run(
      ["__complete", "flags"], environment: ["SLEEVE_DB": fixture.path])
    #expect(flags.out == "new-pay\n")
    #expect([sessions, handlers, flags].allSatisfy { $0.exit == 0 && $0.error.isEmpty })
  }

  @Test(
    "the helper prints nothing and exits 0 for a FIFO, a directory, a missing or foreign file, or an unknown kind"
  )
  func helperNeverFailsLoudly() async throws {
    let directory = TemporaryDirectory()
    let fifo = directory.path("fifo.sqlite")
    #expect(mkfifo(fifo, 0o600) == 0)
    let foreign = directory.path("foreign.sqlite")
    try Data("not a database at all".utf8).write(to: URL(fileURLWithPath: foreign))
    let fixture = try FixtureDatabase.standard()
    let cases: [[String]] = [
      ["flags", "--db", fifo], ["handlers", "--db", directory.url.path],
      ["flags", "--db", foreign],
      ["sessions", "--db", directory.path("missing.sqlite")], ["bogus", "--db", fixture.path],
    ]
    for arguments in cases {
      let (result, timedOut) = try await ChildProcess.run(
        ChildProcess.sleeveBinary, ["__complete"] + arguments, timeout: WaitBounds.hang)
      #expect(!timedOut, "\(arguments)")
      #expect(result.status == 0, "\(arguments): \(result.output)")
      #expect(result.output.isEmpty, "\(arguments): \(result.output)")
    }
  }

  @Test("the helper leaves out recorded values holding controls or line breaks")
  func helperSkipsHostileValues() async throws {
    let fixture = try HostileNames.database()
    try fixture.flag(
      session: 1, key: "plain-key", owner: "o", maxErrorRate: nil, maxP99: nil, minSamples: 1,
      states: [])
    let flags = await CLIRunner.run(["__complete", "flags", "--db", fixture.path])
    #expect(flags.out == "plain-key\n", "\(flags.out.debugDescription)")
    let handlers = await CLIRunner.run(["__complete", "handlers", "--db", fixture.path])
    #expect(handlers.out.isEmpty, "\(handlers.out.debugDescription)")
  }

  @Test("the helper and the completions command are not listed in the top-level help")
  func helperIsHidden() async {
    let help = await CLIRunner.run(["help"]).out
    #expect(!help.contains("__complete"))
    #expect(help == CLIRunner.golden("help.txt"))
  }
}

/// Completion in a real interactive bash, driven by tmux: keys typed, the screen read back.
@Suite("Completion in a real shell", .serialized)
struct ShellCompletionTests {
  /// An interactive bash in a detached tmux session on its own server socket, with `sleeve`
  /// first on PATH and its completion loaded.
  final class Session {
    let socket = "sleeve-test-\(UUID().uuidString)"
    let tmux: String

    private init(tmux: String) {
      self.tmux = tmux
    }

    /// Starts `shell` (a command line) with `sleeve` first on PATH, then runs `setup` in it.
    static func start(tmux: String, shell: String, setup: String) async throws -> Session {
      let session = Session(tmux: tmux)
      let directory = URL(fileURLWithPath: ChildProcess.sleeveBinary).deletingLastPathComponent()
      let line =
        "env -i PATH=\(directory.path):/usr/bin:/bin HOME=/tmp TERM=xterm PS1='$ ' \(shell)"
      _ = try await session.command(
        ["new-session", "-d", "-x", "200", "-y", "50", line], quiet: true)
      _ = try await session.screen { lines($0) >= 1 }
      try await session.type(setup, enter: true)
      _ = try await session.screen { lines($0) >= 2 }
      return session
    }

    /// An interactive bash with the bash completion loaded.
    static func bash(tmux: String, bash: String) async throws -> Session {
      try await start(
        tmux: tmux, shell: "\(bash) --norc --noprofile",
        setup: "source <(sleeve completions bash)")
    }

    /// How many lines of `screen` are not empty.
    static func lines(_ screen: String) -> Int {
      screen.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }.count
    }

    /// Ends the tmux server and the shell in it. Both inherit this process's blocked signals
    /// (SIGHUP, SIGTERM), so `kill-server` alone leaves them running: SIGKILL, which cannot
    /// be blocked, ends them. Called from `defer`, so it waits for its two short tmux commands
    /// on the calling thread.
    func close() {
      let pids =
        (try? commandBlocking(["display-message", "-p", "#{pid} #{pane_pid}"]))?.output ?? ""
      _ = try? commandBlocking(["kill-server"])
      for pid in pids.split(whereSeparator: \.isWhitespace).compactMap({ Int32($0) }) where pid > 1
      {
        kill(pid, SIGKILL)
      }
    }

    /// `bash -c` running `tmux -L socket arguments`.
    private func shellArguments(_ arguments: [String], quiet: Bool) -> [String] {
      let words = [tmux, "-L", socket] + arguments
      let line = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        .joined(separator: " ")
      // The tmux server outlives the call: it must inherit no descriptor of this process
      // (Foundation's Process sees its child end only once every copy of one is closed).
      let closeInherited =
        "for fd in /proc/$$/fd/*; do n=${fd##*/}; ((n > 2)) && eval \"exec $n>&-\"; done 2>/dev/null; "
      return ["-c", closeInherited + "exec " + line + (quiet ? " </dev/null >/dev/null 2>&1" : "")]
    }

    /// Runs `tmux -L socket arguments` through `sh`, killed after `WaitBounds.hang`, awaited
    /// off the cooperative pool.
    func command(_ arguments: [String], quiet: Bool = false) async throws -> ChildProcess.Result {
      try await ChildProcess.run(
        "/bin/bash", shellArguments(arguments, quiet: quiet), timeout: WaitBounds.hang
      ).result
    }

    /// `command`, waited for on the calling thread (for `close()`, which `defer` calls).
    private func commandBlocking(_ arguments: [String]) throws -> ChildProcess.Result {
      try ChildProcess.run(
        "/bin/bash", shellArguments(arguments, quiet: false), timeout: WaitBounds.hang
      ).result
    }

    func type(_ keys: String, enter: Bool = false, tab: Bool = false) async throws {
      _ = try await command(["send-keys", "-l", keys])
      if tab { _ = try await command(["send-keys", "Tab"]) }
      if enter { _ = try await command(["send-keys", "Enter"]) }
    }

    /// The screen's lines, once `condition` holds or after `WaitBounds.hang`.
    func screen(until condition: (String) -> Bool) async throws -> String {
      let deadline = ContinuousClock.now + WaitBounds.hang
      var text = ""
      while ContinuousClock.now < deadline {
        text = try await command(["capture-pane", "-p", "-J"]).output
        if condition(text) { break }
        try await Task.sleep(for: .milliseconds(100))
      }
      return text
    }
  }

  static var tools: (tmux: String, bash: String)? {
    guard let tmux = Shell.path("tmux"), let bash = Shell.path("bash") else { return nil }
    return (tmux, bash)
  }

  @Test(
    "Tab after --flag completes a flag key read from the database named by --db",
    .enabled(
      if: Proofs.run(needs: .program("tmux"), .program("bash")), "needs Debian's tmux package"))
  func flagKeyCompletes() async throws {
    let tools = try #require(Self.tools)
    let fixture = try FixtureDatabase.standard()
    try fixture.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    let session = try await Session.bash(tmux: tools.tmux, bash: tools.bash)
    defer { session.close() }
    try await session.type("sleeve errors --db \(fixture.path) --flag new-", tab: true)
    let screen = try await session.screen { $0.contains("--flag new-pay") }
    #expect(screen.contains("--flag new-pay"), "\(screen)")
  }

  @Test(
    "a recorded flag key holding $(…) is inserted quoted and never run",
    .enabled(
      if: Proofs.run(needs: .program("tmux"), .program("bash")), "needs Debian's tmux package"))
  func hostileKeyIsNotRun() async throws {
    let tools = try #require(Self.tools)
    let directory = TemporaryDirectory()
    let marker = directory.path("PWNED")
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "s")
    try fixture.flag(
      session: 1, key: "x$(touch \(marker))", owner: "o", maxErrorRate: nil, maxP99: nil,
      minSamples: 1, states: [])
    try fixture.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    let session = try await Session.bash(tmux: tools.tmux, bash: tools.bash)
    defer { session.close() }
    try await session.type("sleeve errors --db \(fixture.path) --flag x", tab: true)
    let screen = try await session.screen { $0.contains("--flag x\\$\\(touch") }
    #expect(screen.contains("--flag x\\$\\(touch\\ \(marker)\\)"), "\(screen)")
    #expect(!FileManager.default.fileExists(atPath: marker))
  }

  @Test(
    "in a real zsh (tmux, compinit), Tab after --flag completes a flag key",
    .enabled(
      if: Proofs.run(needs: .program("tmux"), .program("zsh")),
      "needs Debian's tmux and zsh packages"))
  func zshCompletesFlagKeys() async throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    let session = try await Session.start(
      tmux: try #require(Shell.path("tmux")), shell: try #require(Shell.path("zsh")) + " -f",
      setup: "autoload -Uz compinit && compinit -u && source <(sleeve completions zsh)")
    defer { session.close() }
    try await session.type("sleeve flags --db \(fixture.path) --flag new-", tab: true)
    let screen = try await session.screen { $0.contains("--flag new-pay") }
    #expect(screen.contains("--flag new-pay"), "\(screen)")
  }

  @Test(
    "fish completes flag keys, --by values and subcommands (complete -C)",
    .enabled(if: Proofs.run(needs: .program("fish")), "needs Debian's fish package"))
  func fishCompletes() async throws {
    let fixture = try FixtureDatabase.standard()
    let directory = TemporaryDirectory()
    let script = directory.path("sleeve.fish")
    try await CLIRunner.run(["completions", "fish"]).out.write(
      toFile: script, atomically: true, encoding: .utf8)
    let bin = URL(fileURLWithPath: ChildProcess.sleeveBinary).deletingLastPathComponent().path
    let commands = [
      "set -x PATH \(bin) $PATH", "source \(script)",
      "complete -C 'sleeve errors --db \(fixture.path) --flag new-'",
      "complete -C 'sleeve latency --by va'", "complete -C 'sleeve che'",
    ]
    let (result, timedOut) = try await ChildProcess.run(
      try #require(Shell.path("fish")), ["--no-config", "-c", commands.joined(separator: "; ")],
      timeout: WaitBounds.hang)
    #expect(!timedOut)
    let lines = result.output.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
    #expect(lines.contains("new-pay"), "\(result.output)")
    #expect(lines.contains("variant"), "\(result.output)")
    #expect(lines.contains("check"), "\(result.output)")
  }
}
