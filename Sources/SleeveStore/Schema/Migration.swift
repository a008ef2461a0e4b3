/// One schema migration: an id (the SQL file's stem, e.g. `0001_initial`) and its SQL.
public struct Migration: Hashable, Sendable {
  /// The file stem, e.g. `0001_initial`: the order key and the id recorded in
  /// `schema_migrations`.
  public let id: String
  /// The SQL, run statement by statement in one transaction.
  public let sql: String

  /// Creates a migration from embedded bytes.
  public init(id: String, bytes: [UInt8]) {
    self.id = id
    self.sql = String(decoding: bytes, as: UTF8.self)
  }
}

/// The schema's migrations, in order: the single source of truth is `Migrations/*.sql` at the
/// package root, embedded into the binary at build time (no resource bundle at run time).
/// A test checks that this list equals the folder.
public enum SchemaMigrations {
  /// Every migration this binary knows, oldest first.
  public static let all: [Migration] = [
    Migration(id: "0001_initial", bytes: PackageResources._001_initial_sql),
    Migration(id: "0002_row_ids", bytes: PackageResources._002_row_ids_sql),
    Migration(id: "0003_run_context", bytes: PackageResources._003_run_context_sql),
    Migration(id: "0004_interactions", bytes: PackageResources._004_interactions_sql),
    Migration(id: "0005_summaries", bytes: PackageResources._005_summaries_sql),
    Migration(id: "0006_summary_rollups", bytes: PackageResources._006_summary_rollups_sql),
    Migration(id: "0007_rollouts", bytes: PackageResources._007_rollouts_sql),
    Migration(id: "0008_deliveries", bytes: PackageResources._008_deliveries_sql),
    Migration(
      id: "0009_summary_checksums", bytes: PackageResources._009_summary_checksums_sql),
  ]

  /// Work a migration needs beyond its SQL, run in the transaction that applies it, right
  /// after it is recorded: 0009 computes the checksums of the summaries written before it
  /// (``SummaryChecksums``), which SQL cannot.
  static func completion(of id: String) -> ((Connection) throws -> Void)? {
    id == SummaryChecksums.migration ? { try SummaryChecksums.sealUnsealed(connection: $0) } : nil
  }

  /// Migrations that only add tables, so a file without them is still read: a reader sees
  /// their tables empty (created in its own temporary schema, never in the file). Each must
  /// be a trailing run of ``all``: a file lacking one also lacks every later one.
  public static let addOnlyTables: Set<String> = [
    "0003_run_context", "0004_interactions", "0005_summaries",
    "0006_summary_rollups", "0007_rollouts", "0008_deliveries",
    "0009_summary_checksums",
  ]
}
