/// Trace and span ids for exported spans, derived from what identifies a fire or outcome
/// across files (the session UUID and its number in the session), so exporting a session
/// twice, or from a merged file, gives the same ids.
///
/// - Trace: one per outermost fire. The first 8 bytes are a 64-bit FNV-1a hash of the session
///   UUID, the last 8 the outermost fire's number.
/// - Span: a fire's span id is its number; an outcome's is its number with the top bit set.
///   Ids are unique within a trace and never zero (numbers start at 1).
enum OTLPIdentifiers {
  /// 32 lowercase hex digits.
  static func traceID(sessionUUID: String, rootFire: Int64) -> String {
    hex(sessionHash(sessionUUID)) + hex(UInt64(bitPattern: rootFire))
  }

  /// 16 lowercase hex digits.
  static func fireSpanID(_ number: Int64) -> String { hex(UInt64(bitPattern: number)) }

  /// 16 lowercase hex digits.
  static func outcomeSpanID(_ number: Int64) -> String {
    hex(UInt64(bitPattern: number) | 1 << 63)
  }

  /// FNV-1a, 64 bits.
  static func sessionHash(_ uuid: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in uuid.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    return hash
  }

  /// `value` as 16 lowercase hex digits.
  static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
