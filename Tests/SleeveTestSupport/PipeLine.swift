import Foundation

/// Reading a child's first line of output with a bounded wait (a child that never prints must
/// fail the test, never hang it).
public enum PipeLine {
  /// The first line `handle` yields, waiting at most `limit`; `nil` on end of file or when
  /// the limit passed first. Blocks its thread: call it through `OffThePool`.
  public static func first(of handle: FileHandle, within limit: Duration) -> String? {
    let deadline = ContinuousClock.now + limit
    var bytes: [UInt8] = []
    var descriptor = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
    while !bytes.contains(UInt8(ascii: "\n")) {
      let left = deadline - ContinuousClock.now
      guard left > .zero else { return nil }
      let ready = poll(&descriptor, 1, Int32(left.components.seconds * 1000 + 1))
      guard ready > 0 else { continue }
      var chunk = [UInt8](repeating: 0, count: 64)
      let count = read(handle.fileDescriptor, &chunk, chunk.count)
      guard count > 0 else { return nil }
      bytes += chunk[..<count]
    }
    let line = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)[0]
    return String(decoding: line, as: UTF8.self)
  }
}
