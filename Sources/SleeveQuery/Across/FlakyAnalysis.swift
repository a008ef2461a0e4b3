/// Which handlers are flaky across runs, which are broken, and which were flaky and have
/// cleared: `sleeve flaky`, and what `check --quarantine flaky` counts as advisory.
///
/// Sessions are compared within a *run group*: the commit they built and, where a session
/// recorded one, the test it ran (``RunGroup``). Sessions that record no commit are not grouped
/// and not judged. Only the ``Options/window`` most recent commits are judged, a commit dated
/// by its latest session.
///
/// Per handler, identified as runs are matched (`GroupKey.handler`: its control and its name
/// as reports show it), counting only the sessions where it ran (ok or failed):
/// - ``Verdict/broken``: in every session of its ``Options/brokenCommits`` most recent commits
///   (all of them, when it ran in fewer) it failed more than ``Options/brokenShare`` of its
///   invocations. Broken wins over every other verdict: it is failing now, not flaking.
/// - ``Verdict/flaky``: in some group of 2 or more sessions, the sessions disagree: some had a
///   failure of it, some had none.
/// - ``Verdict/cleared``: flaky, but its ``Options/clearAfter`` most recent sessions had no
///   failure (flaky tools' "cleared after K clean runs").
/// - ``Verdict/consistent``: none of these. A handler that fails at a low rate in every run
///   is consistent: its rate is for thresholds and `diff`, not a flake.
///
/// The flake rate is ``method``: the share of its judged groups that disagreed (Flutter's
/// "flaky ratio over the last 100 commits"; Datadog and Mergify call a test flaky when one
/// commit both passed and failed).
///
/// ```swift
/// let analysis = FlakyAnalysis(try database.tallies(
///   of: sessions, filter: filter, by: .handler, collectDurations: false))
/// for finding in analysis.findings(.flaky) { print(finding.key.display, finding.flakeRate!) }
/// ```
public struct FlakyAnalysis: Sendable {
  /// The thresholds of the verdicts.
  public struct Options: Equatable, Sendable {
    /// The most recent commits judged (default 20); at least 1.
    public var window = 20
    /// Broken: failing more than this share of its invocations (default 0.5, in 0…1) in every
    /// session of its last ``brokenCommits`` commits.
    public var brokenShare = 0.5
    /// Broken: over this many of its most recent commits (default 3); at least 1.
    public var brokenCommits = 3
    /// Cleared: a flaky handler whose this many most recent sessions had no failure
    /// (default 5); at least 1.
    public var clearAfter = 5

    /// The defaults.
    public init() {}
  }

  /// A handler's verdict, in the order reports list them.
  public enum Verdict: String, CaseIterable, Sendable {
    /// Sessions of one group disagreed: some failed it, some ran it clean.
    case flaky
    /// It fails most of its invocations in every session of its last commits.
    case broken
    /// It was flaky in the window, but its most recent sessions ran it clean.
    case cleared
    /// None of these: its sessions agree (all clean, or all failing at a low rate).
    case consistent
  }

  /// Where sessions are compared: the commit a session built (lowercased, as `git` prints
  /// ids) and the test it recorded (its id, else its display name), `nil` for a session that
  /// recorded no test. Sessions of one commit that recorded no test are one group; a session
  /// of a test is compared only with sessions of the same test on the same commit.
  public struct RunGroup: Hashable, Sendable {
    /// The commit.
    public let commit: String
    /// The test, or `nil`.
    public let test: String?

    /// The group of `commit` and `test`.
    public init(commit: String, test: String?) {
      self.commit = commit
      self.test = test
    }
  }

  /// One group in which a handler ran in 2 or more sessions.
  public struct GroupRecord: Sendable {
    /// The group.
    public let group: RunGroup
    /// The sessions of the group where the handler ran, oldest first.
    public let sessions: [Int64]
    /// Those of them that had a failure of the handler.
    public let failingSessions: [Int64]

    /// Whether the sessions disagreed: some failed it, some ran it clean.
    public var disagrees: Bool {
      !failingSessions.isEmpty && failingSessions.count < sessions.count
    }
  }

  /// One handler's verdict and the evidence for it.
  public struct Finding: Sendable {
    /// The handler as runs are matched: `.handler(control:name:)`.
    public let key: GroupKey
    /// Its control (`nil` when the control's row was lost).
    public let control: String?
    /// Its name as reports show it (its `id:`, else its registration site).
    public let handler: String
    /// Where it was registered (`File.swift:42`) in its most recent session, when known.
    public let site: String?
    /// The verdict.
    public let verdict: Verdict
    /// ``flakyGroups`` / ``judgedGroups``; `nil` when no group has 2 or more of its sessions.
    public let flakeRate: Double?
    /// The groups whose sessions disagreed, oldest first.
    public let flakyGroups: [GroupRecord]
    /// The groups where it ran in 2 or more sessions.
    public let judgedGroups: Int
    /// The sessions the verdict rests on, oldest first: those of its flaky groups (flaky,
    /// cleared), those of its last commits (broken), or all where it ran (consistent).
    public let sessions: [Int64]
    /// Those of ``sessions`` that had a failure of it.
    public let failingSessions: [Int64]
    /// When the first of ``failingSessions`` started (Unix nanoseconds); `nil` when none.
    public let firstSeenUnixNanoseconds: Int64?
    /// When the last of ``failingSessions`` started (Unix nanoseconds); `nil` when none.
    public let lastSeenUnixNanoseconds: Int64?
    /// Its failures in ``sessions`` by kind.
    public let failureKinds: [FailureKind: Int]
    /// Its invocations that ran (ok or failed) in the window's sessions.
    public let ran: Int
    /// Those that failed.
    public let failed: Int

    /// ``failed`` / ``ran`` over the window; `nil` when it never ran.
    public var errorRate: Double? { ran > 0 ? Double(failed) / Double(ran) : nil }

    /// ``failureKinds``, most frequent first (ties by kind).
    public var failureKindsByCount: [(kind: FailureKind, count: Int)] {
      failureKinds.map { (kind: $0.key, count: $0.value) }.sorted {
        $0.count != $1.count ? $0.count > $1.count : $0.kind < $1.kind
      }
    }
  }

  /// How the flake rate is computed, as reports say it: named for the runs and commits it
  /// counts, so it never reads as a second error rate.
  public static let method =
    "runs disagreed on = groups (a commit, or a commit and test) where its sessions disagreed "
    + "/ groups where it ran in 2 or more sessions; invocations failed = failed / ran"

  /// The thresholds used.
  public let options: Options
  /// Every handler that ran in the window, flaky first, then broken, cleared, consistent;
  /// within a verdict by flake rate (highest first), then control and handler.
  public let findings: [Finding]
  /// The commits judged, newest first.
  public let commits: [String]
  /// The sessions judged (those of ``commits``), oldest first.
  public let sessions: [Int64]
  /// The sessions that record no commit: not grouped, not judged.
  public let sessionsWithoutCommit: [Int64]
  /// The sessions of commits older than the window: not judged.
  public let sessionsOutsideWindow: [Int64]
  /// Lines saying what was not judged and how sessions were grouped.
  public let notes: [String]

  /// The findings with `verdict`, in ``findings`` order.
  public func findings(_ verdict: Verdict) -> [Finding] {
    findings.filter { $0.verdict == verdict }
  }

  /// The verdict of the handler keyed `key`; `nil` when it did not run in the window.
  public func verdict(of key: GroupKey) -> Verdict? {
    findings.first { $0.key == key }?.verdict
  }

  /// Judges `tallies` (grouped `.handler`, e.g. from `QueryDatabase.tallies(of:filter:by:
  /// collectDurations:)`). Pure: the same tallies and options give the same analysis, in
  /// whatever order the tallies come. Options below their minimum count as the minimum; a
  /// share outside 0…1 is clamped.
  public init(_ tallies: [SessionTallies], options: Options = Options()) {
    self.init(tallies, selected: tallies.map(\.session), options: options)
  }

  /// Judges the sessions `selected`, of which `tallies` need only cover those
  /// ``judgedSessions(of:options:)`` returns (a session without a tally ran no handler): the
  /// window, the notes and the sessions not judged are taken from `selected`. So a command
  /// reads the outcomes of the window's sessions only, and says what it left out.
  public init(
    _ tallies: [SessionTallies], selected: [SessionSummary], options: Options = Options()
  ) {
    var options = options
    options.window = max(1, options.window)
    options.brokenCommits = max(1, options.brokenCommits)
    options.clearAfter = max(1, options.clearAfter)
    options.brokenShare = options.brokenShare.isNaN ? 0.5 : min(1, max(0, options.brokenShare))
    self.options = options
    let ordered = Self.oldestFirst(selected)
    var byID: [Int64: SessionTallies] = [:]
    for tally in tallies where byID[tally.session.id] == nil { byID[tally.session.id] = tally }
    let newestFirst = Self.commitsNewestFirst(ordered)
    commits = Array(newestFirst.prefix(options.window))
    let rank = Dictionary(uniqueKeysWithValues: commits.enumerated().map { ($1, $0) })
    var withoutCommit: [Int64] = []
    var outside: [Int64] = []
    var judged: [Int64] = []
    var handlers = HandlerRecords()
    var anyTest = false
    for session in ordered {
      guard let commit = Self.commit(of: session) else {
        withoutCommit.append(session.id)
        continue
      }
      guard let commitRank = rank[commit] else {
        outside.append(session.id)
        continue
      }
      judged.append(session.id)
      let test = session.context.test
      anyTest = anyTest || test != nil
      if let tally = byID[session.id] {
        handlers.add(tally, group: RunGroup(commit: commit, test: test), commitRank: commitRank)
      }
    }
    sessionsWithoutCommit = withoutCommit
    sessions = judged
    sessionsOutsideWindow = outside
    findings = handlers.order.map { key in
      Self.judge(key, records: handlers.records[key] ?? [], options: options)
    }.sorted(by: Self.reportOrder)
    notes = Self.notes(
      withoutCommit: withoutCommit, outside: outside,
      olderCommits: newestFirst.count
        - commits.count, options: options, anyTest: anyTest, judgedSessions: judged.count,
      anyJudgedGroup: findings.contains { $0.judgedGroups > 0 },
      lostRegistrations: handlers.lostRegistrations)
  }

  /// The sessions of `sessions` an analysis with `options` judges: those of the
  /// ``Options/window`` most recent commits, oldest first. Read the tallies of these only, then
  /// pass every selected session to ``init(_:selected:options:)``.
  public static func judgedSessions(of sessions: [SessionSummary], options: Options = Options())
    -> [SessionSummary]
  {
    let ordered = oldestFirst(sessions)
    let window = Set(commitsNewestFirst(ordered).prefix(max(1, options.window)))
    return ordered.filter { commit(of: $0).map(window.contains) ?? false }
  }

  private static func oldestFirst(_ sessions: [SessionSummary]) -> [SessionSummary] {
    sessions.sorted {
      ($0.startedUnixNanoseconds, $0.id) < ($1.startedUnixNanoseconds, $1.id)
    }
  }

  /// Every commit of `ordered` (oldest first), newest first by its latest session.
  private static func commitsNewestFirst(_ ordered: [SessionSummary]) -> [String] {
    var latest: [String: (Int64, Int64)] = [:]
    for session in ordered {
      guard let commit = commit(of: session) else { continue }
      latest[commit] = (session.startedUnixNanoseconds, session.id)
    }
    return latest.sorted { $0.value > $1.value }.map(\.key)
  }

  /// The commit a session built, lowercased; `nil` when it recorded none.
  private static func commit(of session: SessionSummary) -> String? {
    guard let commit = session.context.run.commit, !commit.isEmpty else { return nil }
    return commit.lowercased()
  }

  /// Flaky first, then broken, cleared, consistent; by flake rate (highest first, none last),
  /// then control and handler.
  private static func reportOrder(_ left: Finding, _ right: Finding) -> Bool {
    let order = Verdict.allCases
    let (l, r) = (order.firstIndex(of: left.verdict)!, order.firstIndex(of: right.verdict)!)
    if l != r { return l < r }
    let (lr, rr) = (left.flakeRate ?? -1, right.flakeRate ?? -1)
    if lr != rr { return lr > rr }
    return (left.control ?? "", left.handler) < (right.control ?? "", right.handler)
  }

  private static func judge(_ key: GroupKey, records: [HandlerRecord], options: Options)
    -> Finding
  {
    var groups: [RunGroup: [HandlerRecord]] = [:]
    var groupOrder: [RunGroup] = []
    for record in records {
      if groups[record.group] == nil { groupOrder.append(record.group) }
      groups[record.group, default: []].append(record)
    }
    let judged = groupOrder.compactMap { group -> GroupRecord? in
      let members = groups[group] ?? []
      guard members.count >= 2 else { return nil }
      return GroupRecord(
        group: group, sessions: members.map(\.session),
        failingSessions: members.filter { $0.failed > 0 }.map(\.session))
    }
    let flakyGroups = judged.filter(\.disagrees)
    let recentCommits = Set(Set(records.map(\.commitRank)).sorted().prefix(options.brokenCommits))
    let recent = records.filter { recentCommits.contains($0.commitRank) }
    let broken =
      !recent.isEmpty
      && recent.allSatisfy { Double($0.failed) > options.brokenShare * Double($0.ran) }
    let cleared =
      records.count >= options.clearAfter
      && records.suffix(options.clearAfter).allSatisfy { $0.failed == 0 }
    let verdict: Verdict =
      broken ? .broken : flakyGroups.isEmpty ? .consistent : cleared ? .cleared : .flaky
    let involved: [HandlerRecord]
    switch verdict {
    case .broken: involved = recent
    case .consistent: involved = records
    case .flaky, .cleared:
      let flakySet = Set(flakyGroups.map(\.group))
      involved = records.filter { flakySet.contains($0.group) }
    }
    let failing = involved.filter { $0.failed > 0 }
    var kinds: [FailureKind: Int] = [:]
    for record in failing {
      kinds.merge(record.failureKinds) { SaturatingCount.sum($0, $1) }
    }
    guard case .handler(let control, let name) = key else {
      preconditionFailure("only handler keys are judged")
    }
    return Finding(
      key: key, control: control, handler: name, site: records.last { $0.site != nil }?.site,
      verdict: verdict,
      flakeRate: judged.isEmpty ? nil : Double(flakyGroups.count) / Double(judged.count),
      flakyGroups: flakyGroups, judgedGroups: judged.count, sessions: involved.map(\.session),
      failingSessions: failing.map(\.session),
      firstSeenUnixNanoseconds: failing.first?.started,
      lastSeenUnixNanoseconds: failing.last?.started,
      failureKinds: kinds, ran: records.reduce(0) { SaturatingCount.sum($0, $1.ran) },
      failed: records.reduce(0) { SaturatingCount.sum($0, $1.failed) })
  }

  private static func notes(
    withoutCommit: [Int64], outside: [Int64], olderCommits: Int, options: Options,
    anyTest: Bool, judgedSessions: Int, anyJudgedGroup: Bool, lostRegistrations: Bool
  ) -> [String] {
    var notes: [String] = []
    if !withoutCommit.isEmpty {
      notes.append(
        "\(count(withoutCommit.count, "session")) record no commit (\(list(withoutCommit))): "
          + "not grouped, not judged; sessions recorded in CI record their commit, and "
          + "SLEEVE_COMMIT sets it anywhere.")
    }
    if !outside.isEmpty {
      notes.append(
        "\(count(outside.count, "session")) of \(count(olderCommits, "older commit")) "
          + "fall outside the window of the last \(options.window) (--window).")
    }
    if judgedSessions > 0 {
      notes.append(
        anyTest
          ? "Sessions are compared within their commit and the test they recorded; sessions "
            + "that recorded no test within their commit."
          : "Sessions are compared within their commit (none recorded a test).")
    }
    if judgedSessions > 0, !anyJudgedGroup {
      notes.append(
        "No handler ran in 2 or more sessions of one commit: nothing to compare for flakes "
          + "(run a commit's tests more than once, e.g. re-run the CI job).")
    }
    if lostRegistrations {
      notes.append("Outcomes whose registration row was lost ('-') are not judged.")
    }
    return notes
  }

  private static func count(_ value: Int, _ noun: String) -> String {
    "\(value) \(noun)\(value == 1 ? "" : "s")"
  }

  /// Up to 10 ids, then how many more.
  private static func list(_ ids: [Int64]) -> String {
    let shown = ids.prefix(10).map(String.init).joined(separator: ", ")
    return ids.count > 10 ? shown + " and \(ids.count - 10) more" : shown
  }
}

/// One session's tally of one handler, where it ran.
private struct HandlerRecord {
  let session: Int64
  let started: Int64
  let group: FlakyAnalysis.RunGroup
  /// The commit's place in the window (0: newest).
  let commitRank: Int
  let ran: Int
  let failed: Int
  let failureKinds: [FailureKind: Int]
  let site: String?
}

/// The records of every handler, in order of first appearance.
private struct HandlerRecords {
  var records: [GroupKey: [HandlerRecord]] = [:]
  var order: [GroupKey] = []
  var lostRegistrations = false

  mutating func add(_ tally: SessionTallies, group: FlakyAnalysis.RunGroup, commitRank: Int) {
    for handler in tally.groups where handler.ran > 0 {
      guard case .handler = handler.groupKey else {
        lostRegistrations = true
        continue
      }
      if records[handler.groupKey] == nil { order.append(handler.groupKey) }
      records[handler.groupKey, default: []].append(
        HandlerRecord(
          session: tally.session.id, started: tally.session.startedUnixNanoseconds,
          group: group, commitRank: commitRank, ran: handler.ran, failed: handler.failed,
          failureKinds: handler.failureKinds, site: handler.site))
    }
  }
}
