/// A growable buffer of plain-value records: appending copies bytes, clearing resets a count.
///
/// Swift's `Array` pays for generality on every append and `removeAll` (uniqueness checks,
/// generic range replacement); fires and outcomes are plain integers, so a raw buffer moves
/// them for a fraction of that. Never shrinks.
///
/// `@unchecked Sendable` is sound because a buffer is only ever reachable from one thread at
/// a time: it lives either in the event buffer's `Locked`-guarded state (touched only under
/// the lock) or in the batch the writer thread took out of it by swapping, or in a session's
/// main-actor stage.
final class RecordBuffer<Record: BitwiseCopyable>: @unchecked Sendable {
  private var storage: UnsafeMutablePointer<Record>
  private(set) var capacity: Int
  private(set) var count = 0

  init(capacity: Int = 16) {
    self.capacity = max(capacity, 1)
    storage = .allocate(capacity: self.capacity)
  }

  deinit { storage.deallocate() }

  var isEmpty: Bool { count == 0 }

  subscript(index: Int) -> Record {
    precondition(index >= 0 && index < count, "record index out of range")
    return storage[index]
  }

  @inline(__always)
  func append(_ record: Record) {
    if count == capacity { grow(toAtLeast: count + 1) }
    (storage + count).initialize(to: record)
    count += 1
  }

  func append(contentsOf other: RecordBuffer<Record>) {
    guard !other.isEmpty else { return }
    if count + other.count > capacity { grow(toAtLeast: count + other.count) }
    if other.count <= 8 {
      for index in 0..<other.count {
        (storage + count + index).initialize(to: other.storage[index])
      }
    } else {
      (storage + count).initialize(from: other.storage, count: other.count)
    }
    count += other.count
  }

  /// Forgets every record (plain values need no destruction); keeps the storage.
  func removeAll() { count = 0 }

  /// The records from `start` (inclusive) to `end` (exclusive), in order.
  func forEach(from start: Int, to end: Int, _ body: (Record) throws -> Void) rethrows {
    precondition(start >= 0 && start <= end && end <= count, "record range out of bounds")
    for index in start..<end { try body(storage[index]) }
  }

  @inline(never)
  private func grow(toAtLeast needed: Int) {
    var newCapacity = capacity
    while newCapacity < needed { newCapacity *= 2 }
    let larger = UnsafeMutablePointer<Record>.allocate(capacity: newCapacity)
    larger.initialize(from: storage, count: count)
    storage.deallocate()
    storage = larger
    capacity = newCapacity
  }
}
