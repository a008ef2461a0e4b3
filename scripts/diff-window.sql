-- The percentiles of `sleeve diff --baseline 'branch=main'` (candidate: the default
-- 'session=last'), per side and handler (p50, p95, p99; linear interpolation between closest
-- ranks, over outcomes that ran), computed by SQLite alone with window functions:
-- scripts/bench times it against the sleeve command on the same file.
-- Output: side|handler|n|p50|p95|p99, values in nanoseconds with three decimals.
WITH candidate AS (
  SELECT id FROM sessions ORDER BY started_unix_ns DESC, id DESC LIMIT 1
),
sides AS (
  SELECT s.id AS session_id, CASE WHEN s.id = (SELECT id FROM candidate) THEN 'candidate'
    ELSE 'baseline' END AS side
  FROM sessions s LEFT JOIN session_context x ON x.session_id = s.id
  WHERE s.id = (SELECT id FROM candidate) OR x.branch = 'main'
),
ranked AS (
  SELECT sd.side AS side, r.handler AS handler, o.duration_ns AS d,
    row_number() OVER (PARTITION BY sd.side, r.handler ORDER BY o.duration_ns) - 1 AS i,
    count(*) OVER (PARTITION BY sd.side, r.handler) AS n
  FROM outcomes o JOIN registrations r ON r.id = o.registration_id
    JOIN sides sd ON sd.session_id = r.session_id
  WHERE o.status IN (0, 1)
),
bounds AS (
  SELECT side, handler, n,
    max(CASE WHEN i = CAST((n - 1) * 0.50 AS INTEGER) THEN d END) AS lo50,
    max(CASE WHEN i = CAST((n - 1) * 0.50 AS INTEGER) + 1 THEN d END) AS hi50,
    max(CASE WHEN i = CAST((n - 1) * 0.95 AS INTEGER) THEN d END) AS lo95,
    max(CASE WHEN i = CAST((n - 1) * 0.95 AS INTEGER) + 1 THEN d END) AS hi95,
    max(CASE WHEN i = CAST((n - 1) * 0.99 AS INTEGER) THEN d END) AS lo99,
    max(CASE WHEN i = CAST((n - 1) * 0.99 AS INTEGER) + 1 THEN d END) AS hi99
  FROM ranked GROUP BY side, handler
)
SELECT side, handler, n,
  printf('%.3f', lo50 + ((n - 1) * 0.50 - CAST((n - 1) * 0.50 AS INTEGER)) * (coalesce(hi50, lo50) - lo50)),
  printf('%.3f', lo95 + ((n - 1) * 0.95 - CAST((n - 1) * 0.95 AS INTEGER)) * (coalesce(hi95, lo95) - lo95)),
  printf('%.3f', lo99 + ((n - 1) * 0.99 - CAST((n - 1) * 0.99 AS INTEGER)) * (coalesce(hi99, lo99) - lo99))
FROM bounds ORDER BY side, handler;
