-- The latency answer of `sleeve latency --session all --by handler` (p50, p95, p99; linear
-- interpolation between closest ranks, over outcomes that ran), computed by SQLite alone with
-- window functions: scripts/bench times it against the sleeve command on the same file.
-- Output: handler|n|p50|p95|p99, values in nanoseconds with three decimals.
WITH ranked AS (
  SELECT r.handler AS handler, o.duration_ns AS d,
    row_number() OVER (PARTITION BY r.handler ORDER BY o.duration_ns) - 1 AS i,
    count(*) OVER (PARTITION BY r.handler) AS n
  FROM outcomes o JOIN registrations r ON r.id = o.registration_id
  WHERE o.status IN (0, 1)
),
bounds AS (
  SELECT handler, n,
    max(CASE WHEN i = CAST((n - 1) * 0.50 AS INTEGER) THEN d END) AS lo50,
    max(CASE WHEN i = CAST((n - 1) * 0.50 AS INTEGER) + 1 THEN d END) AS hi50,
    max(CASE WHEN i = CAST((n - 1) * 0.95 AS INTEGER) THEN d END) AS lo95,
    max(CASE WHEN i = CAST((n - 1) * 0.95 AS INTEGER) + 1 THEN d END) AS hi95,
    max(CASE WHEN i = CAST((n - 1) * 0.99 AS INTEGER) THEN d END) AS lo99,
    max(CASE WHEN i = CAST((n - 1) * 0.99 AS INTEGER) + 1 THEN d END) AS hi99
  FROM ranked GROUP BY handler
)
SELECT handler, n,
  printf('%.3f', lo50 + ((n - 1) * 0.50 - CAST((n - 1) * 0.50 AS INTEGER)) * (coalesce(hi50, lo50) - lo50)),
  printf('%.3f', lo95 + ((n - 1) * 0.95 - CAST((n - 1) * 0.95 AS INTEGER)) * (coalesce(hi95, lo95) - lo95)),
  printf('%.3f', lo99 + ((n - 1) * 0.99 - CAST((n - 1) * 0.99 AS INTEGER)) * (coalesce(hi99, lo99) - lo99))
FROM bounds ORDER BY handler;
