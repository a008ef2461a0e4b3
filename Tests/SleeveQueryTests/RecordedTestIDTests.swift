import Testing

@testable import SleeveQuery

/// Older recorders stored Swift Testing's `Test.ID` with its source location last; answers
/// that compare tests read such an id without it, and only such a component is a location.
@Suite("Recorded test ids")
struct RecordedTestIDTests {
  @Test(
    "a last component file.swift:line:column is a source location, and is dropped",
    arguments: [
      ("Mod.PerTestTests/payOnce()/PerTestTests.swift:7:4", "Mod.PerTestTests/payOnce()"),
      ("Mod.PerTestTests/payOnce()/PerTestTests.swift:1207:13", "Mod.PerTestTests/payOnce()"),
      ("Mod.Outer/Inner/pays(amount:)/Pay Tests.swift:3:5", "Mod.Outer/Inner/pays(amount:)"),
      ("Mod.freeFunction()/Free.swift:2:2", "Mod.freeFunction()"),
    ])
  func locationIsDropped(recorded: String, compared: String) {
    #expect(RecordedTestID.withoutLocation(recorded) == compared)
  }

  @Test(
    "any other id is its own key, unchanged",
    arguments: [
      "Mod.PerTestTests/payOnce()",  // a new recorder's id
      "PerTestTests.testPayOnce",  // XCTest's name
      "Mod.T/f()/PerTestTests.swift:7",  // one number
      "Mod.T/f()/PerTestTests.swift:7:4:1",  // three
      "Mod.T/f()/PerTestTests.txt:7:4",  // not a Swift file
      "Mod.T/f()/.swift:7:4",  // no file name before .swift
      "Mod.T/f()/PerTestTests.swift::4",  // no line
      "Mod.T/f()/PerTestTests.swift:7:",  // no column
      "Mod.T/f()/PerTestTests.swift:7:x",  // not a number
      "Mod.T/f()/PerTestTests.swift:٧:4",  // a digit that is not ASCII
      "Mod.T/f()/PerTestTests.swift:7:4/more",  // a location that is not last
      "PerTestTests.swift:7:4",  // nothing before it
      "/PerTestTests.swift:7:4",  // nothing before its slash
      "Mod.T/f(x:)/(x: \"a/b.swift:1:2\")",  // a case's arguments that spell one
      "",
    ])
  func otherIDsAreKept(recorded: String) {
    #expect(RecordedTestID.withoutLocation(recorded) == recorded)
  }

  @Test("sessions compare by the id without its location; an id without one by itself")
  func sessionContextComparesWithoutLocation() {
    var context = SessionContext()
    context.testID = "Mod.PerTestTests/payOnce()/PerTestTests.swift:7:4"
    context.testName = "pay once"
    #expect(context.test == "Mod.PerTestTests/payOnce()")
    context.testID = nil
    #expect(context.test == "pay once")
  }
}
