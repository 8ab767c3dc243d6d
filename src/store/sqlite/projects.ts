import type { ExecutionMode, Member, MemberRepository, Project, ProjectRepository, ProjectRootRow } from '../types.ts';
import { records, type Statements } from './rows.ts';

const { toProject, toMember } = records;

export class SqliteProjects implements ProjectRepository {
  readonly #sql: Statements;
  constructor(sql: Statements) {
    this.#sql = sql;
  }

  async insert(p: Project): Promise<void> {
    this.#sql.run(
      `INSERT INTO projects (id, name, slug, execution_mode, root, workspace_dir_name, owner_id, module_map,
         execution_activated_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      p.id,
      p.name,
      p.slug,
      p.executionMode,
      p.root,
      p.workspaceDirName,
      p.ownerId,
      JSON.stringify(p.moduleMap),
      p.executionActivatedAt,
      p.createdAt,
    );
  }

  async get(id: string): Promise<Project | null> {
    const row = this.#sql.one('SELECT * FROM projects WHERE id = ?', id);
    return row ? toProject(row) : null;
  }

  async list(limit: number): Promise<Project[]> {
    return this.#sql.all('SELECT * FROM projects ORDER BY created_at, id LIMIT ?', limit).map(toProject);
  }

  async lockedRoots(): Promise<ProjectRootRow[]> {
    // One writer runs units of work one at a time: inside a transaction this read cannot race.
    return this.#sql.all('SELECT id, execution_mode, root FROM projects').map((row) => ({
      id: String(row.id),
      executionMode: String(row.execution_mode) as ExecutionMode,
      root: String(row.root),
    }));
  }

  async setSandboxRequired(id: string, required: boolean): Promise<void> {
    this.#sql.run('UPDATE projects SET sandbox_required = ? WHERE id = ?', required ? 1 : 0, id);
  }

  async markWorkspaceVerified(id: string, at: string): Promise<void> {
    this.#sql.run('UPDATE projects SET workspace_verified_at = ? WHERE id = ?', at, id);
  }

  async markExecutionActivated(id: string, at: string): Promise<void> {
    this.#sql.run(
      'UPDATE projects SET execution_activated_at = ? WHERE id = ? AND execution_activated_at IS NULL',
      at,
      id,
    );
  }
}

export class SqliteMembers implements MemberRepository {
  readonly #sql: Statements;
  constructor(sql: Statements) {
    this.#sql = sql;
  }

  async upsert(m: Member): Promise<void> {
    this.#sql.run(
      `INSERT INTO members (project_id, member_id, kind, role, updated_at) VALUES (?, ?, ?, ?, ?)
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
    const row = this.#sql.one('SELECT * FROM members WHERE project_id = ? AND member_id = ?', projectId, memberId);
    return row ? toMember(row) : null;
  }

  async list(projectId: string): Promise<Member[]> {
    return this.#sql.all('SELECT * FROM members WHERE project_id = ? ORDER BY member_id', projectId).map(toMember);
  }

  async listByMember(memberId: string, limit: number): Promise<Member[]> {
    return this.#sql
      .all('SELECT * FROM members WHERE member_id = ? ORDER BY project_id LIMIT ?', memberId, limit)
      .map(toMember);
  }
}
