-- Sleeve schema, migration 0009: checksums of the stored summaries, so a summary row that was
-- damaged, edited, deleted or added after it was written is refused (exit 65 naming the
-- session or the rollup's sessions) instead of moving an answer.
--
-- Never edit this file once shipped: add a new migration instead.
--
-- It only adds tables, so a file from before it is still read: its summaries have no
-- checksums, so readers verify only what their rows say of themselves and of each other
-- (each blob against its columns, the counts against session_summaries, every registration
-- present) and read no rollup (each session's summaries instead). A writer applying it (any
-- writer, or `sleeve migrate`) computes, in the same transaction, the checksums of every
-- summarized session whose rows pass those checks and rebuilds every rollup; a session whose
-- rows do not is left without one, and readers name it as damaged. No existing row changes.
--
-- Each checksum is a 64-bit FNV-1a over a canonical encoding of the rows it covers (every
-- column by its SQLite type, the registration as its number within the session, so `merge`
-- copies it as it is), stored as a signed 64-bit integer (SummaryChecksums in
-- Sources/SleeveStore/Summaries).

-- One row per summarized session: rows_digest covers its outcome_summaries rows (and whether
-- each one's registration row existed when it was summarized) and its failure_summaries rows,
-- in key order; checksum covers its session_summaries row and rows_digest.
CREATE TABLE summary_checksums (
  session_id INTEGER PRIMARY KEY,
  rows_digest INTEGER NOT NULL,
  checksum INTEGER NOT NULL
);

-- One row per rolled-up block (summary_blocks): members covers the ids and checksums of the
-- block's summarized sessions when it was rolled up (a member changed since is seen, and its
-- sessions are read one by one); checksum covers the summary_blocks row, members and every
-- summary_rollups row of the block in key order.
CREATE TABLE rollup_checksums (
  block INTEGER PRIMARY KEY,
  members INTEGER NOT NULL,
  checksum INTEGER NOT NULL
);
