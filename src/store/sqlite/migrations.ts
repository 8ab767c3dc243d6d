// Versioned schema. Applied in order at start, each in its own transaction, recorded in
// schema_migrations. Never edit a shipped migration: add the next one.
import type { DatabaseSync } from 'node:sqlite';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'approval flow',
    sql: `
CREATE TABLE projects (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  execution_mode TEXT NOT NULL CHECK (execution_mode IN ('container', 'mounted', 'runner')),
  root TEXT NOT NULL,
  workspace_dir_name TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  module_map TEXT NOT NULL,
  execution_activated_at TEXT,
  created_at TEXT NOT NULL
);
CREATE TABLE members (
  project_id TEXT NOT NULL REFERENCES projects (id),
  member_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('human', 'agent')),
  role TEXT NOT NULL CHECK (role IN ('developer', 'maintainer', 'owner')),
  updated_at TEXT NOT NULL,
  PRIMARY KEY (project_id, member_id)
);
CREATE TABLE agent_autonomy (
  project_id TEXT NOT NULL REFERENCES projects (id),
  agent_id TEXT NOT NULL,
  action_type TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('auto_approve', 'require_approval', 'deny')),
  updated_by TEXT,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (project_id, agent_id, action_type)
);
CREATE TABLE proposed_actions (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects (id),
  proposer_id TEXT NOT NULL,
  proposer_kind TEXT NOT NULL CHECK (proposer_kind IN ('human', 'agent')),
  action_type TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'auto_approved', 'approved', 'denied')),
  reason_code TEXT NOT NULL,
  reason TEXT NOT NULL,
  scope_root TEXT,
  decided_by TEXT,
  decided_at TEXT,
  denial_reason TEXT,
  live_merge_key TEXT UNIQUE,
  created_at TEXT NOT NULL
);
CREATE INDEX proposed_actions_by_project ON proposed_actions (project_id, status, created_at);
CREATE TABLE session_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id TEXT NOT NULL,
  type TEXT NOT NULL,
  actor_kind TEXT NOT NULL CHECK (actor_kind IN ('agent', 'user', 'system')),
  actor_id TEXT,
  action_id TEXT,
  payload TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX session_events_by_project ON session_events (project_id, id);
CREATE INDEX session_events_by_type ON session_events (project_id, type);
CREATE TRIGGER session_events_no_update BEFORE UPDATE ON session_events
  BEGIN SELECT RAISE(ABORT, 'session_events is append-only'); END;
CREATE TRIGGER session_events_no_delete BEFORE DELETE ON session_events
  BEGIN SELECT RAISE(ABORT, 'session_events is append-only'); END;
CREATE TABLE project_containers (
  project_id TEXT PRIMARY KEY REFERENCES projects (id),
  state TEXT NOT NULL CHECK (state IN ('absent', 'provisioning', 'running', 'stopped', 'failed')),
  container_id TEXT,
  updated_at TEXT NOT NULL
);
CREATE TABLE runner_tokens (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects (id),
  token_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE TABLE tasks (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects (id),
  title TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('todo', 'in_progress', 'blocked', 'done')),
  pr_number INTEGER,
  blocked_reason TEXT,
  blocked_source TEXT,
  updated_at TEXT NOT NULL
);
CREATE INDEX tasks_by_pr ON tasks (project_id, pr_number);
CREATE TABLE execution_handoffs (
  id TEXT PRIMARY KEY,
  action_id TEXT NOT NULL UNIQUE REFERENCES proposed_actions (id),
  project_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued', 'dispatched', 'executed', 'failed')),
  credential_ref TEXT,
  outcome TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX execution_handoffs_by_status ON execution_handoffs (status, created_at);
CREATE TABLE merged_prs (
  project_id TEXT NOT NULL,
  pr_number INTEGER NOT NULL,
  action_id TEXT NOT NULL,
  merged_at TEXT NOT NULL,
  PRIMARY KEY (project_id, pr_number)
);
`,
  },
  {
    version: 2,
    name: 'durable dispatch, suspended agent turns, verified workspaces',
    sql: `
ALTER TABLE execution_handoffs ADD COLUMN state TEXT NOT NULL DEFAULT 'queued'
  CHECK (state IN ('queued', 'sent', 'accepted', 'running', 'executed', 'failed'));
ALTER TABLE execution_handoffs ADD COLUMN attempt INTEGER NOT NULL DEFAULT 0;
ALTER TABLE execution_handoffs ADD COLUMN lease_until TEXT;
ALTER TABLE execution_handoffs ADD COLUMN target TEXT;
ALTER TABLE execution_handoffs ADD COLUMN sent_at TEXT;
ALTER TABLE execution_handoffs ADD COLUMN started_at TEXT;
ALTER TABLE execution_handoffs ADD COLUMN finished_at TEXT;
UPDATE execution_handoffs SET state = CASE status WHEN 'dispatched' THEN 'sent' ELSE status END;
CREATE INDEX execution_handoffs_by_state ON execution_handoffs (state, created_at);
CREATE TABLE agent_turns (
  action_id TEXT PRIMARY KEY REFERENCES proposed_actions (id),
  project_id TEXT NOT NULL,
  agent_id TEXT NOT NULL,
  task_id TEXT,
  state TEXT NOT NULL CHECK (state IN ('awaiting_approval', 'settled', 'lost')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX agent_turns_by_state ON agent_turns (state, created_at);
ALTER TABLE projects ADD COLUMN workspace_verified_at TEXT;
`,
  },
  {
    version: 3,
    name: 'dispatch owner node',
    // The node that claimed a dispatch owns it: a node's start-up or death settles only its own
    // rows (src/cluster). A single SQLite node owns them all; the column keeps the schemas in step.
    sql: `
ALTER TABLE execution_handoffs ADD COLUMN owner_node TEXT;
`,
  },
  {
    version: 4,
    name: 'runner reports recorded after settlement',
    sql: `
CREATE TABLE dispatch_reports (
  dispatch_id TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  recorded_at TEXT NOT NULL,
  PRIMARY KEY (dispatch_id, attempt)
);
`,
  },
  {
    version: 5,
    name: 'project sandbox requirement',
    // Issue 9 B.3: a project can require that its auto-approved commands run sandboxed; the
    // dispatcher then never sends them to a runner that reports no sandbox.
    sql: `
ALTER TABLE projects ADD COLUMN sandbox_required INTEGER NOT NULL DEFAULT 0;
`,
  },
  {
    version: 6,
    name: 'credentials: agent, human and service tokens; expiry and last use for runner tokens',
    sql: `
CREATE TABLE credentials (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('agent', 'human', 'service')),
  token_hash TEXT NOT NULL UNIQUE,
  project_id TEXT REFERENCES projects (id),
  subject TEXT NOT NULL,
  label TEXT,
  created_by TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT,
  last_used_at TEXT,
  revoked_at TEXT
);
CREATE INDEX credentials_by_subject ON credentials (kind, subject);
CREATE INDEX credentials_by_project ON credentials (project_id);
ALTER TABLE runner_tokens ADD COLUMN label TEXT;
ALTER TABLE runner_tokens ADD COLUMN created_by TEXT;
ALTER TABLE runner_tokens ADD COLUMN expires_at TEXT;
ALTER TABLE runner_tokens ADD COLUMN last_used_at TEXT;
`,
  },
  {
    version: 7,
    name: 'credentials: executor tokens (external executors of git, PR and plan actions)',
    // Issue 15.1: SQLite cannot widen a CHECK in place, so the table is rebuilt with its rows.
    sql: `
CREATE TABLE credentials_v7 (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('agent', 'human', 'service', 'executor')),
  token_hash TEXT NOT NULL UNIQUE,
  project_id TEXT REFERENCES projects (id),
  subject TEXT NOT NULL,
  label TEXT,
  created_by TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT,
  last_used_at TEXT,
  revoked_at TEXT
);
INSERT INTO credentials_v7 SELECT id, kind, token_hash, project_id, subject, label, created_by, created_at, expires_at, last_used_at, revoked_at FROM credentials;
DROP TABLE credentials;
ALTER TABLE credentials_v7 RENAME TO credentials;
CREATE INDEX credentials_by_subject ON credentials (kind, subject);
CREATE INDEX credentials_by_project ON credentials (project_id);
`,
  },
  {
    version: 8,
    name: 'credentials: admin credentials (hashed, revocable, with expiry and last use; issue 12)',
    sql: `
CREATE TABLE credentials_v8 (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('admin', 'agent', 'human', 'service', 'executor')),
  token_hash TEXT NOT NULL UNIQUE,
  project_id TEXT REFERENCES projects (id),
  subject TEXT NOT NULL,
  label TEXT,
  created_by TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT,
  last_used_at TEXT,
  revoked_at TEXT
);
INSERT INTO credentials_v8 SELECT id, kind, token_hash, project_id, subject, label, created_by, created_at, expires_at, last_used_at, revoked_at FROM credentials;
DROP TABLE credentials;
ALTER TABLE credentials_v8 RENAME TO credentials;
CREATE INDEX credentials_by_subject ON credentials (kind, subject);
CREATE INDEX credentials_by_project ON credentials (project_id);
`,
  },
];

/** Applies every migration newer than the recorded version. Returns the versions applied. */
export function applyMigrations(db: DatabaseSync, migrations: readonly Migration[] = MIGRATIONS): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
  const current = row.v ?? 0;
  const applied: number[] = [];
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
    applied.push(migration.version);
  }
  return applied;
}
