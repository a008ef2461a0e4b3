import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A throwaway PostgreSQL server for the shared-history tests, started by
/// `scripts/postgres-test-server` (initdb into a private directory, 127.0.0.1, a free port; as
/// the `postgres` user when the tests run as root) and stopped by its PID once the test
/// process ends (the script's watcher). One server per test process is shared; each test
/// makes a database of its own (`freshDatabase()`), so tests never see each other's rows. A
/// test that stops a server starts a private one (`startPrivate()`).
public enum TestPostgres {
  /// One running server.
  public struct Server: Sendable {
    /// Its directory (data, socket, log).
    public let directory: String
    /// The postmaster's PID.
    public let pid: Int32
    /// The administrator's URL (user `sleeve_admin`, its password, database `postgres`).
    public let adminURL: String

    /// The administrator's URL for `database`.
    public func url(database: String) -> String {
      TestPostgres.replacingDatabase(of: adminURL, with: database)
    }

    /// A URL of `user` with `password` for `database`.
    public func url(user: String, password: String, database: String) -> String {
      let hostPart = adminURL.split(separator: "@", maxSplits: 1).last.map(String.init) ?? ""
      return TestPostgres.replacingDatabase(
        of: "postgresql://\(user):\(password)@\(hostPart)", with: database)
    }

    /// Runs `sql` as the administrator in `database` with `psql` (stops at the first error).
    ///
    /// - Returns: What psql printed (unaligned, tuples only).
    /// - Throws: `Failure` with psql's output when it fails.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
      guard let psql = Proofs.executable("psql") else {
        throw Failure(description: "psql is not on PATH (Debian's postgresql-client)")
      }
      let result = try ChildProcess.run(
        psql,
        ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url(database: database), "-c", sql]
      )
      guard result.status == 0 else {
        throw Failure(description: "psql failed (\(result.status)): \(result.output)")
      }
      return result.output
    }

    /// A new, empty database on this server, named uniquely; returns its administrator URL.
    public func freshDatabase() throws -> String {
      let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
      try psql("CREATE DATABASE \(name)")
      return url(database: name)
    }

    /// Stops the server by its PID and removes its directory.
    public func stop() throws { try script("stop") }

    /// Stops the server by its PID, keeping its data (`resume()` starts it again).
    public func pause() throws { try script("pause") }

    /// Starts a paused server again, on its port.
    public func resume() throws { try script("resume") }

    private func script(_ verb: String) throws {
      let (result, timedOut) = try ChildProcess.run(
        TestPostgres.script, [verb, directory], timeout: .seconds(120))
      guard result.status == 0, !timedOut else {
        throw Failure(description: "'\(verb)' of the test server failed: \(result.output)")
      }
    }
  }

  /// Why a server could not be had.
  public struct Failure: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
  }

  /// What a proof that needs a server asks `Proofs.run(needs:)` for.
  public static var tool: ProofTool {
    ProofTool(
      "postgresql", install: .debian("postgresql"),
      isAvailable: (try? ChildProcess.run(script, ["check"]).status) == 0
        && Proofs.executable("psql") != nil)
  }

  /// `scripts/postgres-test-server`.
  static let script = ReadmeSnippet.root.appendingPathComponent("scripts/postgres-test-server")
    .path

  private static let sharedServer = Mutex<Result<Server, Failure>?>(nil)

  /// The server this test process shares, started on first use.
  ///
  /// - Throws: `Failure` when it cannot start.
  public static func shared() throws -> Server {
    try sharedServer.withLock { state in
      if let state { return try state.get() }
      let started = Result { () throws(Failure) -> Server in try start() }
      state = started
      return try started.get()
    }
  }

  /// A server of its own for a test that stops it; the caller stops it too.
  public static func startPrivate() throws -> Server { try start() }

  private static func start() throws(Failure) -> Server {
    let result: ChildProcess.Result
    do {
      result = try ChildProcess.run(
        script, ["start", "--owner", String(getpid())], timeout: .seconds(180)
      ).result
    } catch {
      throw Failure(description: "scripts/postgres-test-server did not run: \(error)")
    }
    var fields: [String: String] = [:]
    for line in result.output.split(separator: "\n") {
      guard let equals = line.firstIndex(of: "=") else { continue }
      fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
    }
    guard result.status == 0, let directory = fields["DIR"], let url = fields["URL"],
      let pid = fields["PID"].flatMap({ Int32($0) })
    else {
      throw Failure(
        description: "scripts/postgres-test-server start failed (\(result.status)): "
          + result.output)
    }
    return Server(directory: directory, pid: pid, adminURL: url)
  }

  static func replacingDatabase(of url: String, with database: String) -> String {
    guard let slash = url.range(of: "/", options: .backwards) else { return url }
    return String(url[..<slash.upperBound]) + database
  }
}
