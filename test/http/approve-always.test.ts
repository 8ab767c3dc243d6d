// "Always allow" (RN-642, RN-675, RN-509, RN-689 / AT-320).
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventsOf, proposeTerminal, seedProject, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let project: { id: string; root: string };

beforeEach(async () => {
  t = await startTestApp();
  project = await seedProject(t, { moduleMap: { api: {}, web: {} } });
});
afterEach(async () => t.close());

const fileOf = () => JSON.parse(readFileSync(`${project.root}/permissions.json`, 'utf8'));
const always = (id: string, userId = 'max') => t.call('POST', `/api/actions/${id}/approve-always`, { userId });
const granted = async () => (await eventsOf(t, project.id)).filter((e) => e.type === 'permission.granted');

describe('approve-always', () => {
  it('RN-675: writes one pattern per fragment (verb + subcommand), and the next similar command runs without asking', async () => {
    const r = await proposeTerminal(t, project.id, project.root, `cd ${project.root}/src && npm test`);
    expect(r.body.status).toBe('pending');
    const res = await always(r.body.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ desfecho: 'aprovada', action: { status: 'approved', decidedBy: 'max' } });
    expect(res.body.patterns).toContain('Terminal(npm test)');
    expect(fileOf().allow).toEqual(expect.arrayContaining(['Terminal(npm test)']));
    const next = await proposeTerminal(t, project.id, project.root, `cd ${project.root}/lib && npm test -- --coverage`);
    expect(next.body.status).toBe('auto_approved');
  });

  it('RN-675 (issue 9 A.6 deviation): a wrapper or interpreter is written whole and the response says so', async () => {
    const r = await proposeTerminal(t, project.id, project.root, 'sh ./build.sh && npm test');
    const res = await always(r.body.id);
    expect(res.status).toBe(200);
    expect(res.body.patterns).toEqual(['Terminal(sh ./build.sh)', 'Terminal(npm test)']);
    expect(res.body.keptWhole).toMatchObject({ patterns: ['Terminal(sh ./build.sh)'] });
    expect(res.body.keptWhole.message).toContain('whole command');
    expect(fileOf().allow).not.toContain('Terminal(sh)');
    const other = await proposeTerminal(t, project.id, project.root, "sh -c 'id'");
    expect(other.body.status).toBe('pending');
    const plain = await proposeTerminal(t, project.id, project.root, 'make build');
    expect((await always(plain.body.id)).body.keptWhole).toBeNull();
  });

  it('RN-642: one approved event and one permission.granted with patterns and pattern joined by ", "', async () => {
    const r = await proposeTerminal(t, project.id, project.root, 'cat src/x.ts | wc -l');
    const res = await always(r.body.id);
    expect(res.body.patterns).toEqual(['Terminal(cat)', 'Terminal(wc -l)']);
    const g = await granted();
    expect(g).toHaveLength(1);
    expect(g[0]).toMatchObject({ actorKind: 'user', actorId: 'max', actionId: r.body.id });
    expect(g[0]?.payload).toEqual({
      patterns: ['Terminal(cat)', 'Terminal(wc -l)'],
      pattern: 'Terminal(cat), Terminal(wc -l)',
      // The credential that acted (issue 12): the upstream service's token, named as `via`.
      credential: { id: t.serviceCredentialId, kind: 'service' },
      via: 'service:test-upstream',
    });
    expect((await eventsOf(t, project.id)).filter((e) => e.type === 'proposed_action.approved')).toHaveLength(1);
  });

  it('already approved: idempotent ja_aprovada, writes the pattern only if missing', async () => {
    const r = await proposeTerminal(t, project.id, project.root, 'make build');
    await t.call('POST', `/api/actions/${r.body.id}/approve`, { userId: 'max' });
    const first = await always(r.body.id);
    expect(first.body).toMatchObject({ desfecho: 'ja_aprovada', patterns: ['Terminal(make build)'] });
    const second = await always(r.body.id, 'olivia');
    expect(second.body).toMatchObject({ desfecho: 'ja_aprovada', patterns: [] });
    expect(await granted()).toHaveLength(1);
    expect((await eventsOf(t, project.id)).filter((e) => e.type === 'proposed_action.approved')).toHaveLength(1);
    expect(fileOf().allow.filter((p: string) => p === 'Terminal(make build)')).toHaveLength(1);
  });

  it('already denied: 409 reason acao_ja_recusada and nothing written', async () => {
    const r = await proposeTerminal(t, project.id, project.root, 'make build');
    await t.call('POST', `/api/actions/${r.body.id}/deny`, { userId: 'max', reason: 'no' });
    const res = await always(r.body.id);
    expect(res).toMatchObject({ status: 409, body: { error: 'acao_ja_recusada', reason: 'acao_ja_recusada' } });
    expect(await granted()).toHaveLength(0);
    expect(() => readFileSync(`${project.root}/permissions.json`)).toThrow();
  });

  it.each([
    'git_push',
    'pr_open',
    'git_merge',
    'container_remove',
    'instruction_patch',
    'parallelize',
    'raise_max_parallel',
  ])(
    'TIPOS_SEM_SEMPRE_PERMITIR: %s is 400 teto_do_sempre_permitir, stays pending, writes nothing',
    async (actionType) => {
      const payload = actionType === 'git_merge' ? { branch: 'main', prNumber: 3 } : {};
      // RN-495: container_remove is proposed by a human, never by an agent.
      const r = await t.call('POST', `/api/projects/${project.id}/actions`, {
        agentId: actionType === 'container_remove' ? 'max' : 'agent-lead',
        actionType,
        payload,
      });
      expect(r.body.status).toBe('pending');
      const res = await always(r.body.id, 'olivia');
      expect(res).toMatchObject({
        status: 400,
        body: { error: 'teto_do_sempre_permitir', reason: 'teto_do_sempre_permitir' },
      });
      expect((await t.call('GET', `/api/actions/${r.body.id}`)).body.status).toBe('pending');
      expect(await granted()).toHaveLength(0);
    },
  );

  it('the type ceiling is checked even for an approved action', async () => {
    const r = await t.call('POST', `/api/projects/${project.id}/actions`, {
      agentId: 'agent-lead',
      actionType: 'git_push',
      payload: {},
    });
    await t.call('POST', `/api/actions/${r.body.id}/approve`, { userId: 'max' });
    expect((await always(r.body.id)).status).toBe(400);
  });

  it.each([
    ['external effect', 'pnpm test && git push origin main'],
    ['privileged', 'sudo apt-get install jq'],
  ])('RN-418: a terminal command with an %s approves the instance and writes no pattern', async (_kind, command) => {
    const r = await proposeTerminal(t, project.id, project.root, command);
    const res = await always(r.body.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ desfecho: 'aprovada', patterns: [], action: { status: 'approved' } });
    expect(res.body.notWritten.reason).toMatch(/external_effect|privileged/);
    expect(await granted()).toHaveLength(0);
  });

  it('RN-509: a module dev agent gets an agent_autonomy row, not a pattern', async () => {
    await t.call('PUT', `/api/projects/${project.id}/members/dev-api`, { role: 'developer', kind: 'agent' });
    const r = await t.call('POST', `/api/projects/${project.id}/actions`, {
      agentId: 'dev-api',
      actionType: 'write_file',
      payload: { path: 'src/a.ts' },
    });
    expect(r.body.status).toBe('pending');
    const res = await always(r.body.id);
    expect(res.body).toMatchObject({
      desfecho: 'aprovada',
      patterns: [],
      autonomy: { agentId: 'dev-api', actionType: 'write_file', mode: 'auto_approve' },
    });
    expect((await granted())[0]?.payload).toMatchObject({ agentId: 'dev-api', actionType: 'write_file' });
    expect(() => readFileSync(`${project.root}/permissions.json`)).toThrow();
    const next = await t.call('POST', `/api/projects/${project.id}/actions`, {
      agentId: 'dev-api',
      actionType: 'write_file',
      payload: { path: 'src/b.ts' },
    });
    expect(next.body).toMatchObject({ status: 'auto_approved', reason: 'agent_autonomy: auto_approve' });
  });

  it('RN-642: a pattern write failure undoes the approval (broken permissions.json)', async () => {
    writeFileSync(`${project.root}/permissions.json`, '{"allow": [');
    const r = await proposeTerminal(t, project.id, project.root, 'make build');
    const res = await always(r.body.id);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('permissions_file_invalid');
    expect((await t.call('GET', `/api/actions/${r.body.id}`)).body).toMatchObject({
      status: 'pending',
      decidedBy: null,
      execution: null,
    });
    const types = (await eventsOf(t, project.id)).map((e) => e.type);
    expect(types).not.toContain('proposed_action.approved');
    expect(types).not.toContain('permission.granted');
  });

  it('a developer cannot approve-always a maintainer-level action (403) and nothing changes', async () => {
    const r = await t.call('POST', `/api/projects/${project.id}/actions`, {
      agentId: 'agent-lead',
      actionType: 'git_branch_create',
      payload: {},
    });
    const res = await always(r.body.id, 'dev');
    expect(res).toMatchObject({ status: 403, body: { error: 'role_below_minimum' } });
    expect((await t.call('GET', `/api/actions/${r.body.id}`)).body.status).toBe('pending');
  });
});
