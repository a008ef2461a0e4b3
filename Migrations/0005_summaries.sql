-- Sleeve schema, migration 0005: latency summaries and retention. When a session ends (or
-- `merge` copies it, or `sleeve summarize` runs over an older file), Sleeve writes what its
-- outcomes add up to, per handler and variant: counts per status, a base-2 exponential
-- histogram of the durations that ran, and its failures by kind. Queries answer from these
-- rows in milliseconds over any history, and `sleeve prune` can then delete the session's raw
-- fires and outcomes.
--
-- Never edit this file once shipped: add a new migration instead.
--
-- It only adds tables, so a file from before it is still read: none of its sessions is
-- summarized, so queries read its raw rows (and say so). Writers and `sleeve migrate` add
-- these tables; no existing row changes.

-- One row per summarized session. A session is summarized exactly when it has this row (a
-- session with no outcomes has the row and no outcome_summaries rows). fires and outcomes are
-- the raw row counts when it was summarized, kept for `sleeve sessions` after a prune.
CREATE TABLE session_summaries (
  session_id INTEGER PRIMARY KEY REFERENCES sessions (id),
  summarized_unix_ns INTEGER NOT NULL,
  fires INTEGER NOT NULL,
  outcomes INTEGER NOT NULL,
  raw_pruned_unix_ns INTEGER   -- when `sleeve prune` deleted its fires and outcomes, or NULL
);

-- One row per (registration, variant) with outcomes in a summarized session: the registration
-- id's high 32 bits are the session (`session << 32 | n`). No foreign key: a registration row
-- lost to a failed write still has its outcomes summarized, as queries count them.
CREATE TABLE outcome_summaries (
  registration_id INTEGER NOT NULL,
  variant INTEGER NOT NULL,          -- 0 off, 1 on, -1 a handler no flag gates
  ok INTEGER NOT NULL,               -- outcomes by status (RecordCodes.Status)
  failed INTEGER NOT NULL,
  owner_released INTEGER NOT NULL,
  skipped INTEGER NOT NULL,
  cancelled INTEGER NOT NULL,
  recursion_limit INTEGER NOT NULL,
  -- The histogram of the ok and failed durations (nanoseconds): its scale and count, min and
  -- max here for SQL readers, and the whole of it (buckets, zero count, exact sum, min, max)
  -- in histogram, the sparse varint blob of HistogramCoding (Sources/SleeveStore/Summaries).
  scale INTEGER NOT NULL,
  count INTEGER NOT NULL,
  min_ns INTEGER,
  max_ns INTEGER,
  histogram BLOB NOT NULL,
  PRIMARY KEY (registration_id, variant)
) WITHOUT ROWID;

-- The failed outcomes of a summarized (registration, variant) by kind (error type and message
-- pattern, FailureKind in Sources/SleeveQuery), with one message as recorded (capped): what a
-- pruned session still says of its failures. At most 64 kinds per (registration, variant), the
-- most frequent; the rest of a type are counted under the pattern '…'.
CREATE TABLE failure_summaries (
  registration_id INTEGER NOT NULL,
  variant INTEGER NOT NULL,
  error_type TEXT NOT NULL,          -- '-' when none was recorded
  pattern TEXT NOT NULL,             -- '' when there was no message
  count INTEGER NOT NULL,
  sample_message TEXT,               -- one message of the kind, at most 200 scalars
  PRIMARY KEY (registration_id, variant, error_type, pattern)
) WITHOUT ROWID;
