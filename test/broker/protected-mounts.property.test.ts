// Issue 9 B.5, the broker's execution property test: generated commands (redirects, tee, sed -i,
// awk and sh -c one-liners, cp/mv/ln/rm, rename-and-replace tricks, glob and path spellings) run
// in a real container against a canary project. Whatever decide() would have said, none of
// permissions.json, .git/config, .git/hooks or .git/commondir changes, .git stays the same folder,
// and nothing outside the project folder changes. A control run shows the same operations do
// change unprotected files, so the property cannot pass because the commands never ran.
import { createHash } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DockerBroker } from '../../broker/index.ts';
import { cleanUp, makeWorkspace, newRunId, spec, testBroker, value } from './helpers.ts';

const runId = newRunId();
const folders: string[] = [];
let broker: DockerBroker;
let parent: string;
let workspace: string;
let outside: string;

const CANARY = {
  'permissions.json': '{"allow":["Terminal(echo:*)"],"deny":["Terminal(rm:*)"]}\n',
  '.git/config': '[core]\n\trepositoryformatversion = 0\n',
  '.git/hooks/pre-commit': '#!/bin/sh\nexit 0\n',
  '.git/HEAD': 'ref: refs/heads/main\n',
};

beforeAll(async () => {
  parent = await makeWorkspace();
  folders.push(parent);
  workspace = join(parent, 'project');
  outside = join(parent, 'outside');
  await mkdir(join(workspace, '.git', 'hooks'), { recursive: true });
  await mkdir(outside);
  for (const [path, content] of Object.entries(CANARY)) await writeFile(join(workspace, path), content);
  await writeFile(join(outside, 'secret.txt'), 'outside\n');
  await chmod(workspace, 0o777);
  await chmod(join(workspace, '.git'), 0o777);
  broker = testBroker(runId);
  value(await broker.start(spec('canary', workspace, { resources: { cpus: 1, memoryMb: 64, pids: 128 } })));
});

afterAll(async () => {
  await cleanUp(runId, folders);
});

/** Content and identity of everything that must not change. */
async function snapshot(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const hash = async (path: string) =>
    createHash('sha256')
      .update(await readFile(path))
      .digest('hex');
  for (const path of ['permissions.json', '.git/config', '.git/commondir', '.git/hooks/pre-commit']) {
    const full = join(workspace, path);
    const info = await stat(full);
    out[path] = `${info.ino}:${info.mode.toString(8)}:${await hash(full)}`;
  }
  const git = await stat(join(workspace, '.git'));
  out['.git'] = `${git.ino}`;
  const hooks = await stat(join(workspace, '.git', 'hooks'));
  out['.git/hooks'] =
    `${hooks.ino}:${hooks.mode.toString(8)}:${(await readdir(join(workspace, '.git', 'hooks'))).sort().join(',')}`;
  out.outside = (await readdir(outside)).sort().join(',') + ':' + (await hash(join(outside, 'secret.txt')));
  return out;
}

/** How a command names a protected path: plain, ./, //, globs, a cd first, printf-built. */
const PROTECTED: Array<{ dir: string; name: string }> = [
  { dir: '.', name: 'permissions.json' },
  { dir: '.git', name: 'config' },
  { dir: '.git/hooks', name: 'pre-commit' },
  { dir: '.git/hooks', name: 'post-checkout' },
  { dir: '.git', name: 'commondir' },
];
const spell = (dir: string, name: string, style: number): string => {
  const joined = dir === '.' ? name : `${dir}/${name}`;
  switch (style) {
    case 0:
      return joined;
    case 1:
      return `./${joined}`;
    case 2:
      return joined.replace('/', '//');
    case 3:
      return joined.replace('.git', '.gi?').replace('permissions', 'permission?');
    case 4:
      return `/work/${joined}`;
    case 5:
      return `"$(printf %s ${joined.slice(0, 3)})${joined.slice(3)}"`;
    default:
      return joined.replace('.git', '.[g]it');
  }
};

/** One operation that tries to change `path` (in `dir`, `name`), by every kind of writer. */
const operation = fc
  .record({
    target: fc.constantFrom(...PROTECTED),
    style: fc.integer({ min: 0, max: 6 }),
    how: fc.integer({ min: 0, max: 21 }),
  })
  .map(({ target, style, how }) => {
    const path = spell(target.dir, target.name, style);
    const dir = target.dir;
    switch (how) {
      case 0:
        return `echo x >> ${path}`;
      case 1:
        return `echo x > ${path}`;
      case 2:
        return `echo x | tee -a ${path}`;
      case 3:
        return `sed -i 's/^/x/' ${path}`;
      case 4:
        return `awk 'BEGIN { print "[core]\\n\\tfsmonitor = touch /work/pwned" >> "${target.dir}/${target.name}" }'`;
      case 5:
        return `sh -c 'printf evil > "$1"' sh ${path}`;
      case 6:
        return `cp /etc/passwd ${path}`;
      case 7:
        return `mv ${path} ${path}.bak; echo evil > ${path}`;
      case 8:
        return `echo evil > tmp.$$ && mv -f tmp.$$ ${path}`;
      case 9:
        return `rm -rf ${path}`;
      case 10:
        return `ln -sf /etc/passwd ${path}`;
      case 11:
        return `chmod 777 ${path}`;
      case 12:
        return `dd if=/dev/zero of=${path} bs=1 count=3 2>/dev/null`;
      case 13:
        return `cd ${dir} && echo x >> ${target.name}`;
      case 14:
        return `cd -P ${dir} && rm -f ${target.name} && echo x > ${target.name}`;
      case 15:
        return 'mv .git .git-moved && mkdir -p .git/hooks && echo evil > .git/config && echo "exit 9" > .git/hooks/pre-commit';
      case 16:
        return 'mv .git/hooks .git/hooks-moved; mkdir .git/hooks; echo evil > .git/hooks/pre-commit';
      case 17:
        return 'mv permissions.json p.json; echo "{\\"allow\\":[\\"Terminal(*)\\"]}" > permissions.json';
      case 18:
        return 'rm -rf .git; mkdir -p .git/hooks; echo evil > .git/config';
      case 19:
        return `ln ${path} hardlink-$$ && echo x >> hardlink-$$`;
      case 20:
        return `truncate -s 0 ${path} 2>/dev/null || : > ${path}`;
      default:
        return `echo '../evil' > .git/commondir; mkdir -p evil/hooks; echo evil > evil/config`;
    }
  });

const command = fc
  .tuple(fc.array(operation, { minLength: 1, maxLength: 3 }), fc.constantFrom('; ', ' && ', ' || ', ' | '))
  .map(([ops, joiner]) => ops.join(joiner));

describe('the broker read-only mounts (issue 9 B.5)', () => {
  it('no generated command changes a protected file, .git itself, or anything outside the project', async () => {
    const before = await snapshot();
    let ran = 0;
    await fc.assert(
      fc.asyncProperty(command, async (line) => {
        const result = await broker.exec('canary', { command: line, cwd: '/work', timeoutMs: 10_000 });
        expect(result.ok, result.ok ? '' : result.failure.message).toBe(true);
        ran += 1;
        expect(await snapshot(), line).toEqual(before);
      }),
      { numRuns: 60, seed: Number(process.env.BROKER_PROPERTY_SEED ?? Date.now() % 2 ** 31) },
    );
    expect(ran).toBeGreaterThanOrEqual(60);
  }, 240_000);

  it('control: the same writers do change unprotected files in the same container', async () => {
    await writeFile(join(workspace, 'notes.txt'), 'before\n', { mode: 0o666 });
    await chmod(join(workspace, 'notes.txt'), 0o666);
    await mkdir(join(workspace, '.git', 'info'), { recursive: true });
    await chmod(join(workspace, '.git', 'info'), 0o777);
    const lines = [
      'echo x >> notes.txt',
      `sed -i 's/^/y/' notes.txt`,
      `awk 'BEGIN { print "z" >> "notes.txt" }'`,
      'echo evil > tmp.1 && mv -f tmp.1 moved.txt',
      'echo ok > .git/info/exclude',
    ];
    for (const line of lines) {
      const result = value(await broker.exec('canary', { command: line, cwd: '/work' }));
      expect(result.exitCode, `${line}: ${result.stderr}`).toBe(0);
    }
    expect(await readFile(join(workspace, 'notes.txt'), 'utf8')).toBe('ybefore\nyx\nz\n');
    expect(await readFile(join(workspace, 'moved.txt'), 'utf8')).toBe('evil\n');
    expect(await readFile(join(workspace, '.git', 'info', 'exclude'), 'utf8')).toBe('ok\n');
  });

  it('control: without the mounts (protectProjectFiles: false) the same attacks do change them', async () => {
    const open = join(parent, 'unprotected');
    await mkdir(join(open, '.git', 'hooks'), { recursive: true });
    for (const path of ['.', '.git', '.git/hooks']) await chmod(join(open, path), 0o777);
    for (const [path, content] of Object.entries(CANARY)) {
      await writeFile(join(open, path), content);
      await chmod(join(open, path), 0o666);
    }
    const unprotected = testBroker(runId, { protectProjectFiles: false });
    value(await unprotected.start(spec('unprotected', open)));
    const line =
      'echo x >> permissions.json; echo "[core] fsmonitor=x" >> .git/config; echo evil > .git/hooks/pre-commit; mv .git .git-moved';
    expect(value(await unprotected.exec('unprotected', { command: line, cwd: '/work' })).exitCode).toBe(0);
    expect(await readFile(join(open, 'permissions.json'), 'utf8')).toBe(`${CANARY['permissions.json']}x\n`);
    expect(await readFile(join(open, '.git-moved', 'hooks', 'pre-commit'), 'utf8')).toBe('evil\n');
  });

  it('creates the protected files when absent, so a project without them is protected too', async () => {
    const bare = join(parent, 'bare');
    await mkdir(bare);
    await chmod(bare, 0o777);
    value(await broker.start(spec('bare', bare)));
    expect(await readFile(join(bare, 'permissions.json'), 'utf8')).toBe('{}\n');
    expect(await readFile(join(bare, '.git', 'commondir'), 'utf8')).toBe('.\n');
    expect((await stat(join(bare, '.git', 'hooks'))).isDirectory()).toBe(true);
    const attempt = value(
      await broker.exec('bare', {
        command:
          'echo "{\\"allow\\":[\\"Terminal(*)\\"]}" > permissions.json; echo "[core] fsmonitor=x" >> .git/config; touch .git/hooks/pre-commit; echo $?',
        cwd: '/work',
      }),
    );
    expect(attempt.stderr).toMatch(/Read-only file system/);
    expect(await readFile(join(bare, 'permissions.json'), 'utf8')).toBe('{}\n');
    expect(await readFile(join(bare, '.git', 'config'), 'utf8')).toBe('');
    expect(await readdir(join(bare, '.git', 'hooks'))).toEqual([]);
  });

  it('protects what the config and the hooks point at inside the project: core.hooksPath, include.path, symlinked hooks', async () => {
    const repo = join(parent, 'references');
    for (const folder of ['.git/hooks', '.husky', 'scripts']) await mkdir(join(repo, folder), { recursive: true });
    await writeFile(
      join(repo, '.git', 'config'),
      '[core]\n\thooksPath = .husky\n[include]\n\tpath = ../team.gitconfig\n',
    );
    await writeFile(join(repo, '.husky', 'pre-commit'), '#!/bin/sh\nexit 0\n');
    await writeFile(join(repo, 'team.gitconfig'), '[user]\n\tname = team\n');
    await writeFile(join(repo, 'scripts', 'pre-push'), '#!/bin/sh\nexit 0\n');
    const { symlink } = await import('node:fs/promises');
    await symlink('../../scripts/pre-push', join(repo, '.git', 'hooks', 'pre-push'));
    for (const path of ['', '.husky', 'scripts', '.git']) await chmod(join(repo, path), 0o777);
    for (const path of ['.husky/pre-commit', 'team.gitconfig', 'scripts/pre-push'])
      await chmod(join(repo, path), 0o666);
    value(await broker.start(spec('references', repo)));
    const attack = [
      'echo "touch /work/pwned" >> .husky/pre-commit',
      'echo evil > .husky/post-merge',
      'printf "[core]\\n\\tfsmonitor = x\\n" >> team.gitconfig',
      'echo "touch /work/pwned" >> scripts/pre-push',
      'mv scripts/pre-push scripts/old; echo evil > scripts/pre-push',
      'echo still-writable > scripts/other.sh && cat scripts/other.sh',
    ].join('; ');
    const result = value(await broker.exec('references', { command: attack, cwd: '/work' }));
    expect(result.stdout).toBe('still-writable\n');
    expect(await readFile(join(repo, '.husky', 'pre-commit'), 'utf8')).toBe('#!/bin/sh\nexit 0\n');
    expect(await readdir(join(repo, '.husky'))).toEqual(['pre-commit']);
    expect(await readFile(join(repo, 'team.gitconfig'), 'utf8')).toBe('[user]\n\tname = team\n');
    expect(await readFile(join(repo, 'scripts', 'pre-push'), 'utf8')).toBe('#!/bin/sh\nexit 0\n');
  });

  it('a hooksPath added on the host later is protected from the next start on (the container is replaced); an unchanged project keeps its container', async () => {
    const repo = join(parent, 'later');
    await mkdir(join(repo, '.git'), { recursive: true });
    for (const path of ['', '.git']) await chmod(join(repo, path), 0o777);
    const first = value(await broker.start(spec('later', repo)));
    expect(value(await broker.start(spec('later', repo))).containerId).toBe(first.containerId);
    await writeFile(join(repo, '.git', 'config'), '[core]\n\thooksPath = .githooks\n');
    const second = value(await broker.start(spec('later', repo)));
    expect(second.containerId).not.toBe(first.containerId);
    const attempt = value(
      await broker.exec('later', { command: 'echo evil > .githooks/pre-commit; ls .githooks | wc -l', cwd: '/work' }),
    );
    expect(attempt.stdout.trim()).toBe('0');
    expect(attempt.stderr).toMatch(/Read-only file system/);
  });

  it('refuses to start when a protected path is a symlink (Docker would mount what it points to)', async () => {
    const linked = join(parent, 'linked');
    await mkdir(join(linked, '.git'), { recursive: true });
    const { symlink } = await import('node:fs/promises');
    await symlink(join(outside, 'secret.txt'), join(linked, '.git', 'config'));
    const result = await broker.start(spec('linked', linked));
    expect(result.ok ? 'ok' : result.failure.code).toBe('workspace_unsafe');
    if (!result.ok) expect(result.failure.message).toContain('.git/config is a symbolic link');
  });
});
