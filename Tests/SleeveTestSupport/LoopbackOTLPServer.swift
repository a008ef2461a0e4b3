import Foundation

/// `scripts/otlp-test-server` running on loopback for one test: a scripted OTLP/HTTP receiver
/// (answers in order, the last one repeating: `"503"`, `"200"`, `"429:retry-after=1"`,
/// `"400:message=TEXT"`, `"hang"`, `"trickle"`, `"close"`; the script's doc comment lists
/// them) and the log of what it received.
///
/// The server exits when this value is released or `stop()` is called, and on its own when
/// the test process dies (its standard input closes). Starting waits at most
/// `startupLimit` for the port.
///
/// Gate a test on it with `Proofs.run(needs: .python3)`: without python3 the
/// test is skipped on a developer's machine and fails under `SLEEVE_REQUIRE_PROOFS=1`.
///
/// `@unchecked Sendable`: every stored property is a `let` set before the value is shared;
/// after that the process and pipe are only signalled and closed (`stop`), which Foundation
/// allows from any thread, and `requests()` only reads the log file.
public final class LoopbackOTLPServer: @unchecked Sendable {
  /// One request as the server logged it.
  public struct Request: Decodable, Sendable {
    /// `POST`.
    public let method: String
    /// The request path, `/v1/traces`.
    public let path: String
    /// The headers, names lowercased.
    public let headers: [String: String]
    /// Bytes received in the body (compressed, when it was).
    public let bodyLength: Int
    /// The body as text, gunzipped first when `Content-Encoding` was gzip.
    public let body: String
    /// Why gunzipping failed, when it did.
    public let gzipError: String?

    enum CodingKeys: String, CodingKey {
      case method, path, headers, body
      case bodyLength = "body_length"
      case gzipError = "gzip_error"
    }
  }

  /// Why the server could not be started.
  public struct StartFailure: Error, CustomStringConvertible {
    /// What went wrong, with the server's standard error.
    public let description: String
  }

  /// The longest wait for the server to print its port.
  public static let startupLimit = WaitBounds.hang

  /// Whether python3 is there to run the server.
  public static var canRun: Bool { PythonModule.isInstalled("http.server") }

  /// The script, found from the package root like the other scripts the tests run.
  public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts/otlp-test-server").path

  /// The port it listens on, on 127.0.0.1.
  public let port: Int
  private let process: Process
  private let input: Pipe
  private let directory: TemporaryDirectory

  /// `http://127.0.0.1:PORT`: a base endpoint.
  public var baseURL: String { "http://127.0.0.1:\(port)" }

  /// Starts the server with `script` and waits for its port, all on a thread of its own (not
  /// the cooperative pool, which the tests' own deadlines and sleeps need).
  ///
  /// - Throws: `StartFailure` when python3 cannot run it or it prints no port in time.
  public static func start(_ script: [String]) async throws -> LoopbackOTLPServer {
    try await OffThePool.run { try launch(script) }
  }

  private static func launch(_ script: [String]) throws -> LoopbackOTLPServer {
    let directory = TemporaryDirectory()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: PythonModule.interpreter)
    process.arguments =
      [Self.script, "--log", directory.path("requests.jsonl")] + script
    let input = Pipe()
    let output = Pipe()
    _ = FileManager.default.createFile(
      atPath: directory.path("stderr.txt"), contents: nil, attributes: [.posixPermissions: 0o600])
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle(forWritingAtPath: directory.path("stderr.txt"))
    try process.run()
    let line = PipeLine.first(of: output.fileHandleForReading, within: startupLimit)
    guard let line, let port = Int(line) else {
      process.terminate()
      process.waitForExit()
      let errors = (try? String(contentsOfFile: directory.path("stderr.txt"), encoding: .utf8))
      throw StartFailure(
        description: "otlp-test-server printed no port within \(startupLimit): \(errors ?? "")")
    }
    return LoopbackOTLPServer(port: port, process: process, input: input, directory: directory)
  }

  private init(port: Int, process: Process, input: Pipe, directory: TemporaryDirectory) {
    self.port = port
    self.process = process
    self.input = input
    self.directory = directory
  }

  /// The requests received so far, in order.
  public func requests() throws -> [Request] {
    try loggedLines().map { try JSONDecoder().decode(Request.self, from: Data($0)) }
  }

  /// How many requests were received so far, without decoding their bodies: what a loop
  /// polling for the n-th request reads (decoding every body on every poll costs seconds).
  public func requestCount() throws -> Int {
    try loggedLines().count
  }

  /// The log's whole lines, one per request. Read while the server may be writing: only lines
  /// ended by a newline count, so a request being logged right now is left for the next read.
  private func loggedLines() throws -> [Data.SubSequence] {
    let path = directory.path("requests.jsonl")
    guard FileManager.default.fileExists(atPath: path) else { return [] }
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    guard let end = data.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
    return data[...end].split(separator: UInt8(ascii: "\n"))
  }

  /// Stops the server (closing its standard input, then SIGTERM) and waits for it to exit, so
  /// its port is closed when this returns. The wait is short (the server exits at once) but
  /// blocks the calling thread; `stopAndWait()` waits off the cooperative pool.
  ///
  /// It waits for the exit itself (the child a zombie, its sockets closed), not for
  /// Foundation to reap it: the reaper runs on the dispatch threads the cooperative pool runs
  /// on, so two tests stopping their servers in a `defer` on both pool threads waited for it
  /// forever (a full run hung at 34 s, both servers zombies, `isRunning` still true).
  public func stop() {
    signalStop()
    let pid = process.processIdentifier
    while process.isRunning, !Self.hasExited(pid) { usleep(2_000) }
  }

  /// Whether child `pid` has exited, reaped or not, asked without reaping it (`WNOWAIT`), so
  /// Foundation still reaps it and reads its status.
  static func hasExited(_ pid: pid_t) -> Bool {
    var info = siginfo_t()
    guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT | WNOHANG) == 0 else {
      return true  // ECHILD: reaped already
    }
    return info._sifields._sigchld.si_pid == pid  // still running: WNOHANG leaves it 0
  }

  /// `stop()`, waiting on a thread of its own instead of the caller's.
  public func stopAndWait() async {
    signalStop()
    let pid = process.processIdentifier
    _ = try? await OffThePool.run {
      while self.process.isRunning, !Self.hasExited(pid) { usleep(2_000) }
    }
  }

  /// Closes the server's standard input and sends SIGTERM, without waiting: it exits at once
  /// and Foundation reaps it. What `deinit` does, so releasing a server never blocks.
  private func signalStop() {
    try? input.fileHandleForWriting.close()
    if process.isRunning { process.terminate() }
  }

  deinit { signalStop() }
}
