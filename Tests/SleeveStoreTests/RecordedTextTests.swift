import SleeveStore
import Testing

@Suite("Recorded text caps")
struct RecordedTextTests {
  @Test("a text that fits its limit is kept exactly, up to the last byte")
  func fittingTextIsUnchanged() {
    let limit = RecordedText.Limit(bytes: 64)
    for length in [0, 1, 63, 64] {
      let text = String(repeating: "x", count: length)
      #expect(RecordedText.capped(text, to: limit) == text)
    }
  }

  @Test("one byte over the limit is cut to at most the limit, marker included")
  func oneByteOverIsCut() {
    let limit = RecordedText.Limit(bytes: 64)
    let text = String(repeating: "x", count: 65)
    let capped = RecordedText.capped(text, to: limit)
    #expect(capped.utf8.count == 64)
    #expect(capped.hasSuffix(RecordedText.marker))
    #expect(text.hasPrefix(capped.dropLast(RecordedText.marker.count)))
  }

  @Test(
    "a cut never splits a scalar's bytes and keeps the longest prefix that fits",
    arguments: ["a", "é", "€", "😀", "\u{301}"])
  func cutsAtScalarBoundaries(scalar: String) {
    let limit = RecordedText.Limit(bytes: 100)
    let text = String(repeating: scalar, count: 200)
    let capped = RecordedText.capped(text, to: limit)
    let kept = capped.utf8.dropLast(RecordedText.marker.utf8.count)
    let width = scalar.utf8.count
    // Valid UTF-8 that decodes to whole scalars of the original, as many as fit.
    #expect(String(validating: Array(kept), as: UTF8.self) != nil)
    #expect(Array(kept) == Array(text.utf8.prefix(kept.count)))
    #expect(kept.count % width == 0)
    #expect(kept.count + width > limit.bytes - RecordedText.marker.utf8.count)
    #expect(capped.utf8.count <= limit.bytes)
  }

  @Test("one letter with five million combining marks is capped by bytes, not Characters")
  func combiningMarksAreCountedInBytes() {
    let text = "a" + String(repeating: "\u{301}", count: 5_000_000)
    let capped = RecordedText.capped(text, to: .message)
    #expect(capped.utf8.count <= 4_096)
    #expect(capped.utf8.count > 4_096 - 2 - RecordedText.marker.utf8.count)
    #expect(capped.unicodeScalars.first == "a")
  }

  @Test("the documented limits: names 1,024 bytes, messages 4,096 bytes, 64 tags")
  func documentedLimits() {
    #expect(RecordedText.Limit.name.bytes == 1_024)
    #expect(RecordedText.Limit.message.bytes == 4_096)
    #expect(RecordedText.maximumTags == 64)
    #expect(RecordedText.maximumEnvironmentVariables == 64)
    #expect(RecordedText.marker.utf8.count == 15)
  }

  @Test("a limit smaller than the marker is raised to it, so a cut text is the marker alone")
  func tinyLimitIsRaised() {
    let limit = RecordedText.Limit(bytes: 3)
    #expect(limit.bytes == RecordedText.marker.utf8.count)
    #expect(
      RecordedText.capped(String(repeating: "y", count: 100), to: limit) == RecordedText.marker)
  }
}
