-- Sleeve schema, migration 0002: row ids become (session id << 32) | n.
--
-- Never edit this file once shipped: add a new migration instead.
--
-- Identifiers. From this migration on, rows of controls, registrations, fires and outcomes have
-- ids of the form (session id << 32) | n: sessions 1 to 2,147,483,647 (2^31 - 1) per file, and
-- n from 1 to 4,294,967,295 (2^32 - 1) per session and table. n is the row's number within its
-- session: controls and registrations are numbered in the order the session first wrote them,
-- fires from the session's first fire on (1 + the distance from it in the process's firing
-- order), outcomes in sequence. So `id >> 32` is always the session id, rows of one session are
-- contiguous in each table, and a session's rows are read with a range scan of the primary key,
-- without a secondary index. (0001 used (session id << 40) | n with process-wide numbers: about
-- 8.4 million sessions per file, and numbers that grew with the life of the process.)
--
-- This migration rewrites the ids (and the columns that hold ids) of a file written with
-- 0001's layout, keeping n: the fire and outcome numbers that export prints, and the
-- OpenTelemetry ids derived from them, stay the same. It refuses, changing nothing, a file
-- holding an id that does not fit: n of 2^32 or more, or a session part below 1. The rewrite
-- goes through negative ids so that no new id can meet an old one, whatever order SQLite
-- updates the rows in. The migrator runs migrations with foreign keys off (rows are rewritten
-- in place, parents before their children).

CREATE TEMP TABLE migration_0002_misfit (tab TEXT NOT NULL);

CREATE TEMP TRIGGER migration_0002_refuse BEFORE INSERT ON migration_0002_misfit
BEGIN
  SELECT RAISE(ABORT, 'a row id of controls, registrations, fires or outcomes does not fit session << 32 | number (its number is 2^32 or more, or its session part is below 1)');
END;

INSERT INTO migration_0002_misfit
SELECT 'row' WHERE
  EXISTS (SELECT 1 FROM controls
    WHERE id < 0x10000000000 OR (id & 0xFFFFFFFFFF) > 0xFFFFFFFF)
  OR EXISTS (SELECT 1 FROM registrations
    WHERE id < 0x10000000000 OR (id & 0xFFFFFFFFFF) > 0xFFFFFFFF
      OR control_id < 0x10000000000 OR (control_id & 0xFFFFFFFFFF) > 0xFFFFFFFF)
  OR EXISTS (SELECT 1 FROM fires
    WHERE id < 0x10000000000 OR (id & 0xFFFFFFFFFF) > 0xFFFFFFFF
      OR control_id < 0x10000000000 OR (control_id & 0xFFFFFFFFFF) > 0xFFFFFFFF
      OR parent_fire_id < 0x10000000000 OR (parent_fire_id & 0xFFFFFFFFFF) > 0xFFFFFFFF)
  OR EXISTS (SELECT 1 FROM outcomes
    WHERE id < 0x10000000000 OR (id & 0xFFFFFFFFFF) > 0xFFFFFFFF
      OR fire_id < 0x10000000000 OR (fire_id & 0xFFFFFFFFFF) > 0xFFFFFFFF
      OR registration_id < 0x10000000000 OR (registration_id & 0xFFFFFFFFFF) > 0xFFFFFFFF);

DROP TRIGGER migration_0002_refuse;
DROP TABLE migration_0002_misfit;

-- Every id is now known to be (s << 40) | n with s >= 1 and n < 2^32: the new id
-- (s << 32) | n is positive, so its negation is free, and distinct ids stay distinct.
UPDATE controls SET id = -(((id >> 40) << 32) | (id & 0xFFFFFFFF));
UPDATE controls SET id = -id;

UPDATE registrations SET
  id = -(((id >> 40) << 32) | (id & 0xFFFFFFFF)),
  control_id = ((control_id >> 40) << 32) | (control_id & 0xFFFFFFFF);
UPDATE registrations SET id = -id;

UPDATE fires SET
  id = -(((id >> 40) << 32) | (id & 0xFFFFFFFF)),
  control_id = ((control_id >> 40) << 32) | (control_id & 0xFFFFFFFF),
  parent_fire_id = ((parent_fire_id >> 40) << 32) | (parent_fire_id & 0xFFFFFFFF);
UPDATE fires SET id = -id;

UPDATE outcomes SET
  id = -(((id >> 40) << 32) | (id & 0xFFFFFFFF)),
  fire_id = ((fire_id >> 40) << 32) | (fire_id & 0xFFFFFFFF),
  registration_id = ((registration_id >> 40) << 32) | (registration_id & 0xFFFFFFFF);
UPDATE outcomes SET id = -id;
