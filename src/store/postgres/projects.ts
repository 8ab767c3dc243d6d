import type { ExecutionMode, Member, MemberRepository, Project, ProjectRepository, ProjectRootRow } from '../types.ts';
import { LOCK_CLASS } from './locks.ts';
import { jsonParam, records, type Sql } from './sql.ts';

const { toProject, toMember } = records;

export class PostgresProjects implements ProjectRepository {
  readonly #sql: Sql;
  constructor(sql: Sql) {
    this.#sql = sql;
  }

  async insert(p: Project): Promise<void> {
    await this.#sql.run(
      `INSERT INTO projects (id, name, slug, execution_mode, root, workspace_dir_name, owner_id, module_map,
         execution_activated_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      p.id,
      p.name,
      p.slug,
      p.executionMode,
      p.root,
      p.workspaceDirName,
      p.ownerId,
      jsonParam(p.moduleMap),
      p.executionActivatedAt,
      p.createdAt,
    );
  }

  async get(id: string): Promise<Project | null> {
    const row = await this.#sql.one('SELECT * FROM projects WHERE id = $1', id);
    return row ? toProject(row) : null;
  }

  async list(limit: number): Promise<Project[]> {
    return (await this.#sql.all('SELECT * FROM projects ORDER BY created_at, id COLLATE "C" LIMIT $1', limit)).map(
      toProject,
    );
  }

  async lockedRoots(): Promise<ProjectRootRow[]> {
    // Held until commit: a concurrent creation waits here, then (READ COMMITTED) sees this one's row.
    await this.#sql.run('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', LOCK_CLASS.projectRoots);
    return (await this.#sql.all('SELECT id, execution_mode, root FROM projects')).map((row) => ({
      id: String(row.id),
      executionMode: String(row.execution_mode) as ExecutionMode,
      root: String(row.root),
    }));
  }

  async setSandboxRequired(id: string, required: boolean): Promise<void> {
    await this.#sql.run('UPDATE projects SET sandbox_required = $1 WHERE id = $2', required, id);
  }

  async markWorkspaceVerified(id: string, at: string): Promise<void> {
    await this.#sql.run('UPDATE projects SET workspace_verified_at = $1 WHERE id = $2', at, id);
  }

  async markExecutionActivated(id: string, at: string): Promise<void> {
    await this.#sql.run(
      'UPDATE projects SET execution_activated_at = $1 WHERE id = $2 AND execution_activated_at IS NULL',
      at,
      id,
    );
  }
}

export class PostgresMembers implements MemberRepository {
  readonly #sql: Sql;
  constructor(sql: Sql) {
    this.#sql = sql;
  }

  async upsert(m: Member): Promise<void> {
    await this.#sql.run(
      `INSERT INTO members (project_id, member_id, kind, role, updated_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (project_id, member_id) DO UPDATE SET kind = excluded.kind, role = excluded.role,
         updated_at = excluded.updated_at`,
      m.projectId,
      m.memberId,
      m.kind,
      m.role,
      m.updatedAt,
    );
  }

  async get(projectId: string, memberId: string): Promise<Member | null> {
    const row = await this.#sql.one(
      'SELECT * FROM members WHERE project_id = $1 AND member_id = $2',
      projectId,
      memberId,
    );
    return row ? toMember(row) : null;
  }

  async list(projectId: string): Promise<Member[]> {
    return (
      await this.#sql.all('SELECT * FROM members WHERE project_id = $1 ORDER BY member_id COLLATE "C"', projectId)
    ).map(toMember);
  }

  async listByMember(memberId: string, limit: number): Promise<Member[]> {
    return (
      await this.#sql.all(
        'SELECT * FROM members WHERE member_id = $1 ORDER BY project_id COLLATE "C" LIMIT $2',
        memberId,
        limit,
      )
    ).map(toMember);
  }
}
