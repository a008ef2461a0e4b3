import SleeveStore

/// A large recorded session for the latency benchmark: `outcomes` outcomes spread over
/// `handlers` handlers of one button (each fire runs every handler once), with durations from
/// a skewed, fixed-seed distribution (most short, a long tail), written with prepared inserts.
enum LatencyFixture {
  static func write(outcomes: Int, handlers: Int, path: String) throws {
    let connection = try SleeveDatabase.openForWriting(path: path)
    let session: Int64 = 1
    let base = session << RowID.numberBits
    try connection.execute(
      """
      INSERT INTO sessions (id, uuid, name, started_unix_ns, ended_unix_ns, heartbeat_unix_ns,
        status, durability, host, pid, os, runtime, sleeve_version, sqlite_version)
      VALUES (1, '00000000-0000-4000-8000-000000000001', 'latency benchmark', 0, 1, 1, 'ended',
        'batched', 'bench', 1, 'bench', 'Swift', '0.1.0', '3');
      INSERT INTO controls (id, session_id, name, kind) VALUES (\(base | 1), 1, 'bench', 'Button');
      """)
    let registration = try connection.prepare(
      """
      INSERT INTO registrations (id, session_id, control_id, events, kind, handler, is_async, site,
        registered_at_ns) VALUES (?, 1, ?, 64, 'closure', ?, 0, 'Bench.swift:1', 0)
      """)
    for handler in 0..<handlers {
      try registration.bind(base | Int64(handler + 1), at: 1)
      try registration.bind(base | 1, at: 2)
      try registration.bind("handler-\(handler < 10 ? "0" : "")\(handler)", at: 3)
      try registration.run()
    }
    let fire = try connection.prepare(
      "INSERT INTO fires (id, control_id, events, origin, depth, at_ns) VALUES (?, ?, 64, 1, 1, ?)")
    let outcome = try connection.prepare(
      """
      INSERT INTO outcomes (id, fire_id, registration_id, status, is_async, started_ns,
        duration_ns) VALUES (?, ?, ?, ?, 0, ?, ?)
      """)
    var state: UInt64 = 0x5EED
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 11
    }
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
            let roll = next() % 1_000
            let scale: UInt64 = roll < 10 ? 1_000_000 : roll < 100 ? 50_000 : 5_000
            try outcome.bind(base | Int64(written + 1), at: 1)
            try outcome.bind(fireID, at: 2)
            try outcome.bind(base | Int64(handler + 1), at: 3)
            try outcome.bind(Int64(roll < 5 ? 1 : 0), at: 4)
            try outcome.bind(fireNumber * 1_000, at: 5)
            try outcome.bind(Int64(1_000 + next() % scale + UInt64(handler) * 10), at: 6)
            try outcome.run()
            written += 1
          }
        }
      }
    }
  }
}
