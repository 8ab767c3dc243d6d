// Use cases against a real embedded store, with a fake file store where a failure must be forced.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actions, createActions } from '../../src/actions/index.ts';
import type { ActionDeps } from '../../src/actions/deps.ts';
import type { ActionObserver } from '../../src/actions/ports.ts';
import { createLogger } from '../../src/logger.ts';
import type { Permissions } from '../../src/policy/index.ts';
import { PermissionsFile, PermissionsWriteError } from '../../src/store/permissions-file.ts';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/store.ts';

class FailingPermissionsFile extends PermissionsFile {
  override async update(): Promise<{ before: Permissions; after: Permissions }> {
    throw new PermissionsWriteError('permissions_write_failed', 'disk full (simulated)');
  }
}

let dir: string;
let store: SqliteStore;
let actions: Actions;
let notified: Array<{ id: string; handoffVisible: boolean }>;
let observed: string[];

function build(permissionsFile: PermissionsFile): Actions {
  const observer: ActionObserver = {
    proposed: (e) => observed.push(`proposed:${e.status}:${e.reasonCode}`),
    decided: (e) => observed.push(`decided:${e.by}:${e.outcome}`),
  };
  const deps: ActionDeps = {
    store,
    permissionsFile,
    roots: { projectWorkspacesRoot: join(dir, 'ws'), projectsBase: join(dir, 'pb'), gatewayCheckout: join(dir, 'gw') },
    execution: {
      notify: (id) => {
        // Called after the commit: the hand-off is already readable from committed data.
        void store.read.handoffs.getByAction(id).then((h) => notified.push({ id, handoffVisible: h !== null }));
      },
    },
    observer,
    logger: createLogger('silent'),
  };
  return createActions(deps);
}

async function seed(a: Actions) {
  const project = await a.createProject({ name: 'Uc', executionMode: 'container', ownerId: 'olivia' });
  await a.setMember(project.id, 'max', 'maintainer', 'human');
  await a.setMember(project.id, 'lead', 'maintainer', 'agent');
  await a.setMember(project.id, 'dev', 'developer', 'agent');
  return project;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'brabo-uc-'));
  store = openSqliteStore(join(dir, 'data'));
  notified = [];
  observed = [];
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('use cases', () => {
  it('RN-642: a failed pattern write rolls the approval back (no status change, no event, no hand-off)', async () => {
    actions = build(new FailingPermissionsFile());
    const project = await seed(actions);
    const { action } = await actions.propose({
      projectId: project.id,
      proposerId: 'dev',
      actionType: 'terminal',
      payload: { command: 'make build', cwd: project.root },
    });
    await expect(actions.approveAlways(action.id, 'max')).rejects.toMatchObject({ code: 'permissions_write_failed' });
    expect(await store.read.actions.get(action.id)).toMatchObject({ status: 'pending', decidedBy: null });
    expect(await store.read.handoffs.getByAction(action.id)).toBeNull();
    expect(await store.read.events.count(project.id, 'proposed_action.approved')).toBe(0);
    expect(notified).toEqual([]);
  });

  it("RN-082: every git hand-off carries the owner's credential reference, never the decider's; others carry none", async () => {
    actions = build(new PermissionsFile());
    const project = await seed(actions);
    const manual = await actions.propose({
      projectId: project.id,
      proposerId: 'lead',
      actionType: 'git_branch_create',
      payload: { branch: 'x' },
    });
    await actions.approve(manual.action.id, 'max');
    await actions.setAgentAutonomy({
      projectId: project.id,
      userId: 'max',
      agentId: 'lead',
      actionType: 'open_adr_pr',
      mode: 'auto_approve',
    });
    const auto = await actions.propose({
      projectId: project.id,
      proposerId: 'lead',
      actionType: 'open_adr_pr',
      payload: {},
    });
    expect(auto.action.status).toBe('auto_approved');
    const shell = await actions.propose({
      projectId: project.id,
      proposerId: 'dev',
      actionType: 'terminal',
      payload: { command: 'make', cwd: project.root },
    });
    await actions.approve(shell.action.id, 'max');

    expect((await store.read.handoffs.getByAction(manual.action.id))?.credentialRef).toBe('owner:olivia');
    expect((await store.read.handoffs.getByAction(auto.action.id))?.credentialRef).toBe('owner:olivia');
    expect((await store.read.actions.get(auto.action.id))?.decidedBy).toBeNull();
    expect((await store.read.handoffs.getByAction(shell.action.id))?.credentialRef).toBeNull();
  });

  it('notifies execution after the commit, once per approval, and reports decisions to the observer', async () => {
    actions = build(new PermissionsFile());
    const project = await seed(actions);
    const p = await actions.propose({
      projectId: project.id,
      proposerId: 'dev',
      actionType: 'terminal',
      payload: { command: 'make', cwd: project.root },
    });
    await actions.approve(p.action.id, 'max');
    await actions.approve(p.action.id, 'max');
    await new Promise((r) => setImmediate(r));
    expect(notified).toEqual([{ id: p.action.id, handoffVisible: true }]);
    expect(observed).toEqual(['proposed:pending:default_require_approval', 'decided:human:approved']);
    await actions.propose({ projectId: project.id, proposerId: 'dev', actionType: 'git_push', payload: {} });
    expect(observed.slice(2)).toEqual(['proposed:denied:iam_role_below_minimum', 'decided:policy:denied']);
  });

  it("a mounted project's folder is not created by creation, and writing permissions before it exists is a named conflict", async () => {
    actions = build(new PermissionsFile());
    const project = await actions.createProject({ name: 'M', executionMode: 'mounted', ownerId: 'olivia' });
    await actions.setMember(project.id, 'max', 'maintainer', 'human');
    await expect(actions.putPermissions(project.id, 'max', { allow: [] })).rejects.toMatchObject({
      code: 'project_folder_missing',
      kind: 'conflict',
    });
    await expect(actions.activateExecution(project.id, 'max')).rejects.toMatchObject({
      code: 'project_folder_missing',
    });
  });
});
