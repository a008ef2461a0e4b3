-- Sleeve schema, migration 0001: sessions and everything recorded in them.
--
-- Never edit this file once shipped: add a new migration instead.
--
-- Identifiers (superseded by 0002_row_ids.sql: ids are now session << 32 | n; read it there).
-- Rows of controls, registrations, fires and outcomes have ids of the form
-- (session id << 40) | n, where n is the process-wide number of the control, registration or
-- fire (or, for outcomes, a per-session sequence). So `id >> 40` is always the session id,
-- rows of one session are contiguous in each table, and a session's rows are read with a range
-- scan of the primary key, without a secondary index.
--
-- Times. Columns ending in _unix_ns are wall-clock Unix epoch nanoseconds (UTC). Columns ending
-- in _ns alone are monotonic nanoseconds since the session started (sessions.started_unix_ns).
-- duration_ns is a monotonic duration.
--
-- Codes. Small integer codes keep the high-volume rows small; their names are in the lookup
-- tables below, for joins.

CREATE TABLE sessions (
  id INTEGER PRIMARY KEY,
  uuid TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  tags_json TEXT NOT NULL DEFAULT '[]',
  started_unix_ns INTEGER NOT NULL,
  ended_unix_ns INTEGER,
  heartbeat_unix_ns INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('running', 'ended')),
  durability TEXT NOT NULL CHECK (durability IN ('batched', 'strict')),
  dropped_events INTEGER NOT NULL DEFAULT 0,
  failed_events INTEGER NOT NULL DEFAULT 0,
  write_errors INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  host TEXT NOT NULL,
  pid INTEGER NOT NULL,
  os TEXT NOT NULL,
  runtime TEXT NOT NULL,
  sleeve_version TEXT NOT NULL,
  sqlite_version TEXT NOT NULL,
  metadata_json TEXT NOT NULL DEFAULT '{}'
);

CREATE TABLE controls (
  id INTEGER PRIMARY KEY,
  session_id INTEGER NOT NULL REFERENCES sessions (id),
  name TEXT NOT NULL,
  kind TEXT NOT NULL
);

CREATE TABLE registrations (
  id INTEGER PRIMARY KEY,
  session_id INTEGER NOT NULL REFERENCES sessions (id),
  control_id INTEGER NOT NULL REFERENCES controls (id),
  events INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('closure', 'targetAction')),
  handler TEXT NOT NULL,
  identifier TEXT,
  flag_key TEXT,
  is_async INTEGER NOT NULL,
  anchor_type TEXT,
  site TEXT NOT NULL,
  registered_at_ns INTEGER NOT NULL,
  removed_at_ns INTEGER,
  removal_reason TEXT
    CHECK (removal_reason IN ('cancelled', 'replaced', 'removed', 'ownerReleased'))
);

CREATE TABLE fire_origins (code INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
INSERT INTO fire_origins VALUES (0, 'interaction'), (1, 'programmatic');

CREATE TABLE fires (
  id INTEGER PRIMARY KEY,
  control_id INTEGER NOT NULL REFERENCES controls (id),
  events INTEGER NOT NULL,
  origin INTEGER NOT NULL CHECK (origin IN (0, 1)),
  parent_fire_id INTEGER, -- the parent's fires.id when it was recorded in the same session
  depth INTEGER NOT NULL,
  at_ns INTEGER NOT NULL
);

CREATE TABLE outcome_statuses (code INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
INSERT INTO outcome_statuses VALUES
  (0, 'ok'), (1, 'failed'), (2, 'ownerReleased'), (3, 'skipped'), (4, 'cancelled'),
  (5, 'recursionLimit');

CREATE TABLE skip_reasons (code INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
INSERT INTO skip_reasons VALUES (1, 'flagOff'), (2, 'removed'), (3, 'disabled');

CREATE TABLE flag_states (code INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
INSERT INTO flag_states VALUES (0, 'unknown'), (1, 'enabled'), (2, 'disabled'), (3, 'rolledBack');

CREATE TABLE outcomes (
  id INTEGER PRIMARY KEY,
  fire_id INTEGER NOT NULL REFERENCES fires (id),
  registration_id INTEGER NOT NULL REFERENCES registrations (id),
  status INTEGER NOT NULL CHECK (status BETWEEN 0 AND 5),
  reason INTEGER CHECK (reason BETWEEN 1 AND 3),
  variant INTEGER CHECK (variant IN (0, 1)), -- NULL: not flag-gated; 0: off; 1: on
  flag_state INTEGER CHECK (flag_state BETWEEN 0 AND 3),
  is_async INTEGER NOT NULL,
  started_ns INTEGER NOT NULL,
  duration_ns INTEGER NOT NULL,
  error_type TEXT,
  error_message TEXT
);

CREATE TABLE flags (
  session_id INTEGER NOT NULL REFERENCES sessions (id),
  key TEXT NOT NULL,
  owner TEXT NOT NULL,
  max_error_rate REAL,
  max_p99_ns INTEGER,
  min_samples INTEGER NOT NULL,
  PRIMARY KEY (session_id, key)
);

-- Flag state changes. session_id is NULL for a change made outside a recorded session (from
-- the command line); at_ns is then NULL too.
CREATE TABLE flag_events (
  id INTEGER PRIMARY KEY,
  session_id INTEGER REFERENCES sessions (id),
  key TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('enabled', 'disabled', 'rolledBack')),
  reason TEXT,
  actor TEXT,
  at_unix_ns INTEGER NOT NULL,
  at_ns INTEGER
);

CREATE INDEX flag_events_by_key ON flag_events (key, at_unix_ns);
