-- Migration 0004's rules (Migrations/0004_interactions.sql), checked on a file written by SQL
-- (SleeveBench lint-db): each line is a rule and the number of rows breaking it, so every
-- count must be 0. Usage: sqlite3 FILE < scripts/lint-fixture-rules.sql
SELECT 'interactions whose fire range disagrees with fire_count or holds no fire',
  count(*) FROM interactions i WHERE i.fire_count != (
    SELECT count(*) FROM fires f WHERE f.id BETWEEN i.first_fire_id AND i.last_fire_id
      AND f.control_id = i.control_id AND f.origin = 0 AND f.depth = i.depth);
SELECT 'interaction ends not a fire of it', count(*) FROM interactions i WHERE NOT EXISTS (
    SELECT 1 FROM fires f WHERE f.id = i.first_fire_id AND f.control_id = i.control_id
      AND f.origin = 0 AND f.depth = i.depth) OR NOT EXISTS (
    SELECT 1 FROM fires f WHERE f.id = i.last_fire_id AND f.control_id = i.control_id
      AND f.origin = 0 AND f.depth = i.depth);
SELECT 'registrations without a lifetime', count(*) FROM registrations r
  WHERE NOT EXISTS (SELECT 1 FROM registration_lifetimes l WHERE l.registration_id = r.id);
SELECT 'removed registrations whose lifetime did not end (or the reverse)', count(*)
  FROM registrations r JOIN registration_lifetimes l ON l.registration_id = r.id
  WHERE (r.removal_reason IS NULL) != (l.removed_seq IS NULL);
SELECT 'lifetime order not one sequence', (SELECT count(*) FROM (SELECT added_seq s FROM registration_lifetimes UNION ALL SELECT removed_seq FROM registration_lifetimes WHERE removed_seq IS NOT NULL)) - (SELECT count(DISTINCT s) FROM (SELECT added_seq s FROM registration_lifetimes UNION ALL SELECT removed_seq FROM registration_lifetimes WHERE removed_seq IS NOT NULL));
SELECT 'replacements whose replaced registration is not replaced', count(*) FROM registration_lifetimes l
  JOIN registrations old ON old.id = l.replaced_registration_id WHERE old.removal_reason IS NOT 'replaced';
SELECT 'outcomes without their fire or registration', count(*) FROM outcomes o
  WHERE NOT EXISTS (SELECT 1 FROM fires f WHERE f.id = o.fire_id)
     OR NOT EXISTS (SELECT 1 FROM registrations r WHERE r.id = o.registration_id);
