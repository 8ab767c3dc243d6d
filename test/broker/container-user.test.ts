// BRABO_CONTAINER_USER (issue 11.5): parsed strictly (numeric, non-root), and the folders a
// container edits are given to that user: container projects at creation (see the e2e), mounted
// projects when container_start materializes their folder.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadExecutionConfig } from '../../src/config.ts';
import { prepareContainerStart } from '../../src/execution/container-start.ts';
import { DEFAULT_RESOURCE_LIMITS } from '../../src/execution/resources.ts';
import { giveToContainerUser } from '../../src/execution/workspace-path.ts';
import type { Project } from '../../src/store/types.ts';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('BRABO_CONTAINER_USER', () => {
  it('defaults to 1000:1000 and takes any numeric non-root uid:gid', () => {
    expect(loadExecutionConfig({}, {}).docker.containerUser).toBe('1000:1000');
    expect(loadExecutionConfig({}, { BRABO_CONTAINER_USER: '' }).docker.containerUser).toBe('1000:1000');
    expect(loadExecutionConfig({}, { BRABO_CONTAINER_USER: '501:20' }).docker.containerUser).toBe('501:20');
  });

  it.each([
    'root',
    '0:0',
    '0:1000',
    '00:1000',
    '1000',
    '1000:',
    ':1000',
    'node:node',
    '1000:1000:1',
    ' 1000:1000',
    '-1:1000',
    '1e3:1000',
  ])('refuses %j with a ConfigError that names the variable and an example', (value) => {
    expect(() => loadExecutionConfig({}, { BRABO_CONTAINER_USER: value })).toThrow(ConfigError);
    expect(() => loadExecutionConfig({}, { BRABO_CONTAINER_USER: value })).toThrow(
      /BRABO_CONTAINER_USER=.*BRABO_CONTAINER_USER=1000:1000/,
    );
  });
});

describe('folders given to the container user', () => {
  it('giveToContainerUser chowns a folder to uid:gid (the gateway runs as root here)', async () => {
    expect(process.getuid?.()).toBe(0);
    const dir = await mkdtemp(join(tmpdir(), 'brabo-owner-'));
    dirs.push(dir);
    await giveToContainerUser(dir, '1234:4321');
    expect(await stat(dir)).toMatchObject({ uid: 1234, gid: 4321 });
    await giveToContainerUser(dir, undefined);
    expect(await stat(dir)).toMatchObject({ uid: 1000, gid: 1000 });
  });

  it("a mounted project's folder is created by container_start and owned by the container user", async () => {
    const base = await mkdtemp(join(tmpdir(), 'brabo-mounted-'));
    dirs.push(base);
    const folder = join(base, 'shop');
    const project = { id: 'p-mounted', executionMode: 'mounted', moduleMap: {} } as unknown as Project;
    const prepared = await prepareContainerStart(
      project,
      {},
      {
        projectsBase: base,
        scopeRoot: folder,
        limits: DEFAULT_RESOURCE_LIMITS,
        now: () => new Date(),
        containerUser: '1001:1002',
      },
    );
    expect(prepared.ok).toBe(true);
    expect(await stat(folder)).toMatchObject({ uid: 1001, gid: 1002 });
  });
});
