-- Sleeve schema, migration 0006: summaries rolled up across sessions, so a query over a long
-- history reads a few rows per handler instead of one per handler and session.
--
-- Never edit this file once shipped: add a new migration instead.
--
-- It only adds tables, so a file from before it is still read: it has no rollups, and queries
-- read each session's summaries (and say nothing different: the answer is the same). Writers
-- and `sleeve migrate` add these tables; no existing row changes.
--
-- Sessions are grouped in blocks of 64 by id (block = session_id >> 6). A block's rollup is
-- the exact merge of the summaries of its summarized sessions, per handler identity and
-- variant. It is kept up to date by whatever writes summaries (a session's end, `merge`,
-- `sleeve summarize`); a reader uses it only when the block's row still describes the
-- summarized sessions the file holds (their count and the sum of their ids) and every one of
-- them is selected, and reads the sessions one by one otherwise.

CREATE TABLE summary_blocks (
  block INTEGER PRIMARY KEY,           -- session_id >> 6
  sessions INTEGER NOT NULL,           -- summarized sessions the rollup holds
  session_id_sum INTEGER NOT NULL      -- the sum of their ids
);

-- One row per (block, handler identity, variant): the identity is what queries route a
-- registration by (its control's name, handler, identifier, site and flag), so every grouping
-- but `--by session` and every handler filter applies to a rollup row as to a registration.
CREATE TABLE summary_rollups (
  block INTEGER NOT NULL,
  identity TEXT NOT NULL,              -- the five fields below as one key (SummaryRollups)
  control TEXT,
  handler TEXT NOT NULL,
  identifier TEXT,
  site TEXT,
  flag_key TEXT,
  variant INTEGER NOT NULL,            -- 0 off, 1 on, -1 a handler no flag gates
  ok INTEGER NOT NULL,                 -- outcomes by status (RecordCodes.Status)
  failed INTEGER NOT NULL,
  owner_released INTEGER NOT NULL,
  skipped INTEGER NOT NULL,
  cancelled INTEGER NOT NULL,
  recursion_limit INTEGER NOT NULL,
  histogram BLOB NOT NULL,             -- HistogramCoding, as outcome_summaries.histogram
  PRIMARY KEY (block, identity, variant)
) WITHOUT ROWID;
