import CZlib

/// gzip (RFC 1952) through the system zlib: what `Content-Encoding: gzip` bodies are.
public enum Gzip {
  /// Why zlib refused to compress (out of memory, or a zlib that rejects its own version).
  public struct Failure: Error, Sendable, Equatable {
    /// zlib's return code.
    public let code: Int32
  }

  /// `bytes` as one gzip member (deflate level 6, zlib's default). Empty input gives a valid
  /// empty member. Input of any size is fed in chunks below zlib's 32-bit counters, and the
  /// output grows by bounded steps, so nothing overflows or traps.
  ///
  /// - Throws: `Gzip.Failure` when zlib cannot start or fails.
  public static func compress(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
    var stream = z_stream()
    let windowBitsWithGzipWrapper: Int32 = 15 + 16
    let started = deflateInit2_(
      &stream, 6, Z_DEFLATED, windowBitsWithGzipWrapper, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
      Int32(MemoryLayout<z_stream>.size))
    guard started == Z_OK else { throw Failure(code: started) }
    defer { deflateEnd(&stream) }

    let chunk = 1 << 20
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count / 4 + 64)
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    var offset = 0
    var status = Z_OK
    try bytes.withUnsafeBufferPointer { (input) throws(Failure) in
      repeat {
        let take = min(chunk, input.count - offset)
        let last = offset + take == input.count
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress.map { $0 + offset })
        stream.avail_in = UInt32(take)
        offset += take
        repeat {
          let produced = buffer.withUnsafeMutableBufferPointer { out in
            stream.next_out = out.baseAddress
            stream.avail_out = UInt32(out.count)
            status = deflate(&stream, last ? Z_FINISH : Z_NO_FLUSH)
            return out.count - Int(stream.avail_out)
          }
          guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
            throw Failure(code: status)
          }
          output.append(contentsOf: buffer[..<produced])
        } while stream.avail_out == 0 || (last && status != Z_STREAM_END)
      } while offset < input.count
    }
    guard status == Z_STREAM_END else { throw Failure(code: status) }
    return output
  }
}
