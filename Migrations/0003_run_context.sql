-- Sleeve schema, migration 0003: where each session ran, which test it recorded, and the
-- handlers a team has quarantined.
--
-- Never edit this file once shipped: add a new migration instead.
--
-- A file from before this migration is still read by queries: its sessions have no context
-- (every column below reads as NULL) and nothing is quarantined. Writers and `sleeve migrate`
-- add these tables; no existing row changes.

-- One row per session that knows anything of where it ran. Every column is NULL when unknown
-- (outside CI, or a variable the CI system did not set). Values are as the CI system gave them,
-- capped as recorded text is, except branch: `refs/heads/` is taken off a branch ref.
CREATE TABLE session_context (
  session_id INTEGER PRIMARY KEY REFERENCES sessions (id),
  ci_system TEXT,     -- 'github-actions', 'gitlab-ci', 'buildkite', 'circleci', 'jenkins',
                      -- 'azure-pipelines', or NULL (outside CI, or only SLEEVE_* overrides)
  commit_sha TEXT,    -- the commit the run built
  branch TEXT,        -- the branch (or, failing that, the ref) the run built
  pull_request TEXT,  -- the pull/merge request number, when the run is for one
  pipeline TEXT,      -- the pipeline, workflow run or build id
  attempt TEXT,       -- the attempt (re-run) number of that pipeline or job
  job TEXT,           -- the job's name
  runner TEXT,        -- the runner's (agent's, executor's) name
  repository TEXT,    -- the repository, as the CI system names it
  build_url TEXT,     -- a link to the run
  test_id TEXT,       -- the recorded test's full id (Swift Testing's or XCTest's)
  test_name TEXT,     -- the test's display name
  test_suite TEXT,    -- the suite (type) the test belongs to
  test_tags_json TEXT NOT NULL DEFAULT '[]', -- the test's tags, a JSON array of strings
  test_result TEXT CHECK (test_result IN ('passed', 'failed', 'threw', 'skipped'))
);

CREATE INDEX session_context_by_commit ON session_context (commit_sha);
CREATE INDEX session_context_by_branch ON session_context (branch);

-- Handlers whose failures `sleeve check` counts as advisory. A handler is named as reports
-- name it; control NULL quarantines it on every control.
CREATE TABLE quarantine (
  id INTEGER PRIMARY KEY,
  control TEXT,
  handler TEXT NOT NULL,
  reason TEXT NOT NULL,
  actor TEXT,
  added_unix_ns INTEGER NOT NULL
);

-- One entry per (handler, control): a NULL control is keyed by a blob, which no control name
-- (text) equals.
CREATE UNIQUE INDEX quarantine_by_handler ON quarantine (handler, coalesce(control, x'00'));
