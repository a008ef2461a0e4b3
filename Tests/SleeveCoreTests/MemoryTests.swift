import SleeveCore
import Testing

/// A view model in the style of the seed article: it owns a button and handles its taps.
@MainActor
final class CheckoutViewModel {
  let submit = Button(name: "submit")
  var submitted = 0

  func bindWithOwner() {
    submit.on(.touchUpInside, owner: self) { model, _ in model.submitted += 1 }
  }

  func bindWithWeakSelf() {
    submit.on(.touchUpInside) { [weak self] _ in self?.submitted += 1 }
  }
}

@MainActor
@Suite("Memory")
struct MemoryTests {
  @Test("a control, its handlers and an owner bound with on(_:owner:_:) are all deallocated")
  func controlHandlersAndOwnerAreDeallocated() {
    weak var weakModel: CheckoutViewModel?
    weak var weakButton: Button?
    var token: Registration?
    do {
      let model = CheckoutViewModel()
      model.bindWithOwner()
      model.submit.tap()
      #expect(model.submitted == 1)
      weakModel = model
      weakButton = model.submit
      token = model.submit.on(.touchDown) { _ in }
    }
    #expect(weakModel == nil)
    #expect(weakButton == nil)
    #expect(token?.isActive == false)
  }

  @Test("the seed's [weak self] pattern leaves no cycle either")
  func weakSelfPatternLeavesNoCycle() {
    weak var weakModel: CheckoutViewModel?
    do {
      let model = CheckoutViewModel()
      model.bindWithWeakSelf()
      model.submit.tap()
      #expect(model.submitted == 1)
      weakModel = model
    }
    #expect(weakModel == nil)
  }

  @Test("a closure handler's captures are released when the control goes")
  func closureCapturesAreReleasedWithTheControl() {
    weak var weakCapture: Counter?
    do {
      let capture = Counter()
      weakCapture = capture
      let button = Button(name: "b")
      button.on(.touchUpInside) { _ in capture.count += 1 }
      button.addTarget(capture, action: Counter.recordButton, for: .touchUpInside)
      button.tap()
      #expect(capture.count == 2)
    }
    #expect(weakCapture == nil)
  }

  @Test("replaced and cancelled handlers release their captures at once")
  func removedHandlersReleaseTheirCaptures() {
    let button = Button(name: "b")
    weak var weakFirst: Counter?
    weak var weakSecond: Counter?
    do {
      let first = Counter()
      let second = Counter()
      weakFirst = first
      weakSecond = second
      button.on(.touchUpInside, id: "h") { _ in first.count += 1 }
      button.on(.touchUpInside, id: "h") { _ in second.count += 1 }
    }
    #expect(weakFirst == nil)
    #expect(weakSecond != nil)
    button.removeAction(identifiedBy: "h", for: .allEvents)
    #expect(weakSecond == nil)
  }
}
