-- The exact numpy method='lower' percentiles (p50, p95, p99) per handler over every session's
-- outcomes that ran, computed by SQLite alone with window functions: the value at 0-based rank
-- floor((n - 1) * p / 100), with (n - 1) * p / 100 in floating point as numpy computes it.
-- scripts/bench times it against `sleeve latency --method histogram` on the same file and
-- checks every summary percentile against it within the stated bound.
-- Output: handler|n|p50|p95|p99, integers (nanoseconds; 'lower' returns one of the values).
WITH ranked AS (
  SELECT r.handler AS handler, o.duration_ns AS d,
    row_number() OVER (PARTITION BY r.handler ORDER BY o.duration_ns) - 1 AS i,
    count(*) OVER (PARTITION BY r.handler) AS n
  FROM outcomes o JOIN registrations r ON r.id = o.registration_id
  WHERE o.status IN (0, 1)
)
SELECT handler, n,
  max(CASE WHEN i = CAST((n - 1) * 0.50 AS INTEGER) THEN d END),
  max(CASE WHEN i = CAST((n - 1) * 0.95 AS INTEGER) THEN d END),
  max(CASE WHEN i = CAST((n - 1) * 0.99 AS INTEGER) THEN d END)
FROM ranked GROUP BY handler ORDER BY handler;
