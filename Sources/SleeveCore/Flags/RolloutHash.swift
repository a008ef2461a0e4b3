/// The assignment of a unit to a percentage rollout's variant: deterministic, documented so
/// any tool can reproduce it, and computed without allocation.
///
/// 1. `h` = 64-bit FNV-1a over the bytes: the flag key (UTF-8), a 0 byte, the salt (UTF-8),
///    a 0 byte, the unit's bytes. (FNV-1a: start at `0xcbf29ce484222325`; for each byte,
///    `h = (h XOR byte) * 0x100000001b3` modulo 2^64.)
/// 2. `h` goes through MurmurHash3's 64-bit finalizer (`h ^= h >> 33; h *= 0xff51afd7ed558ccd;
///    h ^= h >> 33; h *= 0xc4ceb9fe1a85ec53; h ^= h >> 33`), so every input bit reaches the
///    top bits FNV leaves weak.
/// 3. The bucket is the top 64 bits of the 128-bit product `h * 10000`: 0...9,999, uniform.
/// 4. The unit is `on` when its bucket is below the rollout's basis points.
///
/// A unit's bytes: for a ``RolloutUnit/key(_:)`` unit, its value's UTF-8; for a session, the
/// session's unit text's UTF-8 (a recording session's UUID, lowercase); for a fire, and for
/// a session unit with no session, the 8 bytes of a 64-bit number, least significant first.
///
/// The same unit always lands in the same bucket, so it gets the same variant at the same
/// percentage, and raising the percentage only moves units from off to on.
public enum RolloutHash {
  /// A unit's bytes as the hash reads them.
  public enum Unit: Sendable {
    /// A text unit: its UTF-8 bytes.
    case text(String)
    /// A numeric unit: its 8 bytes, least significant first.
    case number(UInt64)
  }

  /// The assignment hash of `unit` for flag `key` with `salt` (steps 1 and 2).
  @inlinable
  public static func hash(key: String, salt: String, unit: Unit) -> UInt64 {
    var state = prefix(key: key, salt: salt)
    switch unit {
    case .text(let text): state = absorb(text, into: state)
    case .number(let number): state = absorb(number, into: state)
    }
    return finalize(state)
  }

  /// The FNV-1a state after the key, a 0 byte, the salt and a 0 byte.
  @inlinable
  package static func prefix(key: String, salt: String) -> UInt64 {
    var state = absorb(key, into: 0xcbf2_9ce4_8422_2325)
    state = (state ^ 0) &* 0x100_0000_01b3
    state = absorb(salt, into: state)
    return (state ^ 0) &* 0x100_0000_01b3
  }

  /// `state` after `text`'s UTF-8 bytes. A native or small string is read in place, as one
  /// buffer (no allocation, no per-byte index checks); any other string byte by byte, with the
  /// same result.
  @inlinable
  package static func absorb(_ text: String, into state: UInt64) -> UInt64 {
    if let absorbed = text.utf8.withContiguousStorageIfAvailable({ absorb($0, into: state) }) {
      return absorbed
    }
    var state = state
    for byte in text.utf8 { state = (state ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return state
  }

  /// `state` after `bytes`.
  @inlinable
  static func absorb(_ bytes: UnsafeBufferPointer<UInt8>, into state: UInt64) -> UInt64 {
    var state = state
    for byte in bytes { state = (state ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return state
  }

  /// `state` after `number`'s 8 bytes, least significant first.
  @inlinable
  package static func absorb(_ number: UInt64, into state: UInt64) -> UInt64 {
    var state = state
    var rest = number
    for _ in 0..<8 {
      state = (state ^ (rest & 0xFF)) &* 0x100_0000_01b3
      rest >>= 8
    }
    return state
  }

  /// MurmurHash3's 64-bit finalizer.
  @inlinable
  package static func finalize(_ state: UInt64) -> UInt64 {
    var h = state
    h ^= h >> 33
    h &*= 0xff51_afd7_ed55_8ccd
    h ^= h >> 33
    h &*= 0xc4ce_b9fe_1a85_ec53
    h ^= h >> 33
    return h
  }

  /// The bucket of an assignment hash: 0...9,999 (step 3).
  @inlinable
  public static func bucket(of hash: UInt64) -> Int {
    Int(hash.multipliedFullWidth(by: 10_000).high)
  }

  /// Whether an assignment hash is served `on` at `percent` (step 4).
  @inlinable
  public static func isOn(_ hash: UInt64, at percent: RolloutPercentage) -> Bool {
    bucket(of: hash) < percent.basisPoints
  }

  /// This process's random number, drawn once: the fire units' base, and the session unit
  /// when no session supplies one.
  package static let processNonce = UInt64.random(in: .min ... .max)
}

extension RolloutHash {
  /// What assigning a unit to one flag's rollout needs, hashed ahead of the fires: the unit,
  /// the state after the key and salt (``prefix(key:salt:)``) and, for a
  /// ``RolloutUnit/key(_:)`` unit whose value is known, the state after that value too.
  public struct Inputs: Sendable {
    /// The plan's unit (``RolloutPlan/effectiveUnit``).
    public let unit: RolloutUnit
    /// The state after the flag's key and the plan's salt.
    package let prefix: UInt64
    /// For a key unit, the state after the key's value; `nil` while the value is unknown or
    /// for any other unit.
    package private(set) var keyed: UInt64?

    /// The inputs of flag `key` rolled out by `plan`, its unit key's value (if any) still
    /// unknown.
    public init(key: String, plan: RolloutPlan) {
      unit = plan.effectiveUnit
      prefix = RolloutHash.prefix(key: key, salt: plan.salt)
    }

    /// The name of the unit key, for a key unit.
    public var unitKeyName: String? {
      if case .key(let name) = unit { name } else { nil }
    }

    /// Sets (or clears) the value of the unit key: ignored unless the unit is a key.
    public mutating func setUnitKey(_ value: String?) {
      keyed = unitKeyName == nil ? nil : value.map { RolloutHash.absorb($0, into: prefix) }
    }
  }
}
