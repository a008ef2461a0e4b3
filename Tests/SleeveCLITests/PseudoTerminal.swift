import Foundation
import SleeveTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a program with its standard output (and, when asked, its standard error) on a
/// pseudo-terminal of a given width, as a person's terminal would be: `isatty(1)` holds and
/// `TIOCGWINSZ` reports the columns.
enum PseudoTerminal {
  /// How a run ended: exit status, what the terminal showed (CR LF read back as LF), and
  /// standard error (a pipe; empty when it went to the terminal).
  struct Result: Sendable {
    let status: Int32
    let screen: String
    let error: String
  }

  enum Failure: Error {
    case cannotOpen(String)
    case timedOut
  }

  /// Runs `executable` as the synchronous `run` does, on a thread of its own: the awaiting
  /// test gives its cooperative-pool thread back while the program runs and its terminal is
  /// read (in an async test, Swift picks this overload).
  static func run(
    _ executable: String, _ arguments: [String], columns: Int, directory: String? = nil,
    environment: [String: String] = ["PATH": "/usr/bin:/bin", "TERM": "xterm"],
    timeout: Duration = .seconds(30), errorOnTerminal: Bool = false
  ) async throws -> Result {
    try await OffThePool.run {
      try run(
        executable, arguments, columns: columns, directory: directory, environment: environment,
        timeout: timeout, errorOnTerminal: errorOnTerminal)
    }
  }

  /// Runs `executable` with `arguments` in `directory`, standard output on a terminal `columns`
  /// wide (standard error too, when `errorOnTerminal`); killed after `timeout`. Blocks its
  /// thread: async tests get the overload above.
  static func run(
    _ executable: String, _ arguments: [String], columns: Int, directory: String? = nil,
    environment: [String: String] = ["PATH": "/usr/bin:/bin", "TERM": "xterm"],
    timeout: Duration = .seconds(30), errorOnTerminal: Bool = false
  ) throws -> Result {
    // glibc declares posix_openpt, grantpt, unlockpt and ptsname_r only under _XOPEN_SOURCE,
    // which Swift's Glibc module does not define: look them up in the C library instead.
    typealias OpenFunction = @convention(c) (Int32) -> Int32
    typealias NameFunction = @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32
    func function<Function>(_ name: String, as: Function.Type) throws -> Function {
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
        throw Failure.cannotOpen("no \(name) in the C library")
      }
      return unsafeBitCast(symbol, to: Function.self)
    }
    let master = try function("posix_openpt", as: OpenFunction.self)(O_RDWR | O_NOCTTY)
    guard master >= 0 else { throw Failure.cannotOpen(String(cString: strerror(errno))) }
    defer { close(master) }
    _ = fcntl(master, F_SETFD, FD_CLOEXEC)  // never inherited by another test's child
    var name = [CChar](repeating: 0, count: 128)
    guard try function("grantpt", as: OpenFunction.self)(master) == 0,
      try function("unlockpt", as: OpenFunction.self)(master) == 0,
      try function("ptsname_r", as: NameFunction.self)(master, &name, name.count) == 0
    else { throw Failure.cannotOpen(String(cString: strerror(errno))) }
    let path = String(
      decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let slave = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard slave >= 0 else { throw Failure.cannotOpen(String(cString: strerror(errno))) }
    var size = winsize(ws_row: 50, ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
    guard ioctl(slave, UInt(TIOCSWINSZ), &size) == 0 else {
      close(slave)
      throw Failure.cannotOpen("TIOCSWINSZ: " + String(cString: strerror(errno)))
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    process.standardOutput = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
    let errors = Pipe()
    process.standardError =
      errorOnTerminal ? FileHandle(fileDescriptor: slave, closeOnDealloc: false) : errors
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      close(slave)
      throw error
    }
    close(slave)  // the child holds its own copy: reads end (EIO) once it exits
    var screen: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    let deadline = ContinuousClock.now + timeout
    // Read until the child has exited and the terminal is drained (read fails with EIO, or
    // returns 0, once no process holds the other end).
    while true {
      var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, 20)
      var count = 0
      if ready > 0 {
        count = read(master, &buffer, buffer.count)
        if count > 0 { screen += buffer[0..<count] }
      }
      if count <= 0 && !process.isRunning {
        // The child has exited: take what it wrote after the last poll.
        while poll(&poller, 1, 0) > 0, case let more = read(master, &buffer, buffer.count),
          more > 0
        {
          screen += buffer[0..<more]
        }
        break
      }
      if count <= 0 && ready > 0 { usleep(10_000) }  // a hang-up before the child exits
      if ContinuousClock.now > deadline {
        kill(process.processIdentifier, SIGKILL)
        process.waitForExit()
        throw Failure.timedOut
      }
    }
    process.waitForExit()
    // Unused when standard error was the terminal: its write end is still this process's.
    if errorOnTerminal { try? errors.fileHandleForWriting.close() }
    let error = errors.fileHandleForReading.readDataToEndOfFile()
    return Result(
      status: process.terminationStatus,
      screen: String(decoding: screen, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n"),
      error: String(decoding: error, as: UTF8.self))
  }
}
