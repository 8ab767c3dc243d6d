// Versioned schema for Postgres, the same versions and names as the SQLite migrations (a test
// keeps them in step). Applied at start in ONE transaction that first takes an advisory lock, so
// when several nodes start at once one migrates and the others wait, then find nothing to do.
// Never edit a shipped migration: add the next one.
//
// Column types: timestamps stay ISO-8601 text (the interfaces carry strings; text round-trips them
// exactly and sorts chronologically), JSON is jsonb, the event cursor a bigint identity.
import { LOCK_CLASS } from './locks.ts';
import type { Queryable } from './sql.ts';

export interface PostgresMigration {
  version: number;
  name: string;
  sql: string;
}

export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'approval flow',
    sql: `
CREATE TABLE projects (
  id text PRIMARY KEY,
  name text NOT NULL,
  slug text NOT NULL,
  execution_mode text NOT NULL CHECK (execution_mode IN ('container', 'mounted', 'runner')),
  root text NOT NULL,
  workspace_dir_name text NOT NULL,
  owner_id text NOT NULL,
  module_map jsonb NOT NULL,
  execution_activated_at text,
  created_at text NOT NULL
);
CREATE TABLE members (
  project_id text NOT NULL REFERENCES projects (id),
  member_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('human', 'agent')),
  role text NOT NULL CHECK (role IN ('developer', 'maintainer', 'owner')),
  updated_at text NOT NULL,
  PRIMARY KEY (project_id, member_id)
);
CREATE TABLE agent_autonomy (
  project_id text NOT NULL REFERENCES projects (id),
  agent_id text NOT NULL,
  action_type text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('auto_approve', 'require_approval', 'deny')),
  updated_by text,
  updated_at text NOT NULL,
  PRIMARY KEY (project_id, agent_id, action_type)
);
CREATE TABLE proposed_actions (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id),
  proposer_id text NOT NULL,
  proposer_kind text NOT NULL CHECK (proposer_kind IN ('human', 'agent')),
  action_type text NOT NULL,
  payload jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'auto_approved', 'approved', 'denied')),
  reason_code text NOT NULL,
  reason text NOT NULL,
  scope_root text,
  decided_by text,
  decided_at text,
  denial_reason text,
  live_merge_key text UNIQUE,
  created_at text NOT NULL
);
CREATE INDEX proposed_actions_by_project ON proposed_actions (project_id, status, created_at);
CREATE TABLE session_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  project_id text NOT NULL,
  type text NOT NULL,
  actor_kind text NOT NULL CHECK (actor_kind IN ('agent', 'user', 'system')),
  actor_id text,
  action_id text,
  payload jsonb NOT NULL,
  created_at text NOT NULL
);
CREATE INDEX session_events_by_project ON session_events (project_id, id);
CREATE INDEX session_events_by_type ON session_events (project_id, type);
CREATE FUNCTION session_events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'session_events is append-only (% refused)', TG_OP USING ERRCODE = 'restrict_violation';
END
$$;
CREATE TRIGGER session_events_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON session_events
  FOR EACH STATEMENT EXECUTE FUNCTION session_events_refuse_change();
CREATE TABLE project_containers (
  project_id text PRIMARY KEY REFERENCES projects (id),
  state text NOT NULL CHECK (state IN ('absent', 'provisioning', 'running', 'stopped', 'failed')),
  container_id text,
  updated_at text NOT NULL
);
CREATE TABLE runner_tokens (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id),
  token_hash text NOT NULL UNIQUE,
  created_at text NOT NULL,
  revoked_at text
);
CREATE TABLE tasks (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id),
  title text NOT NULL,
  status text NOT NULL CHECK (status IN ('todo', 'in_progress', 'blocked', 'done')),
  pr_number bigint,
  blocked_reason text,
  blocked_source text,
  updated_at text NOT NULL
);
CREATE INDEX tasks_by_pr ON tasks (project_id, pr_number);
CREATE TABLE execution_handoffs (
  id text PRIMARY KEY,
  action_id text NOT NULL UNIQUE REFERENCES proposed_actions (id),
  project_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'dispatched', 'executed', 'failed')),
  credential_ref text,
  outcome jsonb,
  created_at text NOT NULL,
  updated_at text NOT NULL
);
CREATE INDEX execution_handoffs_by_status ON execution_handoffs (status, created_at);
CREATE TABLE merged_prs (
  project_id text NOT NULL,
  pr_number bigint NOT NULL,
  action_id text NOT NULL,
  merged_at text NOT NULL,
  PRIMARY KEY (project_id, pr_number)
);
`,
  },
  {
    version: 2,
    name: 'durable dispatch, suspended agent turns, verified workspaces',
    sql: `
ALTER TABLE execution_handoffs ADD COLUMN state text NOT NULL DEFAULT 'queued'
  CHECK (state IN ('queued', 'sent', 'accepted', 'running', 'executed', 'failed'));
ALTER TABLE execution_handoffs ADD COLUMN attempt integer NOT NULL DEFAULT 0;
ALTER TABLE execution_handoffs ADD COLUMN lease_until text;
ALTER TABLE execution_handoffs ADD COLUMN target text;
ALTER TABLE execution_handoffs ADD COLUMN sent_at text;
ALTER TABLE execution_handoffs ADD COLUMN started_at text;
ALTER TABLE execution_handoffs ADD COLUMN finished_at text;
UPDATE execution_handoffs SET state = CASE status WHEN 'dispatched' THEN 'sent' ELSE status END;
CREATE INDEX execution_handoffs_by_state ON execution_handoffs (state, created_at);
CREATE TABLE agent_turns (
  action_id text PRIMARY KEY REFERENCES proposed_actions (id),
  project_id text NOT NULL,
  agent_id text NOT NULL,
  task_id text,
  state text NOT NULL CHECK (state IN ('awaiting_approval', 'settled', 'lost')),
  created_at text NOT NULL,
  updated_at text NOT NULL
);
CREATE INDEX agent_turns_by_state ON agent_turns (state, created_at);
ALTER TABLE projects ADD COLUMN workspace_verified_at text;
`,
  },
  {
    version: 3,
    name: 'dispatch owner node',
    // Cluster coordination (src/cluster): nodes with leases, the node that owns each dispatch,
    // one runner session per project, replicated presence and the pub/sub message log. Leases use
    // the database clock (now()), so the nodes' clocks never have to agree.
    sql: `
ALTER TABLE execution_handoffs ADD COLUMN owner_node text;
CREATE INDEX execution_handoffs_by_owner ON execution_handoffs (owner_node) WHERE state IN ('sent', 'accepted', 'running');
CREATE TABLE cluster_nodes (
  node_id text PRIMARY KEY,
  epoch bigint NOT NULL,
  address text,
  started_at timestamptz NOT NULL,
  heartbeat_at timestamptz NOT NULL,
  lease_until timestamptz NOT NULL
);
CREATE TABLE runner_sessions (
  project_id text PRIMARY KEY,
  node_id text,
  epoch bigint,
  socket_id text,
  token_id text,
  hostname text,
  runner_version text,
  joined_at timestamptz,
  last_seen_at timestamptz NOT NULL
);
CREATE TABLE cluster_presence (
  topic text NOT NULL,
  key text NOT NULL,
  ref text NOT NULL,
  node_id text NOT NULL,
  meta jsonb NOT NULL,
  PRIMARY KEY (topic, ref)
);
CREATE INDEX cluster_presence_by_node ON cluster_presence (node_id);
CREATE TABLE cluster_messages (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  origin_node text NOT NULL,
  topic text NOT NULL,
  event text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cluster_messages_by_time ON cluster_messages (created_at);
`,
  },
  {
    version: 4,
    name: 'runner reports recorded after settlement',
    sql: `
CREATE TABLE dispatch_reports (
  dispatch_id text NOT NULL,
  attempt integer NOT NULL,
  recorded_at text NOT NULL,
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
ALTER TABLE projects ADD COLUMN sandbox_required boolean NOT NULL DEFAULT false;
`,
  },
  {
    version: 6,
    name: 'credentials: agent, human and service tokens; expiry and last use for runner tokens',
    sql: `
CREATE TABLE credentials (
  id text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('agent', 'human', 'service')),
  token_hash text NOT NULL UNIQUE,
  project_id text REFERENCES projects (id),
  subject text NOT NULL,
  label text,
  created_by text,
  created_at text NOT NULL,
  expires_at text,
  last_used_at text,
  revoked_at text
);
CREATE INDEX credentials_by_subject ON credentials (kind, subject);
CREATE INDEX credentials_by_project ON credentials (project_id);
ALTER TABLE runner_tokens ADD COLUMN label text;
ALTER TABLE runner_tokens ADD COLUMN created_by text;
ALTER TABLE runner_tokens ADD COLUMN expires_at text;
ALTER TABLE runner_tokens ADD COLUMN last_used_at text;
`,
  },
  {
    version: 7,
    name: 'credentials: executor tokens (external executors of git, PR and plan actions)',
    sql: `
ALTER TABLE credentials DROP CONSTRAINT IF EXISTS credentials_kind_check;
ALTER TABLE credentials ADD CONSTRAINT credentials_kind_check CHECK (kind IN ('agent', 'human', 'service', 'executor'));
`,
  },
  {
    version: 8,
    name: 'credentials: admin credentials (hashed, revocable, with expiry and last use; issue 12)',
    sql: `
ALTER TABLE credentials DROP CONSTRAINT IF EXISTS credentials_kind_check;
ALTER TABLE credentials ADD CONSTRAINT credentials_kind_check CHECK (kind IN ('admin', 'agent', 'human', 'service', 'executor'));
`,
  },
];

/**
 * Applies every migration newer than the recorded version, all in one transaction under an
 * advisory lock scoped to the current schema. `client` is one checked-out session (BEGIN ...
 * COMMIT). Returns the versions this call applied.
 */
export async function applyPostgresMigrations(
  client: Queryable,
  migrations: readonly PostgresMigration[] = POSTGRES_MIGRATIONS,
): Promise<number[]> {
  await client.query('BEGIN');
  try {
    const schema = await client.query('SELECT current_schema() AS name');
    if (schema.rows[0]?.name == null) throw new NoSchemaError();
    // Lock before CREATE TABLE IF NOT EXISTS: concurrent IF NOT EXISTS can still collide.
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', [LOCK_CLASS.migrations]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)`);
    const row = await client.query('SELECT MAX(version) AS v FROM schema_migrations');
    const current = Number(row.rows[0]?.v ?? 0);
    const applied: number[] = [];
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        new Date().toISOString(),
      ]);
      applied.push(migration.version);
    }
    await client.query('COMMIT');
    return applied;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

export class NoSchemaError extends Error {
  override name = 'NoSchemaError';
  readonly code = 'postgres_no_schema';
  constructor() {
    super(
      'no schema of the search_path exists in this database; create it (CREATE SCHEMA ...) or fix `options=-c search_path=...` in DATABASE_URL',
    );
  }
}
