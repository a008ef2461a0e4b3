/// The digest a delivered request is recorded with: 64 bits over its items' UTF-8 bytes (the
/// body from `itemsOffset`: a resource whose session status moved from running to ended
/// leaves its spans the same), read
/// as little-endian 8-byte words (the same on every machine), each mixed in with a multiply
/// and shift. It tells whether a request cut again from a session is the one delivered
/// before; it is not a cryptographic hash (nobody gains by forging one: the file is the
/// user's own).
enum OTLPBodyDigest {
  /// The digest of `body`'s items.
  static func of(_ body: OTLPRequestBody) -> UInt64 {
    var text = body.json
    return text.withUTF8 { bytes in
      let start = min(max(body.itemsOffset, 0), bytes.count)
      return digest(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start...]))
    }
  }

  /// The digest of `bytes`.
  static func digest(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: bytes.count)
    var offset = 0
    while bytes.count - offset >= 8 {
      let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      hash = mix(hash ^ word)
      offset += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while offset < bytes.count {
      tail |= UInt64(bytes[offset]) << shift
      shift += 8
      offset += 1
    }
    return finish(mix(hash ^ tail))
  }

  private static func mix(_ value: UInt64) -> UInt64 {
    let product = value &* 0x9FB2_1C65_1E98_DF25
    return product ^ (product >> 29)
  }

  /// MurmurHash3's 64-bit finalizer: every input bit reaches every output bit.
  private static func finish(_ value: UInt64) -> UInt64 {
    var value = value
    value ^= value >> 33
    value = value &* 0xff51_afd7_ed55_8ccd
    value ^= value >> 33
    value = value &* 0xc4ce_b9fe_1a85_ec53
    value ^= value >> 33
    return value
  }
}
