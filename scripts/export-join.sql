-- The join `sleeve export --format csv|ndjson` writes, for the sqlite3 CLI (the export
-- benchmark's baseline in scripts/bench): one row per outcome with its fire, handler, control
-- and session, codes turned into names. Run as `sqlite3 -csv -header FILE < this` or `-json`.
SELECT s.uuid AS session_uuid, s.name AS session_name, f.id & 1099511627775 AS fire_number,
  f.parent_fire_id & 1099511627775 AS parent_fire_number, c.name AS control, c.kind AS control_kind,
  f.events, CASE f.origin WHEN 0 THEN 'interaction' ELSE 'programmatic' END AS origin, f.depth,
  s.started_unix_ns + f.at_ns AS fired_unix_ns, o.id & 1099511627775 AS outcome_number,
  r.handler, r.identifier, r.kind, r.site, r.flag_key,
  CASE o.variant WHEN 1 THEN 'on' WHEN 0 THEN 'off' END AS variant, fs.name AS flag_state,
  CASE o.is_async WHEN 1 THEN 'true' ELSE 'false' END AS is_async, st.name AS status,
  sr.name AS skip_reason, s.started_unix_ns + o.started_ns AS started_unix_ns,
  strftime('%Y-%m-%dT%H:%M:%fZ', (s.started_unix_ns + o.started_ns) / 1e9, 'unixepoch') AS started_at,
  o.duration_ns, o.error_type, o.error_message
FROM outcomes o JOIN fires f ON f.id = o.fire_id JOIN registrations r ON r.id = o.registration_id
JOIN controls c ON c.id = r.control_id JOIN sessions s ON s.id = r.session_id
JOIN outcome_statuses st ON st.code = o.status LEFT JOIN skip_reasons sr ON sr.code = o.reason
LEFT JOIN flag_states fs ON fs.code = o.flag_state
ORDER BY o.fire_id, o.id;
