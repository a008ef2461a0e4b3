import SleeveStore

/// Large recorded sessions for the query benchmarks, written with prepared inserts in
/// transactions of 1,000 fires: each fire of one button runs every handler once, with
/// durations from a skewed, fixed-seed distribution (most short, a long tail).
enum LatencyFixture {
  /// How one session's handlers behave: durations scaled by `slowdown[h]` (1 = as recorded
  /// elsewhere) and failures per thousand invocations `failuresPerMille[h]`.
  struct Shape {
    var slowdown: (Int) -> Double = { _ in 1 }
    var failuresPerMille: (Int) -> UInt64 = { _ in 5 }
  }

  /// One session (`latency-db`): `outcomes` outcomes over `handlers` handlers.
  static func write(outcomes: Int, handlers: Int, path: String) throws {
    let connection = try SleeveDatabase.openForWriting(path: path)
    try writeSession(
      1, name: "latency benchmark", outcomes: outcomes, handlers: handlers, seed: 0x5EED,
      shape: Shape(), into: connection)
  }

  /// A baseline and a candidate (`diff-db`): `baselines` sessions on branch `main` and then
  /// one on branch `feature`, `outcomes` outcomes in all, spread evenly, over the same
  /// `handlers` handlers. In the candidate, handlers 0–4 are 25% slower, 5–7 fail 3% of the
  /// time instead of 0.5%, and 8 is 20% faster; each session has its own seed.
  static func writeDiff(outcomes: Int, handlers: Int, baselines: Int, path: String) throws {
    let connection = try SleeveDatabase.openForWriting(path: path)
    let sessions = baselines + 1
    let context = try connection.prepare(
      "INSERT INTO session_context (session_id, branch, commit_sha) VALUES (?, ?, ?)")
    for session in 1...sessions {
      let isCandidate = session == sessions
      let share = outcomes / sessions + (session <= outcomes % sessions ? 1 : 0)
      let shape =
        isCandidate
        ? Shape(
          slowdown: { $0 < 5 ? 1.25 : $0 == 8 ? 0.8 : 1 },
          failuresPerMille: { (5..<8).contains($0) ? 30 : 5 })
        : Shape()
      try writeSession(
        Int64(session), name: "diff benchmark", outcomes: share, handlers: handlers,
        seed: 0x5EED &+ UInt64(session), shape: shape, into: connection)
      try context.bind(Int64(session), at: 1)
      try context.bind(isCandidate ? "feature" : "main", at: 2)
      try context.bind(isCandidate ? "feedc0de" : "ba5e\(session)", at: 3)
      try context.run()
    }
  }

  /// How long a summarized fixture took: writing its raw rows, and summarizing them.
  struct Timing {
    var writeSeconds = 0.0
    var summarizeSeconds = 0.0
  }

  /// A history of ended, summarized sessions (`summaries-db`): `sessions` sessions of
  /// `outcomes` outcomes each over the same `handlers` handlers (each fire runs every handler
  /// once), each with its own seed, and each summarized as the recorder does when a session
  /// ends (`SummaryTables.summarize`, one transaction per session).
  static func writeSummarized(sessions: Int, outcomes: Int, handlers: Int, path: String)
    throws -> Timing
  {
    let connection = try SleeveDatabase.openForWriting(path: path)
    var timing = Timing()
    for session in 1...sessions {
      var start = ContinuousClock.now
      try writeSession(
        Int64(session), name: "summaries benchmark", outcomes: outcomes, handlers: handlers,
        seed: 0x5EED &+ UInt64(session), shape: Shape(), into: connection)
      timing.writeSeconds += RecorderBench.seconds(since: start)
      start = ContinuousClock.now
      _ = try connection.transaction {
        try SummaryTables.summarize(
          session: Int64(session), connection: connection, unixNanoseconds: Int64(session))
      }
      timing.summarizeSeconds += RecorderBench.seconds(since: start)
    }
    return timing
  }

  /// The name of handler `index`: `handler-05`.
  static func handlerName(_ index: Int) -> String {
    "handler-\(index < 10 ? "0" : "")\(index)"
  }

  /// Writes one ended session of `outcomes` outcomes over `handlers` handlers of one button.
  static func writeSession(
    _ session: Int64, name: String, outcomes: Int, handlers: Int, seed: UInt64, shape: Shape,
    into connection: Connection
  ) throws {
    let base = session << RowID.numberBits
    try BenchSessionRow.insert(session, name: name, into: connection)
    try connection.execute(
      "INSERT INTO controls (id, session_id, name, kind) VALUES (\(base | 1), \(session), 'bench', 'Button')"
    )
    let registration = try connection.prepare(
      """
      INSERT INTO registrations (id, session_id, control_id, events, kind, handler, is_async, site,
        registered_at_ns) VALUES (?, ?, ?, 64, 'closure', ?, 0, 'Bench.swift:1', 0)
      """)
    for handler in 0..<handlers {
      try registration.bind(base | Int64(handler + 1), at: 1)
      try registration.bind(session, at: 2)
      try registration.bind(base | 1, at: 3)
      try registration.bind(handlerName(handler), at: 4)
      try registration.run()
    }
    let fire = try connection.prepare(
      "INSERT INTO fires (id, control_id, events, origin, depth, at_ns) VALUES (?, ?, 64, 1, 1, ?)")
    let outcome = try connection.prepare(
      """
      INSERT INTO outcomes (id, fire_id, registration_id, status, is_async, started_ns,
        duration_ns) VALUES (?, ?, ?, ?, 0, ?, ?)
      """)
    let slowdowns = (0..<handlers).map(shape.slowdown)
    let failures = (0..<handlers).map(shape.failuresPerMille)
    var random = FixtureRandom(seed: seed)
    var written = 0
    var fireNumber: Int64 = 0
    while written < outcomes {
      try connection.transaction {
        for _ in 0..<1_000 where written < outcomes {
          fireNumber += 1
          let fireID = base | fireNumber
          try fire.bind(fireID, at: 1)
          try fire.bind(base | 1, at: 2)
          try fire.bind(fireNumber * 1_000, at: 3)
          try fire.run()
          for handler in 0..<handlers where written < outcomes {
            let roll = random.next(1_000)
            let scale: UInt64 = roll < 10 ? 1_000_000 : roll < 100 ? 50_000 : 5_000
            let duration = 1_000 + random.next(scale) + UInt64(handler) * 10
            try outcome.bind(base | Int64(written + 1), at: 1)
            try outcome.bind(fireID, at: 2)
            try outcome.bind(base | Int64(handler + 1), at: 3)
            try outcome.bind(Int64(roll < failures[handler] ? 1 : 0), at: 4)
            try outcome.bind(fireNumber * 1_000, at: 5)
            try outcome.bind(
              slowdowns[handler] == 1
                ? Int64(duration) : Int64((Double(duration) * slowdowns[handler]).rounded()),
              at: 6)
            try outcome.run()
            written += 1
          }
        }
      }
    }
  }
}
