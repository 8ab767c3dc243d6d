// Issue 9 A.8: two projects may not share a root or nest one inside the other (mounted and
// runner modes), checked inside the creating transaction (race-safe, also across two nodes on
// Postgres); RN-170 on the real path: symlinks resolved where the folder exists here, /proc and the
// other kernel file systems refused.
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OWNER, startTestApp, type TestApp } from './helpers.ts';
import { TestSchemas } from '../store/contract-postgres.ts';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => t.close());

const create = (app: TestApp, executionMode: 'runner' | 'mounted', root: string) =>
  app.call('POST', '/api/projects', { name: 'P', executionMode, ownerId: OWNER, root });

describe('runner roots: one folder, one project', () => {
  it('the same folder in 8 spellings, a folder inside it, and its parents are 409 root_overlaps_project; siblings are fine', async () => {
    const repo = join(t.dir, 'code', 'repo');
    mkdirSync(join(repo, 'packages', 'a', 'src'), { recursive: true });
    mkdirSync(join(t.dir, 'code', 'repo2'));
    mkdirSync(join(t.dir, 'code', 'rep'));
    symlinkSync(repo, join(t.dir, 'alias'));
    symlinkSync(join(repo, 'packages'), join(t.dir, 'packages-alias'));
    const first = await create(t, 'runner', repo);
    expect(first.status).toBe(201);
    const overlapping = [
      repo,
      `${repo}/`,
      `${repo}//`,
      repo.replace('/code/', '//code/'),
      `${repo}/./`,
      join(repo, 'packages'),
      join(repo, 'packages', 'a', 'src'),
      join(t.dir, 'code'),
      join(t.dir, 'alias'), // the same folder through a symlink
      join(t.dir, 'packages-alias'), // inside it through a symlink
    ];
    for (const root of overlapping) {
      const r = await create(t, 'runner', root);
      expect({ root, status: r.status, error: r.body.error }).toEqual({
        root,
        status: 409,
        error: 'root_overlaps_project',
      });
      expect(r.body.message).toContain(first.body.id);
    }
    for (const root of [join(t.dir, 'code', 'repo2'), join(t.dir, 'code', 'rep')]) {
      expect((await create(t, 'runner', root)).status, root).toBe(201);
    }
  });

  it("a runner root inside a mounted project's folder (and the reverse) overlaps too", async () => {
    const mounted = await create(t, 'mounted', 'team/shop');
    expect(mounted.status).toBe(201);
    const inside = join(t.config.projectsBase, 'team', 'shop', 'app');
    mkdirSync(inside, { recursive: true });
    expect(await create(t, 'runner', inside)).toMatchObject({ status: 409, body: { error: 'root_overlaps_project' } });
    const runnerRoot = join(t.config.projectsBase, 'solo', 'x');
    mkdirSync(runnerRoot, { recursive: true });
    expect((await create(t, 'runner', runnerRoot)).status).toBe(201);
    expect(await create(t, 'mounted', 'solo')).toMatchObject({ status: 409, body: { error: 'root_overlaps_project' } });
  });

  it('a refused creation changes nothing: no project row, no event', async () => {
    const repo = join(t.dir, 'repo');
    mkdirSync(repo);
    const first = await create(t, 'runner', repo);
    const before = (await t.call('GET', '/api/console/projects')).body;
    expect((await create(t, 'runner', repo)).status).toBe(409);
    expect((await t.call('GET', '/api/console/projects')).body).toEqual(before);
    expect(first.status).toBe(201);
  });

  it('20 concurrent creations of one folder: exactly one wins', async () => {
    const repo = join(t.dir, 'contested');
    mkdirSync(join(repo, 'sub'), { recursive: true });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => create(t, 'runner', i % 2 === 0 ? repo : join(repo, 'sub'))),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error === 'root_overlaps_project')).toBe(true);
  });
});

describe('mounted roots: one folder, one project', () => {
  it('same segment, nested segments and spellings are 409; a sibling segment is fine', async () => {
    expect((await create(t, 'mounted', 'team/m')).status).toBe(201);
    for (const root of [
      'team/m',
      'team/m/',
      'team/m/sub',
      'team',
      join(t.config.projectsBase, 'team', 'm'),
      join(t.config.projectsBase, 'team/m/deep/er'),
    ]) {
      const r = await create(t, 'mounted', root);
      expect({ root, status: r.status, error: r.body.error }).toEqual({
        root,
        status: 409,
        error: 'root_overlaps_project',
      });
    }
    expect((await create(t, 'mounted', 'team/m2')).status).toBe(201);
  });

  it('a mounted folder that exists and is a symlink out of BRABO_PROJECTS_BASE is refused', async () => {
    mkdirSync(t.config.projectsBase, { recursive: true });
    symlinkSync('/', join(t.config.projectsBase, 'to-slash'));
    symlinkSync(t.dir, join(t.config.projectsBase, 'to-parent'));
    for (const root of ['to-slash', 'to-parent']) {
      expect(await create(t, 'mounted', root), root).toMatchObject({
        status: 400,
        body: { error: 'root_outside_projects_base' },
      });
    }
  });
});

describe('RN-170 on the real path', () => {
  it('symlinks to /, to system folders and to the gateway checkout are refused by what they resolve to', async () => {
    mkdirSync(join(t.config.gatewayCheckout, 'inner'), { recursive: true });
    const cases: Array<[string, string, string]> = [
      ['to-slash', '/', 'root_is_system_root'],
      ['to-etc', '/etc', 'root_is_system_root'],
      ['to-usr', '/usr', 'root_is_system_root'],
      ['to-checkout', t.config.gatewayCheckout, 'root_overlaps_gateway'],
      ['to-checkout-inner', join(t.config.gatewayCheckout, 'inner'), 'root_overlaps_gateway'],
      ['to-proc', '/proc/self', 'root_in_virtual_filesystem'],
      ['to-sys', '/sys/kernel', 'root_in_virtual_filesystem'],
    ];
    for (const [name, target, code] of cases) {
      symlinkSync(target, join(t.dir, name));
      const r = await create(t, 'runner', join(t.dir, name));
      expect({ name, status: r.status, error: r.body.error }).toEqual({ name, status: 400, error: code });
      expect(r.body.message).toContain('symbolic link');
    }
  });

  it('/proc, /sys and /dev paths are refused as written', async () => {
    for (const root of [
      '/proc/self/cwd',
      '/proc/1/root',
      '/proc/self/root/home',
      '/sys/fs/cgroup',
      '/dev/shm',
      '/dev/shm/x',
    ]) {
      const r = await create(t, 'runner', root);
      expect({ root, status: r.status, error: r.body.error }).toEqual({
        root,
        status: 400,
        error: 'root_in_virtual_filesystem',
      });
    }
  });

  it('a runner root swapped for a symlink to / after creation never becomes a scope (409 project_root_invalid)', async () => {
    const repo = join(t.dir, 'swapped');
    mkdirSync(repo);
    const p = await create(t, 'runner', repo);
    await t.call('PUT', `/api/projects/${p.body.id}/members/a`, { role: 'developer', kind: 'agent' });
    rmSync(repo, { recursive: true });
    symlinkSync('/', repo);
    const r = await t.call('POST', `/api/projects/${p.body.id}/actions`, {
      agentId: 'a',
      actionType: 'terminal',
      payload: { command: 'ls', cwd: repo },
    });
    expect(r).toMatchObject({ status: 409, body: { error: 'project_root_invalid' } });
  });
});

describe('on Postgres, two nodes racing for one folder', () => {
  const schemas = new TestSchemas();
  afterAll(() => schemas.dropAll());

  it('each round, creations on both nodes at once: exactly one project gets the folder', async () => {
    const schema = await schemas.create();
    const [a, b] = await Promise.all([
      startTestApp({ databaseUrl: schema.url }),
      startTestApp({ databaseUrl: schema.url }),
    ]);
    try {
      for (let round = 0; round < 5; round++) {
        const repo = join(a.dir, `race-${round}`);
        mkdirSync(join(repo, 'nested'), { recursive: true });
        const results = await Promise.all([
          create(a, 'runner', repo),
          create(b, 'runner', repo),
          create(a, 'runner', join(repo, 'nested')),
          create(b, 'runner', join(repo, 'nested')),
        ]);
        expect(results.map((r) => r.status).sort(), `round ${round}`).toEqual([201, 409, 409, 409]);
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
      await schemas.drop(schema.name);
    }
  });
});
