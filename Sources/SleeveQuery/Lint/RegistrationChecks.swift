import SleeveCore

/// The checks that read a session's handlers and their lifetimes: accumulation, silent
/// replacement, mixed wiring. Each needs lifetimes (schema 0004); a session without them is
/// not checked (the report counts it).
enum RegistrationChecks {
  /// Handlers from one site, without an `id:`, on one control, live at once on a shared
  /// event. Numbers: registrations, most live at once.
  static func accumulation(_ data: LintSessionData, into sink: inout LintObservations) {
    var groups: [GroupKey: [Int]] = [:]
    for (index, registration) in data.registrations.enumerated()
    where registration.identifier == nil && registration.added != nil && registration.isSelected {
      groups[GroupKey(control: registration.control, site: registration.site), default: []]
        .append(index)
    }
    for (key, members) in groups where members.count > 1 {
      let registrations = members.map { data.registrations[$0] }
      guard let (live, event) = mostLiveAtOnce(registrations), live > 1 else { continue }
      let first = registrations[0]
      sink.add(
        LintObservationKey(
          check: .accumulation, control: data.controlName(key.control), handler: first.handler,
          site: first.site),
        LintObservation(
          numbers: [Int64(registrations.count), Int64(live)], sessions: [data.session.id],
          texts: [ControlEvents(rawValue: event).description]))
    }
  }

  /// The most registrations live at the same time that share one event, and that event:
  /// a sweep over the exact order of additions and removals, per event bit.
  static func mostLiveAtOnce(_ registrations: [LintRegistration]) -> (Int, UInt)? {
    var best: (Int, UInt)?
    let union = registrations.reduce(UInt(0)) { $0 | $1.events }
    var bit: UInt = 1
    while bit != 0 && bit <= union {
      defer { bit = bit << 1 }
      guard union & bit != 0 else { continue }
      var changes: [(at: Int64, delta: Int)] = []
      for registration in registrations where registration.events & bit != 0 {
        guard let added = registration.added else { continue }
        changes.append((added, 1))
        if let removed = registration.removed { changes.append((removed, -1)) }
      }
      // Sequence numbers are distinct, so the order is total.
      changes.sort { $0.at < $1.at }
      var live = 0
      var most = 0
      for change in changes {
        live += change.delta
        most = max(most, live)
      }
      if most > best?.0 ?? 0 { best = (most, bit) }
    }
    return best
  }

  /// An `id:` taken over from another site where the sites fight: their owners' types
  /// differ, or the id goes back to a site it was taken from. A one-way replacement by the
  /// same owner type is deliberate (README's core example) and not a finding. Numbers:
  /// replacements across sites.
  static func silentReplacement(_ data: LintSessionData, into sink: inout LintObservations) {
    var chains: [ChainKey: [(replaced: LintRegistration, by: LintRegistration)]] = [:]
    for registration in data.registrations {
      guard registration.isSelected, let replacedID = registration.replaced,
        let index = data.index(of: replacedID), let identifier = registration.identifier
      else { continue }
      let replaced = data.registrations[index]
      chains[ChainKey(control: registration.control, identifier: identifier), default: []]
        .append((replaced, registration))
    }
    for (key, steps) in chains {
      let ordered = steps.sorted { ($0.by.added ?? 0) < ($1.by.added ?? 0) }
      let crossSite = ordered.filter { $0.replaced.site != $0.by.site }
      guard !crossSite.isEmpty else { continue }
      let owners = crossSite.first { $0.replaced.anchorType != $0.by.anchorType }
      var visited: [String] = [ordered[0].replaced.site]
      var wentBack: String?
      for step in ordered where step.by.site != visited.last {
        if visited.contains(step.by.site) && wentBack == nil { wentBack = step.by.site }
        visited.append(step.by.site)
      }
      let why: String
      if let owners {
        why =
          "owners \(owners.replaced.anchorType ?? "none") and \(owners.by.anchorType ?? "none")"
      } else if let wentBack {
        why = "taken back by \(wentBack)"
      } else {
        continue
      }
      let first = ordered[0].replaced
      var others = Set(visited)
      others.remove(first.site)
      sink.add(
        LintObservationKey(
          check: .silentReplacement, control: data.controlName(key.control),
          handler: key.identifier, site: first.site),
        LintObservation(
          numbers: [Int64(crossSite.count)], otherSites: others, sessions: [data.session.id],
          texts: [why]))
    }
  }

  /// Target-action and closure handlers from different sites on one control and event, live
  /// at once; one finding per target-action site. Numbers: closure handlers, target-actions.
  static func mixedWiring(_ data: LintSessionData, into sink: inout LintObservations) {
    var byControl: [Int64: [LintRegistration]] = [:]
    for registration in data.registrations where registration.added != nil {
      byControl[registration.control, default: []].append(registration)
    }
    for (control, registrations) in byControl {
      let closures = registrations.filter(\.isClosure)
      for target in registrations where !target.isClosure && target.isSelected {
        let partners = closures.filter {
          $0.site != target.site && $0.events & target.events != 0 && $0.overlaps(target)
        }
        guard !partners.isEmpty else { continue }
        let shared = partners.reduce(UInt(0)) { $0 | ($1.events & target.events) }
        sink.add(
          LintObservationKey(
            check: .mixedWiring, control: data.controlName(control), handler: target.handler,
            site: target.site),
          LintObservation(
            numbers: [Int64(Set(partners.map(\.site)).count), 1],
            otherSites: Set(partners.map(\.site)), sessions: [data.session.id],
            texts: [ControlEvents(rawValue: shared).description]))
      }
    }
  }

  private struct GroupKey: Hashable {
    let control: Int64
    let site: String
  }

  private struct ChainKey: Hashable {
    let control: Int64
    let identifier: String
  }
}

/// Observations by key, pooled as sessions are added.
struct LintObservations {
  private(set) var byKey: [LintObservationKey: LintObservation] = [:]

  /// Adds one session's observation, pooling it with earlier sessions' for the same key.
  mutating func add(_ key: LintObservationKey, _ observation: LintObservation) {
    if byKey[key] == nil {
      byKey[key] = observation
    } else {
      byKey[key]?.pool(observation, rules: key.check.numberRules)
    }
  }
}
