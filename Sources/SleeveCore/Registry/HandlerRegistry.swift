/// A control's ordered entries, laid out for the dispatch hot path.
///
/// A fire reads the slots in place instead of copying the array. To keep snapshot semantics
/// (a fire visits the entries that existed when it began), every mutation bumps ``version``
/// and, while a fire is in progress, first pins the current array so that the fire can go on
/// over it. Pinned arrays are released when the outermost fire ends.
struct HandlerRegistry {
  /// One entry with what the hot path needs, stored inline.
  struct Slot {
    let entry: HandlerEntry
    let events: ControlEvents
    let plainHandler: (@MainActor (Control) throws -> Void)?

    init(_ entry: HandlerEntry) {
      self.entry = entry
      self.events = entry.events
      self.plainHandler = entry.plainHandler
    }
  }

  private(set) var slots: [Slot] = []
  /// Bumped by every mutation.
  private(set) var version: UInt64 = 0
  /// How many fires over these slots are in progress.
  private(set) var firingLevels = 0
  /// Arrays as they were before mutations made during fires.
  private(set) var pinned: [[Slot]] = []

  var count: Int { slots.count }
  var entries: [HandlerEntry] { slots.map(\.entry) }
  subscript(index: Int) -> HandlerEntry { slots[index].entry }

  func firstIndex(where predicate: (HandlerEntry) -> Bool) -> Int? {
    slots.firstIndex { predicate($0.entry) }
  }

  func contains(_ id: RegistrationID) -> Bool { slots.contains { $0.entry.id == id } }

  mutating func append(_ entry: HandlerEntry) {
    willMutate()
    slots.append(Slot(entry))
  }

  mutating func replace(at index: Int, with entry: HandlerEntry) {
    willMutate()
    slots[index] = Slot(entry)
  }

  mutating func remove(at index: Int) -> HandlerEntry {
    willMutate()
    return slots.remove(at: index).entry
  }

  /// Starts a fire; returns the marks ``slotsAtFireStart(pinMark:)`` needs.
  mutating func beginFire() -> (version: UInt64, pinMark: Int) {
    firingLevels += 1
    return (version, pinned.count)
  }

  mutating func endFire() {
    firingLevels -= 1
    if firingLevels == 0, !pinned.isEmpty { pinned.removeAll() }
  }

  /// The slots as they were when a fire began, for a fire that saw ``version`` change.
  func slotsAtFireStart(pinMark: Int) -> [Slot] { pinned[pinMark] }

  private mutating func willMutate() {
    version &+= 1
    if firingLevels > 0 { pinned.append(slots) }
  }
}
