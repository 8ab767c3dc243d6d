import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { chmod } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { materializeWorkspace } from '../../src/execution/materialize.ts';

let base: string;
beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'brabo-materialize-'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('RN-501 mounted folder materialization', () => {
  it('creates the folder (mkdir -p), proves it writable and leaves no probe behind', async () => {
    const folder = path.join(base, 'team', 'shop-1a2b3c4d');
    const now = new Date('2026-11-29T12:00:00Z');
    const result = await materializeWorkspace({ base, folder, now: () => now });
    expect(result).toEqual({ ok: true, path: folder, verifiedAt: now });
    expect((await stat(folder)).isDirectory()).toBe(true);
    expect(await readdir(folder)).toEqual([]);
  });

  it('is idempotent on an existing folder and keeps its files', async () => {
    const folder = path.join(base, 'existing');
    await materializeWorkspace({ base, folder });
    await writeFile(path.join(folder, 'keep.txt'), 'x');
    const again = await materializeWorkspace({ base, folder });
    expect(again.ok).toBe(true);
    expect(await readdir(folder)).toEqual(['keep.txt']);
  });

  it('an uncreatable folder is workspace_not_writable naming the variable, the path, the cause and the next step', async () => {
    const blocker = path.join(base, 'a-file');
    await writeFile(blocker, 'not a directory');
    const folder = path.join(blocker, 'project');
    const result = await materializeWorkspace({ base, folder, imageUser: 'uid 1000' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe('workspace_not_writable');
    expect(result.message).toContain(`BRABO_PROJECTS_BASE=${base}`);
    expect(result.message).toContain(folder);
    expect(result.message).toMatch(/owned by another user/);
    expect(result.message).toMatch(/Next step/);
    expect(result.detail.errno).toBe('ENOTDIR');
  });

  it.runIf(process.getuid?.() === 0)(
    'a base owned by root is workspace_not_writable for a non-root server (EACCES), and nothing is created',
    async () => {
      const rootOwned = path.join(base, 'root-owned');
      await materializeWorkspace({ base, folder: rootOwned });
      await chmod(base, 0o755);
      await chmod(rootOwned, 0o755);
      const folder = path.join(rootOwned, 'proj-1234abcd');
      // The child imports the module as root and only then becomes uid 1000: spawning it as 1000
      // would need this checkout and its Node to be reachable by that user, which a clone under a
      // 0700 mktemp folder (the way .ci/run clones) is not.
      const script = `import { materializeWorkspace } from ${JSON.stringify(path.resolve('src/execution/materialize.ts'))};
      process.setgid(1000);
      process.setuid(1000);
      const r = await materializeWorkspace({ base: ${JSON.stringify(rootOwned)}, folder: ${JSON.stringify(folder)} });
      process.stdout.write(JSON.stringify(r));`;
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
      const result = JSON.parse(stdout);
      expect(result).toMatchObject({ ok: false, code: 'workspace_not_writable', detail: { errno: 'EACCES' } });
      await expect(stat(folder)).rejects.toThrow();
    },
  );
});
