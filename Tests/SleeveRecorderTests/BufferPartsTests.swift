import SleeveTestSupport
import Testing

@testable import SleeveRecorder

@Suite("Recorder parts")
struct BufferPartsTests {
  @Test("a record buffer appends, grows, updates in place and clears without losing values")
  func recordBufferKeepsValues() {
    let buffer = RecordBuffer<Int64>(capacity: 2)
    for value in 0..<150 { buffer.append(Int64(value)) }
    buffer.updateEach { $0 += 1000 }
    var seen: [Int64] = []
    buffer.forEachRecord { seen.append($0) }
    #expect(seen == (1000..<1150).map(Int64.init))
    #expect(buffer.capacity >= 150)
    buffer.removeAll()
    #expect(buffer.isEmpty)
    buffer.append(7)
    #expect(buffer[0] == 7)
  }

  @Test(
    "a chunked record buffer reads back every value at every index and range, across chunk boundaries and reuse",
    arguments: [1, 2, 3, 16, 100])
  func chunkedRecordBufferReadsBackEverything(firstCapacity: Int) {
    let seed = UInt64(firstCapacity) &* 0x9E37 &+ 19
    var generator = SeededGenerator(seed: seed)
    let buffer = RecordBuffer<Int64>(capacity: firstCapacity)
    var model: [Int64] = []
    var next: Int64 = 0
    for round in 0..<400 {
      switch generator.next() % 10 {
      case 0 where round % 7 == 0:
        buffer.removeAll()
        model.removeAll()
      case 0...5:
        buffer.append(next)
        model.append(next)
        next += 1
      default:
        // Runs of every length in one call: within a chunk, across one, across several.
        let run = Int(generator.next() % 40)
        let first = next
        buffer.append(count: run) { first + Int64($0) }
        model.append(contentsOf: (0..<run).map { first + Int64($0) })
        next += Int64(run)
      }
      #expect(buffer.count == model.count, "seed \(seed), round \(round)")
      guard !model.isEmpty else { continue }
      let start = Int(generator.next() % UInt64(model.count))
      let end = start + Int(generator.next() % UInt64(model.count - start + 1))
      var seen: [Int64] = []
      buffer.forEach(from: start, to: end) { seen.append($0) }
      #expect(seen == Array(model[start..<end]), "seed \(seed), round \(round), \(start)..<\(end)")
      let index = Int(generator.next() % UInt64(model.count))
      #expect(buffer[index] == model[index], "seed \(seed), round \(round), index \(index)")
    }
    var all: [Int64] = []
    buffer.forEach(from: 0, to: buffer.count) { all.append($0) }
    #expect(all == model, "seed \(seed)")
  }

  @Test("a record buffer grows by adding chunks of doubling size and keeps them when cleared")
  func recordBufferGrowsByChunks() {
    let buffer = RecordBuffer<Int64>(capacity: 4)
    #expect(buffer.capacity == 4)
    for value in 0..<5 { buffer.append(Int64(value)) }
    #expect(buffer.capacity == 4 + 8)
    for value in 5..<13 { buffer.append(Int64(value)) }
    #expect(buffer.capacity == 4 + 8 + 16)
    buffer.removeAll()
    for value in 0..<28 { buffer.append(Int64(value)) }
    #expect(buffer.capacity == 4 + 8 + 16)
    #expect(buffer[27] == 27 && buffer[4] == 4 && buffer[3] == 3)
  }

  @Test("a lane keeps runs of records with their session, in arrival order, taking buffers whole")
  func laneTagsRuns() {
    var lane = Lane<Int64>()
    let a = SessionKey(rawValue: 1)
    let b = SessionKey(rawValue: 2)
    lane.append(1, session: a)
    lane.append(2, session: a)
    lane.append(3, session: b)
    let more = RecordBuffer<Int64>()
    more.append(4)
    more.append(5)
    lane.append(taking: more, session: b)
    lane.append(taking: RecordBuffer<Int64>(), session: a)
    lane.append(6, session: b)
    lane.append(7, session: a)
    func runs() -> [String] {
      var runs: [String] = []
      lane.forEachRun { session, records in
        var values: [Int64] = []
        records.forEachRecord { values.append($0) }
        runs.append("\(session.rawValue):\(values.map(String.init).joined(separator: ","))")
      }
      return runs
    }
    // A taken buffer is its own run: a single record after it starts a new one.
    #expect(runs() == ["1:1,2", "2:3", "2:4,5", "2:6", "1:7"])
    #expect(lane.count == 7)
    lane.removeAll()
    #expect(runs().isEmpty && lane.count == 0)
    #expect(more.count == 2, "a taken buffer is not cleared: the lane lets it go")
    lane.append(8, session: a)
    #expect(runs() == ["1:8"], "a reused buffer holds only what was appended since")
  }

  @Test("fire ranges merge runs and answer membership")
  func fireRangesMergeRuns() {
    var ranges = FireRanges()
    ranges.insert(10, extendingLast: true)
    ranges.insert(11, extendingLast: false)
    ranges.insert(15, extendingLast: true)
    ranges.insert(20, extendingLast: false)
    ranges.insert(3, extendingLast: false)
    #expect(ranges.ranges == [3...3, 10...15, 20...20])
    #expect(ranges.contains(12))
    #expect(ranges.contains(3))
    #expect(!ranges.contains(4))
    #expect(!ranges.contains(21))
  }

  @Test(
    "JSON strings escape quotes, backslashes and control characters",
    arguments: [
      ("plain", "\"plain\""), ("a\"b", "\"a\\\"b\""), ("back\\slash", "\"back\\\\slash\""),
      ("line\nbreak\t", "\"line\\nbreak\\t\""), ("\u{1}", "\"\\u0001\""), ("é", "\"é\""),
    ])
  func jsonStringsEscape(input: String, expected: String) {
    #expect(JSON.string(input) == expected)
  }

  @Test("JSON objects sort their keys")
  func jsonObjectsSortKeys() {
    #expect(JSON.object(["b": "2", "a": "1"]) == "{\"a\":\"1\",\"b\":\"2\"}")
    #expect(JSON.array(["x", "y"]) == "[\"x\",\"y\"]")
  }

  @Test("error messages are truncated to 4,096 UTF-8 bytes, marker included")
  func errorMessagesAreTruncated() {
    struct Verbose: Error, CustomStringConvertible {
      var description: String { String(repeating: "x", count: 10_000) }
    }
    let text = ErrorText(Verbose())
    #expect(text.message.utf8.count == 4_096)
    #expect(text.message.hasSuffix("… [truncated]"))
  }

  @Test("a letter with five million combining marks is stored as at most 4,096 bytes")
  func combiningMarksCannotBloatAnErrorMessage() {
    struct Fused: Error, CustomStringConvertible {
      var description: String {
        "a" + String(repeating: "\u{301}", count: 5_000_000)
      }
    }
    // One Character of 10 MB: a cap that counts Characters keeps it whole.
    #expect(Fused().description.count == 1)
    let text = ErrorText(Fused())
    #expect(text.message.utf8.count <= 4_096)
    #expect(text.message.unicodeScalars.first == "a")
    let marked = text.message.hasSuffix("… [truncated]")  // not the text: it may be huge
    #expect(marked)
  }
}
