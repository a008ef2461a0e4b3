-- Sleeve schema, migration 0008: OTLP/HTTP deliveries. What `sleeve export --endpoint` and a
-- recorder's push at session end delivered, to which endpoint, request by request, so a push
-- that stopped resumes where it stopped and a second push sends nothing new.
--
-- Never edit this file once shipped: add a new migration instead.
--
-- It only adds tables, so a file from before it is still read: nothing was delivered from it.
-- Writers and `sleeve migrate` add these tables; no existing row changes.

-- A request of a session's signal that the receiver accepted (HTTP 2xx). Requests are cut
-- from the session's stream where only what came before decides, so the same session cuts
-- the same way each time: a request is known by its position and the digest of its body.
CREATE TABLE otlp_deliveries (
  session_id INTEGER NOT NULL REFERENCES sessions (id),
  endpoint TEXT NOT NULL,           -- the URL it was posted to, without credentials
  signal TEXT NOT NULL CHECK (signal IN ('traces', 'metrics')),
  sequence INTEGER NOT NULL CHECK (sequence >= 1),
  first_fire INTEGER NOT NULL,      -- the fire numbers of its first and last fire group
  last_fire INTEGER NOT NULL,       -- (metrics: 0 and 0)
  items INTEGER NOT NULL CHECK (items >= 0),    -- spans or data points it held
  rejected INTEGER NOT NULL DEFAULT 0 CHECK (rejected >= 0),  -- of them, refused by the
                                    -- receiver in a partial success
  digest INTEGER NOT NULL,          -- OTLPBodyDigest of the uncompressed body, signed 64-bit
  delivered_unix_ns INTEGER NOT NULL,
  PRIMARY KEY (session_id, endpoint, signal, sequence)
);

-- Where each session's delivery of a signal to an endpoint stands after the last push. A
-- session delivered whole after it ended is not read again: it cannot change (so a newer
-- binary, whose bodies differ, does not send it twice either).
CREATE TABLE otlp_delivery_state (
  session_id INTEGER NOT NULL REFERENCES sessions (id),
  endpoint TEXT NOT NULL,
  signal TEXT NOT NULL CHECK (signal IN ('traces', 'metrics')),
  state TEXT NOT NULL CHECK (state IN ('delivered', 'partial', 'failed')),
  session_ended INTEGER NOT NULL CHECK (session_ended IN (0, 1)),  -- it had ended by then
  attempted_unix_ns INTEGER NOT NULL,
  last_error TEXT,                  -- why the last push stopped short (state 'failed')
  PRIMARY KEY (session_id, endpoint, signal)
);
