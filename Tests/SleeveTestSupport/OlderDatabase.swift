import SleeveStore

/// A database file at migration 0002 (before `session_context` and `quarantine`), as an older
/// Sleeve left it: one ended session with a handler `submit` on control `CheckoutView`.
public enum OlderDatabase {
  /// Writes the file at `path`.
  public static func create(at path: String) throws {
    let connection = try Connection(path: path)
    try Migrator.migrate(connection, migrations: Array(SchemaMigrations.all.prefix(2)))
    let session: Int64 = 1
    let number = session << 32 | 1
    try connection.execute(
      """
      INSERT INTO sessions (id, uuid, name, started_unix_ns, heartbeat_unix_ns, status,
        durability, host, pid, os, runtime, sleeve_version, sqlite_version)
      VALUES (1, '00000000-0000-0000-0000-000000000001', 'old', 1, 1, 'ended', 'batched', 'h',
        1, 'os', 'Swift 6.3', '0.1.0', '3.40.1');
      INSERT INTO controls (id, session_id, name, kind)
      VALUES (\(number), 1, 'CheckoutView', 'Button');
      INSERT INTO registrations (id, session_id, control_id, events, kind, handler, identifier,
        flag_key, is_async, site, registered_at_ns)
      VALUES (\(number), 1, \(number), 64, 'closure', 'submit', 'submit', NULL, 0,
        'Checkout.swift:10', 0);
      """)
  }
}
