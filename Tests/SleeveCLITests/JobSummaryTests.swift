import Foundation
import SleeveTestSupport
import Synchronization
import Testing

@testable import SleeveCLI

#if canImport(Glibc)
  import Glibc
#endif

/// `$GITHUB_STEP_SUMMARY`: appended to, never truncated; a regular file only; 0600 when
/// created; fitted to GitHub's 1 MiB per step with a note when cut.
@Suite("GitHub job summary")
struct JobSummaryTests {
  static func report(_ markdown: String) -> CIReport {
    CIReport(title: "t", summary: "s", checks: [], markdownSummary: markdown)
  }

  static func bytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  @Test("the summary is appended after what the file holds, which stays byte for byte")
  func appends() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("summary.md")
    let earlier: [UInt8] = Array("# Earlier step\n\nno newline at the end".utf8) + [0xFF, 0x00]
    try Data(earlier).write(to: URL(fileURLWithPath: path))
    let outcome = try GitHubWorkflowCommands.appendJobSummary(
      Self.report("## sleeve diff\n\n2 regressions"), environment: ["GITHUB_STEP_SUMMARY": path])
    let after = try Self.bytes(path)
    #expect(Array(after.prefix(earlier.count)) == earlier)
    #expect(
      Array(after.dropFirst(earlier.count)) == Array("\n## sleeve diff\n\n2 regressions\n".utf8))
    #expect(outcome == .appended(path: path, bytes: after.count - earlier.count))
    #expect(outcome.warning == nil)
    // Twice: appended again, never replaced.
    try GitHubWorkflowCommands.appendJobSummary(
      Self.report("again\n"), environment: ["GITHUB_STEP_SUMMARY": path])
    #expect(try Self.bytes(path) == after + Array("\nagain\n".utf8))
  }

  @Test("a missing summary file is created 0600 whatever the umask, and holds only the summary")
  func createsPrivately() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("summary.md")
    let old = umask(0o000)
    defer { umask(old) }
    try GitHubWorkflowCommands.appendJobSummary(
      Self.report("# Hi"), environment: ["GITHUB_STEP_SUMMARY": path])
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "# Hi\n")
  }

  @Test(
    "unset or empty GITHUB_STEP_SUMMARY writes nothing",
    arguments: [[:], ["GITHUB_STEP_SUMMARY": ""]])
  func notRequested(environment: [String: String]) throws {
    let directory = TemporaryDirectory()
    let outcome = try GitHubWorkflowCommands.appendJobSummary(
      Self.report("x"), environment: environment)
    #expect(outcome == .notRequested)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("")).isEmpty)
  }

  @Test("a FIFO nobody reads is refused at once, never a hang, and left a FIFO")
  func fifoIsRefused() throws {
    let directory = TemporaryDirectory()
    let fifo = directory.path("pipe")
    try #require(mkfifo(fifo, 0o600) == 0)
    let finished = DispatchSemaphore(value: 0)
    let result = Mutex<Result<JobSummaryWrite, OutputFileError>?>(nil)
    let thread = Thread {
      let outcome = Result { () throws(OutputFileError) in
        try GitHubWorkflowCommands.appendJobSummary(
          Self.report("x"), environment: ["GITHUB_STEP_SUMMARY": fifo])
      }
      result.withLock { $0 = outcome }
      finished.signal()
    }
    thread.start()
    if finished.wait(timeout: .now() + 10) == .timedOut {
      Issue.record("appending to a FIFO hung")
      // Unblock the writer so the test process can end.
      let reader = open(fifo, O_RDONLY | O_NONBLOCK)
      finished.wait()
      close(reader)
    }
    let outcome = try #require(result.withLock { $0 })
    guard case .failure(let error) = outcome else {
      Issue.record("a FIFO was written: \(outcome)")
      return
    }
    #expect(SleeveCLI.failure(error).code == .usage)
    #expect(
      error.description
        == "refusing to write '\(fifo)': it is a FIFO, and only a regular file is appended to; "
        + "choose another output file")
    var status = stat()
    #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
  }

  @Test("a directory, a device, a dangling link and a database are refused; nothing is created")
  func refusals() throws {
    let directory = TemporaryDirectory()
    let fixture = try FixtureDatabase.standard()
    let dangling = directory.path("dangling.md")
    try FileManager.default.createSymbolicLink(
      atPath: dangling, withDestinationPath: directory.path("nowhere.md"))
    let cases: [(String, String)] = [
      (directory.path(""), "it is a directory"),
      ("/dev/null", "it is a character device"),
      (dangling, "symbolic link to a file that does not exist"),
      (fixture.path, "it holds a SQLite database"),
      (fixture.path + "-wal", "belongs to the database"),
    ]
    for (path, reason) in cases {
      let before = try? Self.bytes(path)
      #expect(throws: OutputFileError.self, "\(path)") {
        try GitHubWorkflowCommands.appendJobSummary(
          Self.report("x"), environment: ["GITHUB_STEP_SUMMARY": path])
      }
      do {
        try GitHubWorkflowCommands.appendJobSummary(
          Self.report("x"), environment: ["GITHUB_STEP_SUMMARY": path])
      } catch {
        #expect(error.description.contains(reason), "\(path): \(error)")
        #expect(SleeveCLI.failure(error).code == .usage)
        #expect(!error.description.contains("\n"))
      }
      if path != "/dev/null", path != directory.path("") {
        #expect((try? Self.bytes(path)) == before, "\(path) changed")
      }
    }
    #expect(!FileManager.default.fileExists(atPath: directory.path("nowhere.md")))
  }

  @Test("a summary in a directory that does not exist or cannot be written is an I/O error (74)")
  func ioErrors() throws {
    let directory = TemporaryDirectory()
    for path in [directory.path("missing/summary.md"), "/proc/summary.md"] {
      do {
        try GitHubWorkflowCommands.appendJobSummary(
          Self.report("x"), environment: ["GITHUB_STEP_SUMMARY": path])
        Issue.record("\(path) was written")
      } catch {
        #expect(SleeveCLI.failure(error).code == .ioError, "\(path): \(error)")
        #expect(error.description.hasPrefix("cannot write '\(path)'"))
      }
    }
  }

  @Test(
    "a summary past GitHub's 1 MiB is cut at a line break with a note; the file stays within 1 MiB",
    arguments: [0, 1, 500_000, 1_048_000])
  func cutToTheLimit(existing: Int) throws {
    let line = "| CheckoutView | submit | 4.0% | 👩‍👩‍👧 |\n"
    let justOver = (StepSummaryText.limit - existing) / line.utf8.count + 1
    for count in [justOver, 40_000] {
      try cut(
        existing: existing, markdown: "## sleeve diff\n\n" + String(repeating: line, count: count),
        line: line)
    }
  }

  func cut(existing: Int, markdown: String, line: String) throws {
    let directory = TemporaryDirectory()
    let path = directory.path("summary.md")
    if existing > 0 {
      try Data(repeating: 0x61, count: existing).write(to: URL(fileURLWithPath: path))
    }
    let outcome = try GitHubWorkflowCommands.appendJobSummary(
      Self.report(markdown), environment: ["GITHUB_STEP_SUMMARY": path])
    let file = try Self.bytes(path)
    #expect(file.count <= StepSummaryText.limit)
    let appended = String(decoding: file.dropFirst(existing), as: UTF8.self)
    let note = StepSummaryText.cutNote(totalBytes: markdown.utf8.count)
    #expect(appended.hasSuffix(note))
    let kept = appended.dropLast(note.count)
    #expect(kept.hasSuffix(line), "cut at a line break")
    #expect(
      outcome == .cut(path: path, bytes: file.count - existing, summaryBytes: markdown.utf8.count))
    #expect(outcome.warning?.contains("cut to fit GitHub's 1 MiB") == true)
    // Nearly all the room is used.
    #expect(
      file.count > StepSummaryText.limit - line.utf8.count - note.utf8.count
        - StepSummaryText.closingReserve)
  }

  @Test("a file already at the limit is left as it is, and the outcome says why")
  func noRoom() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("summary.md")
    let full = Data(repeating: 0x61, count: StepSummaryText.limit - 100)
    try full.write(to: URL(fileURLWithPath: path))
    let outcome = try GitHubWorkflowCommands.appendJobSummary(
      Self.report(String(repeating: "x\n", count: 1_000)),
      environment: ["GITHUB_STEP_SUMMARY": path])
    #expect(outcome == .noRoom(path: path, existingBytes: full.count))
    #expect(outcome.warning?.contains("was not written") == true)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == full)
  }

  @Test("a cut inside a code fence or <details> closes them before the note")
  func cutClosesBlocks() throws {
    let open = "<details><summary>All rows</summary>\n\n```\n"
    let body = String(repeating: "row\n", count: 300_000)
    guard let fitted = StepSummaryText.fitted(open + body, existing: 0) else {
      Issue.record("nothing fitted")
      return
    }
    #expect(fitted.isCut)
    let note = StepSummaryText.cutNote(totalBytes: (open + body).utf8.count)
    #expect(fitted.text.hasSuffix("row\n```\n</details>\n" + note))
    #expect(fitted.text.utf8.count <= StepSummaryText.limit)
    // A closed fence is not closed again.
    let closed = StepSummaryText.fitted("```\ncode\n```\n" + body, existing: 0)
    #expect(
      closed?.text.hasSuffix(
        "row\n" + StepSummaryText.cutNote(totalBytes: 12 + 1 + body.utf8.count)) == true)
  }

  @Test("a single over-long line is cut at a scalar boundary, never inside one")
  func cutInsideALine() throws {
    let line = String(repeating: "é👩‍👩‍👧", count: 200_000)
    // Scalars of 2, 3 and 4 bytes in a 20-byte cycle: some of these sizes put the limit inside one.
    for existing in 1...24 {
      let fitted = try #require(StepSummaryText.fitted(line, existing: existing))
      #expect(fitted.isCut)
      #expect(fitted.text.utf8.count <= StepSummaryText.limit - existing)
      #expect(fitted.text.utf8.count > StepSummaryText.limit - existing - 512, "room used")
      #expect(fitted.text.hasPrefix("\n"))
      #expect(!fitted.text.unicodeScalars.contains("\u{FFFD}"), "existing \(existing)")
    }
  }

  @Test("an escaped '\\<details>' in a recorded name is text, so a cut adds no '</details>' for it")
  func escapedDetailsIsNotABlock() throws {
    let row = "| " + MarkdownText.escaped("<details><summary>x") + " |\n"
    let body = String(repeating: row, count: 60_000)
    let fitted = try #require(StepSummaryText.fitted(body, existing: 0))
    #expect(fitted.isCut)
    #expect(!fitted.text.contains("</details>"), "\(fitted.text.suffix(200))")
  }
}
