-- Sleeve schema, migration 0007: percentage rollouts. Which share a flag served, how each
-- gated outcome was assigned, and how a flag definition rolls out (unit, salt, stages) and
-- which of its checks decide.
--
-- Never edit this file once shipped: add a new migration instead.
--
-- It only adds tables, so a file from before it is still read: it has no rollouts. Writers
-- and `sleeve migrate` add these tables; no existing row changes.

-- A flag state change to `rollingOut`: its flag_events row says 'disabled' (the CHECK of
-- 0001 allows no other name, and a binary older than this migration then serves the flag
-- off, the safe reading), and this row says it is a rollout serving basis_points / 100
-- percent of units on.
CREATE TABLE flag_rollouts (
  flag_event_id INTEGER PRIMARY KEY REFERENCES flag_events (id),
  basis_points INTEGER NOT NULL CHECK (basis_points BETWEEN 0 AND 10000)
);

-- A gated outcome served while its flag was rolling out. Its outcomes row holds the variant
-- served and, as flag_state, the state that variant amounts to (1 enabled for on, 2 disabled
-- for off), so readers before this migration read it consistently.
CREATE TABLE outcome_rollouts (
  outcome_id INTEGER PRIMARY KEY,   -- outcomes.id: (session id << 32) | n
  basis_points INTEGER NOT NULL CHECK (basis_points BETWEEN 0 AND 10000),
  assignment INTEGER                -- the unit's RolloutHash as a signed 64-bit integer;
                                    -- NULL: the unit was unknown (served off, unassigned)
);

-- How a session's flag definition rolls out.
CREATE TABLE flag_rollout_plans (
  session_id INTEGER NOT NULL REFERENCES sessions (id),
  key TEXT NOT NULL,
  unit TEXT,                        -- 'fire', 'session', 'key:NAME'; NULL: none declared (fire)
  salt TEXT NOT NULL,
  PRIMARY KEY (session_id, key)
);

-- The stages of a flag definition's rollout, in order, each share above the one before.
CREATE TABLE flag_rollout_stages (
  session_id INTEGER NOT NULL REFERENCES sessions (id),
  key TEXT NOT NULL,
  position INTEGER NOT NULL,        -- 1, 2, ...
  basis_points INTEGER NOT NULL CHECK (basis_points BETWEEN 1 AND 10000),
  min_samples INTEGER NOT NULL CHECK (min_samples >= 1),
  PRIMARY KEY (session_id, key, position)
);

-- The checks a flag definition does not count as critical (the default).
CREATE TABLE flag_check_severities (
  session_id INTEGER NOT NULL REFERENCES sessions (id),
  key TEXT NOT NULL,
  check_name TEXT NOT NULL,         -- 'errorRate', 'p99', 'errorRateVersusOff', 'latencyVersusOff'
  severity TEXT NOT NULL CHECK (severity IN ('critical', 'advisory')),
  PRIMARY KEY (session_id, key, check_name)
);
