// Adversarial: the permissions.json on disk. A broken file never auto-approves through any path
// (proposal with auto-mode autonomy, infra handoff, activation), and a symlink planted in its place
// is never written through to the file it points at.
import { lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { proposeTerminal, seedProject, startTestApp, type TestApp } from '../http/helpers.ts';

let t: TestApp;
let project: Awaited<ReturnType<typeof seedProject>>;
const BROKEN = [
  '{"allow": ["Terminal(ls)", "ContainerStart()"], "deny": 5}',
  '{"allow": ["Terminal(ls)"',
  '',
  '[]',
  '{"allow": "Terminal(ls)"}',
];

beforeEach(async () => {
  t = await startTestApp();
  project = await seedProject(t);
});
afterEach(async () => t.close());

const fileOf = (root: string) => join(root, 'permissions.json');

describe('a broken permissions.json never auto-approves', () => {
  it('not even with auto-mode autonomy (`*` auto_approve) or an allow the broken file names', async () => {
    await t.call('PUT', `/api/projects/${project.id}/agent-autonomy`, {
      userId: 'max',
      agentId: 'agent-dev',
      actionType: '*',
      mode: 'auto_approve',
    });
    for (const text of BROKEN) {
      writeFileSync(fileOf(project.root), text);
      const r = await proposeTerminal(t, project.id, project.root, 'ls');
      expect(r.body.status, text).not.toBe('auto_approved');
      expect(r.body.permissionsProblem, text).not.toBeNull();
      const commit = await t.call('POST', `/api/projects/${project.id}/actions`, {
        agentId: 'agent-dev',
        actionType: 'git_commit',
        payload: {},
      });
      expect(commit.body.status, text).not.toBe('auto_approved');
    }
  });

  it('accepting the infra handoff proposes container_start pending, not auto-approved', async () => {
    await t.call('PUT', `/api/projects/${project.id}/members/infra`, { role: 'maintainer', kind: 'agent' });
    writeFileSync(fileOf(project.root), BROKEN[0] as string);
    const r = await t.call('POST', `/api/projects/${project.id}/handoffs/infra/accept`, { userId: 'olivia' });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe('pending');
  });

  it('activation refuses to rewrite it and seeds nothing', async () => {
    await t.call('PUT', `/api/projects/${project.id}/members/dev-api`, { role: 'developer', kind: 'agent' });
    writeFileSync(fileOf(project.root), BROKEN[0] as string);
    const r = await t.call('POST', `/api/projects/${project.id}/activate-execution`, { userId: 'olivia' });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('permissions_file_invalid');
    expect(readFileSync(fileOf(project.root), 'utf8')).toBe(BROKEN[0]);
    expect((await t.call('GET', `/api/projects/${project.id}`)).body.executionActivatedAt).toBeNull();
    expect((await t.call('GET', `/api/projects/${project.id}/agent-autonomy`)).body.rules).toEqual([]);
  });

  it('always-allow on a broken file undoes the approval and leaves the file as it was', async () => {
    const pending = await proposeTerminal(t, project.id, project.root, 'pnpm test');
    writeFileSync(fileOf(project.root), BROKEN[1] as string);
    const r = await t.call('POST', `/api/actions/${pending.body.id}/approve-always`, { userId: 'olivia' });
    expect(r.status).toBe(409);
    expect(r.body.error).toBe('permissions_file_invalid');
    expect((await t.call('GET', `/api/actions/${pending.body.id}`)).body.status).toBe('pending');
    expect(readFileSync(fileOf(project.root), 'utf8')).toBe(BROKEN[1]);
  });
});

describe('a symlink in place of permissions.json', () => {
  it('PUT and always-allow replace the link itself; the file it pointed at is never written', async () => {
    const outside = join(t.dir, 'outside.json');
    const original = JSON.stringify({ allow: [], deny: ['Terminal(rm)'], ask: [] });
    writeFileSync(outside, original);
    symlinkSync(outside, fileOf(project.root));

    const put = await t.call('PUT', `/api/projects/${project.id}/permissions`, {
      userId: 'olivia',
      allow: ['Terminal(git status)'],
      deny: [],
      ask: [],
    });
    expect(put.status).toBe(200);
    expect(readFileSync(outside, 'utf8')).toBe(original);
    expect(lstatSync(fileOf(project.root)).isSymbolicLink()).toBe(false);

    // The link is never read through, so always-allow has no file to merge into: it refuses (the
    // action stays pending) and neither the link nor its target is touched.
    const other = await seedProject(t);
    symlinkSync(outside, fileOf(other.root));
    const pending = await proposeTerminal(t, other.id, other.root, 'pnpm test');
    const always = await t.call('POST', `/api/actions/${pending.body.id}/approve-always`, { userId: 'olivia' });
    expect(always.status).toBe(409);
    expect(always.body.error).toBe('permissions_file_invalid');
    expect((await t.call('GET', `/api/actions/${pending.body.id}`)).body.status).toBe('pending');
    expect(readFileSync(outside, 'utf8')).toBe(original);
    expect(lstatSync(fileOf(other.root)).isSymbolicLink()).toBe(true);
  });

  it('a symlinked permissions.json is never read through: its target does not govern the project and nothing is auto-approved', async () => {
    const outside = join(t.dir, 'outside-allow.json');
    writeFileSync(outside, JSON.stringify({ allow: ['Terminal(pnpm test)'], deny: [], ask: [] }));
    const linked = await seedProject(t);
    symlinkSync(outside, fileOf(linked.root));
    const proposed = await proposeTerminal(t, linked.id, linked.root, 'pnpm test');
    expect(proposed.status).toBe(201);
    expect(proposed.body.status).toBe('pending');
    expect(proposed.body.permissionsProblem.code).toBe('permissions_not_regular_file');
    const shown = await t.call('GET', `/api/projects/${linked.id}/permissions`);
    expect(JSON.stringify(shown.body)).not.toContain('Terminal(pnpm test)');
  });

  it('a JSON syntax error names where it is without echoing the file content', async () => {
    const secretish = await seedProject(t);
    writeFileSync(fileOf(secretish.root), 'SECRET-CONTENT-1234 {');
    const proposed = await proposeTerminal(t, secretish.id, secretish.root, 'pnpm test');
    expect(proposed.body.permissionsProblem.code).toBe('permissions_invalid_json');
    expect(JSON.stringify(proposed.body)).not.toContain('SECRET');
  });
});
