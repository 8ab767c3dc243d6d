// Spec "Pattern format": `GitPush(algo)` (content on a non-Terminal label) matches nothing. It is
// accepted by PUT permissions and on disk, it never matches, and it is warned about (response and
// log); it never makes the file broken, so other auto-approvals keep working (issue 15.5).
import { Writable } from 'node:stream';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createActions } from '../../src/actions/index.ts';
import { createLogger } from '../../src/logger.ts';
import { PermissionsFile } from '../../src/store/permissions-file.ts';
import { proposeTerminal, seedProject, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let id: string;
let root: string;

beforeEach(async () => {
  t = await startTestApp();
  ({ id, root } = await seedProject(t));
  await t.call('PUT', `/api/projects/${id}/members/agent-owner`, { role: 'owner', kind: 'agent' });
});
afterEach(async () => t.close());

const INERT = ['GitPush(algo)', 'GitCommit(x)', 'ContainerStart(big)', 'Spend(1)', 'GitMerge(main)'];

describe('Pattern format: Label(x) on a non-Terminal type matches nothing, with a warning', () => {
  it('PUT permissions accepts it as written and answers with one warning per inert entry', async () => {
    const r = await t.call('PUT', `/api/projects/${id}/permissions`, {
      userId: 'max',
      allow: ['Terminal(ls)', 'GitCommit(x)'],
      deny: ['GitPush(algo)'],
      ask: [],
    });
    expect(r.status).toBe(200);
    expect(r.body.permissions).toEqual({ allow: ['Terminal(ls)', 'GitCommit(x)'], deny: ['GitPush(algo)'], ask: [] });
    expect(r.body.warnings).toEqual([
      'allow[1] "GitCommit(x)": only Terminal takes content, so GitCommit(x) matches nothing; GitCommit() matches any git commit',
      'deny[0] "GitPush(algo)": only Terminal takes content, so GitPush(algo) matches nothing; GitPush() matches any push',
    ]);
    const view = (await t.call('GET', `/api/projects/${id}/permissions`)).body;
    expect(view).toMatchObject({ broken: false, problem: null });
    expect(view.warnings).toEqual(r.body.warnings);
  });

  it('a clean file has no warnings', async () => {
    const r = await t.call('PUT', `/api/projects/${id}/permissions`, { userId: 'max', allow: ['GitPush()'] });
    expect(r.body.warnings).toEqual([]);
  });

  it.each(INERT)('%s written on disk is not a broken file: Terminal(ls) still auto-approves', async (entry) => {
    writeFileSync(join(root, 'permissions.json'), JSON.stringify({ allow: ['Terminal(ls)', entry], deny: [entry] }));
    const r = await proposeTerminal(t, id, root, 'ls');
    expect(r.body).toMatchObject({ status: 'auto_approved', permissionsProblem: null });
    expect((await t.call('GET', `/api/projects/${id}/permissions`)).body).toMatchObject({ broken: false });
  });

  it.each(INERT)('%s in allow auto-approves nothing and in deny denies nothing', async (entry) => {
    const type = {
      GitPush: 'git_push',
      GitCommit: 'git_commit',
      ContainerStart: 'container_start',
      Spend: 'spend',
      GitMerge: 'git_merge',
    }[entry.slice(0, entry.indexOf('('))]!;
    const payload = type === 'git_merge' ? { branch: 'feature/x', prNumber: 9 } : {};
    await t.call('PUT', `/api/projects/${id}/permissions`, { userId: 'olivia', allow: [entry] });
    const allowed = await t.call('POST', `/api/projects/${id}/actions`, {
      agentId: 'agent-owner',
      actionType: type,
      payload,
    });
    expect(allowed.body.status).toBe('pending');
    await t.call('PUT', `/api/projects/${id}/permissions`, { userId: 'olivia', deny: [entry] });
    const denied = await t.call('POST', `/api/projects/${id}/actions`, {
      agentId: 'agent-owner',
      actionType: type,
      payload: type === 'git_merge' ? { branch: 'feature/y', prNumber: 10 } : {},
    });
    expect(denied.body.status).toBe('pending');
  });

  it('the warning is logged on PUT and whenever a proposal reads a file that has one', async () => {
    const lines: Array<{ msg: string; level: number; warnings?: string[] }> = [];
    const capture = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const actions = createActions({
      store: t.app.store,
      permissionsFile: new PermissionsFile(),
      roots: {
        projectWorkspacesRoot: t.config.projectWorkspacesRoot,
        projectsBase: t.config.projectsBase,
        gatewayCheckout: t.config.gatewayCheckout,
      },
      execution: { notify: () => undefined },
      observer: { proposed: () => undefined, decided: () => undefined },
      logger: createLogger('info', capture),
    });
    const written = await actions.putPermissions(id, 'max', { deny: ['GitPush(algo)'] });
    expect(written.warnings).toHaveLength(1);
    await actions.propose({ projectId: id, proposerId: 'agent-dev', actionType: 'git_commit', payload: {} });
    const warned = lines.filter((l) => l.msg === 'permissions.json has entries that match nothing');
    expect(warned).toHaveLength(2);
    for (const line of warned) {
      expect(line.level).toBe(40);
      expect(line.warnings).toEqual(written.warnings);
    }
  });
});
