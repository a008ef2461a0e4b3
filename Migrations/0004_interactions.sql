-- Sleeve schema, migration 0004: what `sleeve lint` needs that earlier migrations did not
-- record: which fires were one user interaction, when each handler was live relative to the
-- others, which registration replaced which, and the findings a team has suppressed.
--
-- Never edit this file once shipped: add a new migration instead.
--
-- It only adds tables, so a file from before it is still read: its sessions have no
-- interactions and no lifetimes (lint says which checks it could not run for them), and
-- nothing is suppressed. Writers and `sleeve migrate` add these tables; no existing row
-- changes.

-- One row per user interaction (a tap, a toggle, typing): what the user did, not an event.
-- Its fires are exactly the fires of control_id with origin 0 (interaction) and depth `depth`
-- whose ids lie between first_fire_id and last_fire_id (both included); a fire its handlers
-- sent is deeper. No foreign key on the fire ids: a fire dropped under a full buffer leaves
-- the interaction's row in place.
CREATE TABLE interactions (
  id INTEGER PRIMARY KEY,          -- (session id << 32) | n, n in the order interactions end
  control_id INTEGER NOT NULL REFERENCES controls (id),
  gesture TEXT NOT NULL,           -- 'tap', 'toggle', 'type', an app's own name, or the
                                   -- events of a lone sendInteraction ('valueChanged')
  was_enabled INTEGER NOT NULL CHECK (was_enabled IN (0, 1)),
  depth INTEGER NOT NULL,          -- its fires' depth: 1 unless a handler sent it
  first_fire_id INTEGER NOT NULL,
  last_fire_id INTEGER NOT NULL,
  fire_count INTEGER NOT NULL,
  at_ns INTEGER NOT NULL,
  ended_ns INTEGER NOT NULL
);

-- One row per registration the session recorded: its place in the order of the session's
-- registry changes, so "were these two handlers live at the same time" is exact (timestamps
-- can tie). added_seq and removed_seq count the session's additions and removals (1, 2, ...)
-- in the order they happened; two registrations were live at once when each was added
-- before the other was removed (a NULL removed_seq is never removed).
CREATE TABLE registration_lifetimes (
  registration_id INTEGER PRIMARY KEY REFERENCES registrations (id),
  added_seq INTEGER NOT NULL,
  removed_seq INTEGER,
  -- The registration this one replaced by identifier (its removal_reason is 'replaced'),
  -- when it did.
  replaced_registration_id INTEGER REFERENCES registrations (id)
);

-- Lint findings a team has suppressed: check `check_id` at registration site `site`
-- (`File.swift:42`, as registrations.site holds it) or, for a control's own finding, at the
-- control's name. Not tied to a session: `merge` copies every row.
CREATE TABLE lint_suppressions (
  id INTEGER PRIMARY KEY,
  check_id TEXT NOT NULL,
  site TEXT NOT NULL,
  reason TEXT NOT NULL,
  actor TEXT,
  added_unix_ns INTEGER NOT NULL,
  UNIQUE (check_id, site)
);
