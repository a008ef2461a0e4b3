/// Turns pooled observations into findings: the one home of each check's message, evidence
/// names and pooling rules.
enum LintFindingText {
  /// The finding for `observation`, or `nil` when pooled numbers no longer make one.
  static func finding(
    _ key: LintObservationKey, _ observation: LintObservation, options: LintOptions,
    interactions: Int64
  ) -> LintFinding? {
    let numbers = observation.numbers
    let sessions = observation.sessions.sorted()
    let others = observation.otherSites.sorted()
    let text = observation.texts.first ?? ""
    func make(
      _ message: String, _ evidence: [LintEvidence], severity: LintSeverity? = nil
    ) -> LintFinding {
      LintFinding(
        check: key.check, severity: severity, control: key.control, handler: key.handler,
        site: key.site, otherSites: others, message: message,
        evidence: evidence + [LintEvidence("sessions", .count(sessions.count))],
        sessions: sessions)
    }
    switch key.check {
    case .accumulation:
      return make(
        "registered \(numbers[0]) times without an id, up to \(numbers[1]) live at once: "
          + "runs \(numbers[1]) times per \(text)",
        [
          LintEvidence("registrations", .count(Int(numbers[0]))),
          LintEvidence("live at once", .count(Int(numbers[1]))),
          LintEvidence("event", .text(text)),
        ])
    case .silentReplacement:
      return make(
        "id '\(key.handler ?? "")' taken over from another site \(numbers[0]) "
          + (numbers[0] == 1 ? "time" : "times") + " (\(text))",
        [
          LintEvidence("replacements across sites", .count(Int(numbers[0]))),
          LintEvidence("why", .text(text)),
        ])
    case .mixedWiring:
      return make(
        "target-action and closure handlers from \(others.count + 1) sites answer \(text)",
        [
          LintEvidence("closure sites", .count(others.count)),
          LintEvidence("events", .text(text)),
        ])
    case .orphanedHandler:
      let share = Double(numbers[0]) / Double(max(numbers[0] + numbers[1], 1))
      return make(
        "\(text) went away; the control fired \(numbers[0]) more "
          + (numbers[0] == 1 ? "time" : "times") + " on its events without it",
        [
          LintEvidence("fires missed", .count(Int(numbers[0]))),
          LintEvidence("fires reached", .count(Int(numbers[1]))),
          LintEvidence("share missed", .share(share)),
        ])
    case .deadInteraction:
      return make(
        "\(numbers[0]) of \(interactions) interactions ran no handler",
        [
          LintEvidence("dead interactions", .count(Int(numbers[0]))),
          LintEvidence("interactions", .count(Int(interactions))),
          LintEvidence("share dead", .share(Double(numbers[0]) / Double(max(interactions, 1)))),
        ])
    case .rageInteraction:
      let harmed = numbers[3] > 0 || numbers[4] > 0
      return make(
        "\(numbers[0]) " + (numbers[0] == 1 ? "burst" : "bursts") + " of \(options.rageCount)+ "
          + "interactions within \(milliseconds(options.rageWindowNanoseconds)) (largest "
          + "\(numbers[1])); meanwhile \(numbers[3]) dead, \(numbers[4]) failed",
        [
          LintEvidence("bursts", .count(Int(numbers[0]))),
          LintEvidence("largest burst", .count(Int(numbers[1]))),
          LintEvidence("interactions in bursts", .count(Int(numbers[2]))),
          LintEvidence("dead in bursts", .count(Int(numbers[3]))),
          LintEvidence("failed in bursts", .count(Int(numbers[4]))),
        ], severity: harmed ? .warning : .note)
    case .errorInteraction:
      return make(
        "\(numbers[0]) of \(interactions) interactions reached a handler that threw",
        [
          LintEvidence("error interactions", .count(Int(numbers[0]))),
          LintEvidence("interactions", .count(Int(interactions))),
          LintEvidence("share failed", .share(Double(numbers[0]) / Double(max(interactions, 1)))),
        ])
    case .mainThreadStall:
      return stall(observation, options: options, make: make)
    case .nestingPressure:
      return make(
        "\(numbers[0]) " + (numbers[0] == 1 ? "fire" : "fires")
          + " refused at the nesting limit; chain: \(text)",
        [
          LintEvidence("refused", .count(Int(numbers[0]))),
          LintEvidence("depth", .count(Int(numbers[1]))),
          LintEvidence("chain", .text(text)),
        ])
    }
  }

  /// A stall, with p99 exact by the rank definition of ``Percentile`` (linear between
  /// closest ranks): every order statistic it needs is either one of the kept durations
  /// over the budget or the largest one within it.
  private static func stall(
    _ observation: LintObservation, options: LintOptions,
    make: (String, [LintEvidence], LintSeverity?) -> LintFinding
  ) -> LintFinding? {
    let count = Int(clamping: observation.numbers[0])
    let over = observation.durations.sorted()
    guard let maximum = over.last, count >= over.count else { return nil }
    let within = observation.numbers[1] >= 0 ? observation.numbers[1] : nil
    let (lower, fraction) = Percentile.rank(count: count, at: 99)
    let firstOver = count - over.count
    func value(at rank: Int) -> Int64? {
      rank >= firstOver ? over[rank - firstOver] : rank == firstOver - 1 ? within : nil
    }
    var p99: Double?
    if let low = value(at: lower) {
      if fraction == 0 {
        p99 = Double(low)
      } else if let high = value(at: lower + 1) {
        p99 = Percentile.between(Double(low), Double(high), at: fraction)
      }
    }
    let budget = options.frameBudgetNanoseconds
    let p99Over = p99.map { $0 > Double(budget) } ?? false
    var evidence = [
      LintEvidence("n", .count(count)),
      LintEvidence("over budget", .count(over.count)),
      LintEvidence("max", .nanoseconds(maximum)),
    ]
    if p99Over, let p99 {
      // Interpolating between two durations near Int64.max can round past it.
      let nanoseconds = p99 >= Double(Int64.max) ? Int64.max : Int64(p99)
      evidence.insert(LintEvidence("p99", .nanoseconds(nanoseconds)), at: 1)
    }
    evidence.append(LintEvidence("frame budget", .nanoseconds(budget)))
    let what = p99Over ? "p99 and max" : "max"
    return make(
      "\(what) over the \(milliseconds(budget)) frame budget on the main thread "
        + "(\(over.count) of \(count) invocations over)", evidence, p99Over ? .warning : .note)
  }

  /// `16.7 ms`, `1 s`: a threshold as options give it, to one decimal.
  static func milliseconds(_ nanoseconds: Int64) -> String {
    if nanoseconds % 1_000_000_000 == 0 { return "\(nanoseconds / 1_000_000_000) s" }
    let tenths = (Double(nanoseconds) / 100_000).rounded() / 10
    return tenths == tenths.rounded() ? "\(Int64(tenths)) ms" : "\(tenths) ms"
  }
}

extension LintCheck {
  /// How each of this check's observation numbers pools across sessions.
  var numberRules: [LintObservation.Rule] {
    switch self {
    case .accumulation: [.sum, .max]
    case .silentReplacement: [.sum]
    case .mixedWiring: [.sum, .sum]
    case .orphanedHandler: [.sum, .sum]
    case .deadInteraction, .errorInteraction: [.sum]
    case .rageInteraction: [.sum, .max, .sum, .sum, .sum]
    case .mainThreadStall: [.sum, .max]
    case .nestingPressure: [.sum, .max]
    }
  }
}
