/// A control's ordered entries, laid out for the dispatch hot path.
///
/// A fire reads the slots in place instead of copying the array. To keep snapshot semantics
/// (a fire visits the entries that existed when it began), every mutation bumps ``version``,
/// and the first mutation after a fire began pins the array as it was, so that the fire can go
/// on over it. At most one array is pinned per fire begun, however many mutations follow, and
/// pinned arrays are released when the outermost fire ends.
struct HandlerRegistry {
  /// One entry with what the hot path needs, stored inline.
  struct Slot {
    let entry: HandlerEntry
    let events: ControlEvents

    init(_ entry: HandlerEntry) {
      self.entry = entry
      self.events = entry.events
    }
  }

  private(set) var slots: [Slot] = []
  /// Bumped by every mutation.
  private(set) var version: UInt64 = 0
  /// How many fires over these slots are in progress.
  private(set) var firingLevels = 0
  /// Arrays as they were when fires began, each with the ``version`` it had, pinned by the
  /// first mutation after each. Versions only grow, so each is pinned at most once.
  private(set) var pinned: [(version: UInt64, slots: [Slot])] = []
  /// Whether a fire began since the last pin: the next mutation during a fire must pin first.
  /// Meaningful only while ``firingLevels`` is above zero (it is not cleared when fires end).
  private var fireBeganSinceLastPin = false

  var count: Int { slots.count }
  var entries: [HandlerEntry] { slots.map(\.entry) }
  subscript(index: Int) -> HandlerEntry { slots[index].entry }

  func firstIndex(where predicate: (HandlerEntry) -> Bool) -> Int? {
    slots.firstIndex { predicate($0.entry) }
  }

  /// The entry of slot `index` without a retain, for a fire to call through
  /// `Unmanaged.withGuaranteedReference`: an entry read this way stays alive until the
  /// outermost fire ends, whatever its handlers do. While ``version`` is the one a fire began with, `slots`
  /// is the array it began over, which holds the entry; the first mutation after the fire
  /// began moves that array into ``pinned`` before it changes anything, and ``pinned`` is
  /// released only by the outermost ``endFire()``. Every mutation goes through
  /// ``willMutate()`` (`slots` is `private(set)`, and nothing assigns a control's registry as
  /// a whole), so no path frees the array sooner. The
  /// caller must read it while ``version`` is still the fire's and inside the fire bracket.
  @inline(__always)
  func unretainedEntry(at index: Int) -> Unmanaged<HandlerEntry> {
    Unmanaged.passUnretained(slots[index].entry)
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

  /// Starts a fire: until it ends, the slots of the current ``version`` stay reachable
  /// through ``slotsAtFireStart(version:)``.
  @inline(__always)
  mutating func beginFire() {
    firingLevels &+= 1
    fireBeganSinceLastPin = true
  }

  /// Ends a fire; the outermost one releases the pinned arrays.
  @inline(__always)
  mutating func endFire() {
    firingLevels &-= 1
    if firingLevels == 0, !pinned.isEmpty { pinned.removeAll() }
  }

  /// The slots as they were at `version`, for a fire that began then and saw ``version``
  /// change since: the first mutation after it began pinned them.
  func slotsAtFireStart(version: UInt64) -> [Slot] {
    pinned.last { $0.version == version }?.slots ?? slots
  }

  private mutating func willMutate() {
    if fireBeganSinceLastPin && firingLevels > 0 {
      pinned.append((version, slots))
      fireBeganSinceLastPin = false
    }
    version &+= 1
  }
}
