/// A growable buffer of plain-value records: appending copies bytes, clearing resets a count,
/// and growing never moves a record.
///
/// Swift's `Array` pays for generality on every append and `removeAll` (uniqueness checks,
/// generic range replacement); fires and outcomes are plain integers, so a raw buffer moves
/// them for a fraction of that.
///
/// The storage is a list of chunks, each twice the size of the one before (the first holds
/// `capacity` records, rounded up to a power of two), so record `i` lives at a place computed
/// from `i` alone. Growing adds a chunk: it never copies what is stored, so an append costs
/// the same whether the buffer holds ten records or ten million (a doubling array would copy
/// them all, on the firing thread). A stage's buffer is handed to the writer whole
/// (``Lane/append(taking:session:)``), never copied.
/// Never shrinks: cleared chunks are reused.
///
/// `@unchecked Sendable` is sound because a buffer is only ever reachable from one thread at
/// a time: it lives either in the event buffer's `Locked`-guarded state (touched only under
/// the lock) or in the batch the writer thread took out of it by swapping, or in a session's
/// main-actor stage. For the same reason (one thread, and no access outlives a statement) the
/// dynamic exclusivity checks are off.
final class RecordBuffer<Record: BitwiseCopyable>: @unchecked Sendable {
  /// At most this many chunks: with a first chunk of one record, the last would hold 2^47.
  private static var maximumChunks: Int { 48 }
  /// The chunks allocated so far (`chunkCount` of them); chunk `k` holds
  /// `1 << (firstChunkShift + k)` records. A plain table: no reference counting, no checks.
  @exclusivity(unchecked) private var chunks: UnsafeMutablePointer<UnsafeMutablePointer<Record>>
  @exclusivity(unchecked) private var chunkCount = 1
  /// log2 of the first chunk's size.
  private let firstChunkShift: Int
  /// Where the next record goes, and how many more fit in its chunk.
  @exclusivity(unchecked) private var cursor: UnsafeMutablePointer<Record>
  @exclusivity(unchecked) private var remainingInChunk: Int
  /// The chunk `cursor` points into.
  @exclusivity(unchecked) private var chunkIndex = 0
  @exclusivity(unchecked) private(set) var count = 0

  /// How many records the allocated chunks hold in all: `first * (2^chunkCount - 1)`.
  var capacity: Int { ((1 << chunkCount) - 1) << firstChunkShift }

  init(capacity: Int = 16) {
    var shift = 0
    while 1 << shift < capacity, shift < 20 { shift += 1 }
    firstChunkShift = shift
    (chunks, cursor) = Self.newStorage(firstChunkShift: shift)
    remainingInChunk = 1 << shift
  }

  /// A chunk table holding one empty first chunk of `1 << firstChunkShift` records.
  private static func newStorage(firstChunkShift: Int) -> (
    chunks: UnsafeMutablePointer<UnsafeMutablePointer<Record>>, first: UnsafeMutablePointer<Record>
  ) {
    let first = UnsafeMutablePointer<Record>.allocate(capacity: 1 << firstChunkShift)
    let chunks = UnsafeMutablePointer<UnsafeMutablePointer<Record>>.allocate(
      capacity: maximumChunks)
    chunks.initialize(to: first)
    return (chunks, first)
  }

  /// A buffer that owns `chunks` and the records in them.
  private init(
    chunks: UnsafeMutablePointer<UnsafeMutablePointer<Record>>, chunkCount: Int,
    firstChunkShift: Int, cursor: UnsafeMutablePointer<Record>, remainingInChunk: Int,
    chunkIndex: Int, count: Int
  ) {
    self.chunks = chunks
    self.chunkCount = chunkCount
    self.firstChunkShift = firstChunkShift
    self.cursor = cursor
    self.remainingInChunk = remainingInChunk
    self.chunkIndex = chunkIndex
    self.count = count
  }

  /// Moves every record into a new buffer without copying one (the chunks change hands),
  /// and leaves this one empty, with a new first chunk of the same size.
  func takeAll() -> RecordBuffer<Record> {
    let taken = RecordBuffer(
      chunks: chunks, chunkCount: chunkCount, firstChunkShift: firstChunkShift, cursor: cursor,
      remainingInChunk: remainingInChunk, chunkIndex: chunkIndex, count: count)
    (chunks, cursor) = Self.newStorage(firstChunkShift: firstChunkShift)
    chunkCount = 1
    chunkIndex = 0
    remainingInChunk = 1 << firstChunkShift
    count = 0
    return taken
  }

  deinit {
    for index in 0..<chunkCount { chunks[index].deallocate() }
    chunks.deallocate()
  }

  var isEmpty: Bool { count == 0 }

  subscript(index: Int) -> Record {
    precondition(index >= 0 && index < count, "record index out of range")
    let (chunk, offset) = place(of: index)
    return chunks[chunk][offset]
  }

  @inline(__always)
  func append(_ record: Record) {
    if remainingInChunk == 0 { advanceChunk() }
    cursor.initialize(to: record)
    cursor += 1
    remainingInChunk &-= 1
    count &+= 1
  }

  /// Appends `count` records, `make(i)` for each `i` in `0..<count`, in order: when they fit
  /// in the current chunk, the cursor and counts move once for all of them.
  @inline(__always)
  func append(count added: Int, _ make: (Int) -> Record) {
    guard added <= remainingInChunk else {
      for index in 0..<added { append(make(index)) }
      return
    }
    for index in 0..<added { (cursor + index).initialize(to: make(index)) }
    cursor += added
    remainingInChunk &-= added
    count &+= added
  }

  /// Forgets every record (plain values need no destruction); keeps every chunk.
  func removeAll() {
    count = 0
    chunkIndex = 0
    cursor = chunks[0]
    remainingInChunk = 1 << firstChunkShift
  }

  /// Every record, in order.
  func forEachRecord(_ body: (Record) throws -> Void) rethrows {
    try forEach(from: 0, to: count, body)
  }

  /// Calls `body` with each record in turn to update it in place.
  func updateEach(_ body: (inout Record) -> Void) {
    forEachSegment(from: 0, to: count) { segment in
      let start = UnsafeMutablePointer(mutating: segment.baseAddress!)
      for index in 0..<segment.count { body(&start[index]) }
    }
  }

  /// The records from `start` (inclusive) to `end` (exclusive), in order.
  func forEach(from start: Int, to end: Int, _ body: (Record) throws -> Void) rethrows {
    try forEachSegment(from: start, to: end) { segment in
      for record in segment { try body(record) }
    }
  }

  /// The records from `start` to `end` as the contiguous pieces they are stored in, in order.
  private func forEachSegment(
    from start: Int, to end: Int, _ body: (UnsafeBufferPointer<Record>) throws -> Void
  ) rethrows {
    precondition(start >= 0 && start <= end && end <= count, "record range out of bounds")
    guard start < end else { return }
    var (chunk, offset) = place(of: start)
    var left = end - start
    while left > 0 {
      let size = (1 << firstChunkShift) << chunk
      let step = min(left, size - offset)
      try body(UnsafeBufferPointer(start: chunks[chunk] + offset, count: step))
      left -= step
      chunk += 1
      offset = 0
    }
  }

  /// The chunk holding record `index` and its offset there: chunk `k` starts at record
  /// `first * (2^k - 1)`, so `k` is the position of the highest bit of `index / first + 1`.
  private func place(of index: Int) -> (chunk: Int, offset: Int) {
    let scaled = (index >> firstChunkShift) + 1
    let chunk = Int.bitWidth - 1 - scaled.leadingZeroBitCount
    let start = ((1 << chunk) - 1) << firstChunkShift
    return (chunk, index - start)
  }

  /// Moves the cursor to the next chunk, allocating it the first time it is needed.
  @inline(never)
  private func advanceChunk() {
    chunkIndex += 1
    let size = (1 << firstChunkShift) << chunkIndex
    if chunkIndex == chunkCount {
      precondition(chunkCount < Self.maximumChunks, "record buffer exhausted")
      (chunks + chunkCount).initialize(to: .allocate(capacity: size))
      chunkCount += 1
    }
    cursor = chunks[chunkIndex]
    remainingInChunk = size
  }
}
