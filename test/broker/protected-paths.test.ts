// The broker's list of read-only mounts for what a repository's config points at (unit, no
// Docker): core.hooksPath, include.path and symlinked hooks inside the project, resolved by the
// reader it shares with the runner's sandbox (broker/git-config-refs.ts).
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareProtectedPaths } from '../../broker/protected-paths.ts';
import type { ProtectedMount } from '../../broker/protected-paths.ts';

let repo: string;
beforeEach(async () => {
  repo = join(await realpath(await mkdtemp(join(os.tmpdir(), 'brabo-pp-'))), 'repo');
  await mkdir(join(repo, '.git', 'hooks'), { recursive: true });
});
afterEach(async () => rm(join(repo, '..'), { recursive: true, force: true }));

const readOnlyTargets = (mounts: ProtectedMount[]) =>
  mounts.filter((mount) => mount.readOnly).map((mount) => mount.target);

describe('prepareProtectedPaths: what the config points at', () => {
  it('hooksPath (relative, /work/..., nested), include.path (relative to .git, /work/...), symlinked hooks: read-only, created when absent', async () => {
    await writeFile(
      join(repo, '.git', 'config'),
      [
        '[core]',
        '\thooksPath = .husky',
        '[core]',
        '\thooksPath = /work/tools/hooks',
        '[include]',
        '\tpath = ../team.gitconfig',
        '[includeIf "gitdir:/work/"]',
        '\tpath = /work/cfg.inc',
        '[include]',
        '\tpath = ~/.gitconfig-extra',
        '\tpath = /etc/gitconfig-outside',
        '',
      ].join('\n'),
    );
    await mkdir(join(repo, 'tools'));
    await mkdir(join(repo, 'scripts'));
    await writeFile(join(repo, 'scripts', 'pre-push'), '#!/bin/sh\n');
    await symlink('../../scripts/pre-push', join(repo, '.git', 'hooks', 'pre-push'));
    const mounts = await prepareProtectedPaths(repo, undefined);
    if (!Array.isArray(mounts)) throw new Error(JSON.stringify(mounts));
    expect(readOnlyTargets(mounts).sort()).toEqual(
      [
        '/work/.git/commondir',
        '/work/.git/config',
        '/work/.git/hooks',
        '/work/.husky',
        '/work/cfg.inc',
        '/work/permissions.json',
        '/work/scripts/pre-push',
        '/work/team.gitconfig',
        '/work/tools/hooks',
      ].sort(),
    );
    expect(mounts.find((mount) => mount.target === '/work/.husky')?.source).toBe(join(repo, '.husky'));
  });

  it.each([['.'], ['/work'], ['./'], ['/work/']])(
    'core.hooksPath %s (the project itself) is refused',
    async (value) => {
      await writeFile(join(repo, '.git', 'config'), `[core]\n\thooksPath = ${value}\n`);
      const result = await prepareProtectedPaths(repo, undefined);
      expect(Array.isArray(result) ? 'mounts' : result.code).toBe('workspace_unsafe');
    },
  );

  it('a hooksPath outside the project, or under ~, is not mounted', async () => {
    await writeFile(
      join(repo, '.git', 'config'),
      '[core]\n\thooksPath = ~/hooks\n[core]\n\thooksPath = ../elsewhere\n',
    );
    const mounts = await prepareProtectedPaths(repo, undefined);
    if (!Array.isArray(mounts)) throw new Error(JSON.stringify(mounts));
    expect(readOnlyTargets(mounts).sort()).toEqual([
      '/work/.git/commondir',
      '/work/.git/config',
      '/work/.git/hooks',
      '/work/permissions.json',
    ]);
  });
});

describe('prepareProtectedPaths: programs config values name, and the folders above nested targets', () => {
  it('an existing program and a script its line runs are read-only; a missing one is created empty, not executable; the folders above are pinned', async () => {
    await mkdir(join(repo, 'tools'), { recursive: true });
    await writeFile(join(repo, 'tools', 'watch'), '#!/bin/sh\n', { mode: 0o755 });
    await writeFile(join(repo, 'tools', 'conv.py'), 'print()\n');
    await writeFile(
      join(repo, '.git', 'config'),
      [
        '[core]',
        '\tfsmonitor = ./tools/watch',
        '\thooksPath = .husky/_',
        '[diff "py"]',
        '\ttextconv = python3 tools/conv.py',
        '[alias]',
        '\tx = !echo && /work/bin/deep/x',
        '\tst = status',
        '[core]',
        '\tpager = less',
        '',
      ].join('\n'),
    );
    await mkdir(join(repo, '.husky', '_'), { recursive: true });
    const mounts = await prepareProtectedPaths(repo, undefined);
    if (!Array.isArray(mounts)) throw new Error(mounts.message);
    expect(readOnlyTargets(mounts)).toEqual(
      expect.arrayContaining(['/work/tools/watch', '/work/tools/conv.py', '/work/bin/deep/x', '/work/.husky/_']),
    );
    const pinned = mounts.filter((mount) => !mount.readOnly).map((mount) => mount.target);
    expect(pinned).toEqual(expect.arrayContaining(['/work/tools', '/work/bin', '/work/bin/deep', '/work/.husky']));
    expect(pinned).not.toContain('/work');
    const { stat } = await import('node:fs/promises');
    const made = await stat(join(repo, 'bin', 'deep', 'x'));
    expect({ size: made.size, executable: (made.mode & 0o111) !== 0 }).toEqual({ size: 0, executable: false });
    // Parents before children: a pinned folder never covers the read-only entry inside it.
    const at = (target: string) => mounts.findIndex((mount) => mount.target === target);
    expect(at('/work/.husky')).toBeLessThan(at('/work/.husky/_'));
    expect(at('/work/bin/deep')).toBeLessThan(at('/work/bin/deep/x'));
  });
});
