// Attacks that plant code git runs later, as the user, outside any sandbox (issue 9, the
// colleague's two holes), with the real bubblewrap. Each attack runs sandboxed in one repository
// and unsandboxed in a fresh copy; then the user's next ordinary git command (`git status`, a
// `git reset --hard`, a `git commit`) runs on the host. The canary is a file outside the root that
// the planted code would create: it must appear for the unsandboxed copy (so the test proves
// something) and never for the sandboxed one.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { canaryTree, runIn, snapshot } from './support/sandbox.ts';
import type { Canary, RunOptions } from './support/sandbox.ts';

/** The user's own git settings stay out of the test: none of theirs applies. */
const ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_TERMINAL_PROMPT: '0',
};

const trees: Canary[] = [];
afterEach(() => {
  for (const tree of trees.splice(0)) tree.cleanup();
});

/**
 * A canary tree whose root is a real git repository with one commit; `before` runs before that
 * commit, `after` after it (a hook it installs does not run on the first commit).
 */
function repository(before: (root: string) => void = () => {}, after: (tree: Canary) => void = () => {}): Canary {
  const tree = canaryTree();
  trees.push(tree);
  rmSync(path.join(tree.root, '.git'), { recursive: true });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: tree.root, env: ENV, stdio: 'pipe' });
  git('init', '-q', '-b', 'main', '.');
  git('config', 'user.email', 'ana@example.com');
  git('config', 'user.name', 'Ana');
  before(tree.root);
  git('add', '-A');
  git('commit', '-qm', 'first');
  after(tree);
  return tree;
}

const run = (root: string, command: string, options: RunOptions = {}) => runIn(root, command, { env: ENV, ...options });

interface Attack {
  name: string;
  /** The auto-approved command; its argument is the folder outside the root the planted code touches. */
  command: (victim: string) => string;
  /** What the user runs next on the host (default `git status`). */
  trigger?: string;
  /** Prepares the repository on the host, after its first commit (a config, a hooks folder). */
  setup?: (tree: Canary) => void;
  /** More environment for the command and the user's git (HOME, GIT_CONFIG_GLOBAL). */
  env?: (tree: Canary) => NodeJS.ProcessEnv;
  /** The entries that must not change (default: .git). */
  protects?: (root: string) => string[];
}

/** What git runs for a repository whose config carries it. */
const fsmonitor = (victim: string) => `touch ${victim}/PWNED; false`;

/**
 * Runs `attack` unsandboxed on a fresh repository (the planted code must run on the trigger), then
 * sandboxed in each --sandbox-git mode on another: the protected entries stay as they were and
 * nothing runs. Soft assertions: one run reports every attack that got through.
 */
async function provesAndHolds(attack: Attack, modes: Array<'read-only' | 'writable'> = ['read-only']): Promise<void> {
  const trigger = `${attack.trigger ?? 'git status'} >/dev/null 2>&1; true`;
  const envOf = (tree: Canary): NodeJS.ProcessEnv => ({ ...ENV, ...attack.env?.(tree) });
  const protects = attack.protects ?? ((root: string) => [path.join(root, '.git')]);
  const control = repository(undefined, attack.setup);
  const controlRun = await run(control.root, attack.command(control.outside), {
    sandboxed: false,
    env: envOf(control),
  });
  await run(control.root, trigger, { sandboxed: false, env: envOf(control) });
  expect
    .soft(
      existsSync(path.join(control.outside, 'PWNED')),
      `${attack.name}: unsandboxed, the attack works (exit ${controlRun.exitCode}: ${controlRun.stderr.slice(0, 400)})`,
    )
    .toBe(true);

  for (const git of modes) {
    const target = repository(undefined, attack.setup);
    const env = envOf(target);
    const before = protects(target.root).map((entry) => snapshotOf(entry));
    const outcome = await run(target.root, attack.command(target.outside), { git, env });
    expect.soft(outcome.timedOut, `${attack.name} (${git}): no hang`).toBe(false);
    expect
      .soft(
        protects(target.root).map((entry) => snapshotOf(entry)),
        `${attack.name} (${git}): protected entries unchanged`,
      )
      .toEqual(before);
    await run(target.root, trigger, { sandboxed: false, env });
    expect
      .soft(existsSync(path.join(target.outside, 'PWNED')), `${attack.name} (${git}): sandboxed, nothing planted ran`)
      .toBe(false);
  }
}

/**
 * An entry's kind, mode and content (a folder: everything under it). Absent and empty are one
 * state: the sandbox creates an absent protected file or folder empty before the command runs.
 */
function snapshotOf(entry: string): string {
  const stat = lstatSync(entry, { throwIfNoEntry: false });
  if (stat === undefined) return 'absent or empty';
  if (stat.isSymbolicLink()) return `symlink -> ${readlinkSync(entry)}`;
  if (stat.isDirectory()) {
    const inside = [...snapshot(entry).entries()].sort();
    return inside.length === 0 ? 'absent or empty' : JSON.stringify(inside);
  }
  if (stat.isFile() && stat.size === 0) return 'absent or empty';
  return `${stat.mode.toString(8)} ${readFileSync(entry, 'utf8')}`;
}

const linkAt = (where: string) => `git update-index --add --cacheinfo 160000,$(git rev-parse HEAD),${where}`;
const nestedAt = (where: string, victim: string) =>
  `mkdir -p ${where} && (cd ${where} && git init -q . && git config core.fsmonitor "${fsmonitor(victim)}")`;
/** A tree of HEAD plus a gitlink `lib`, and a commit of it: in $t and $c. */
const craftedCommit =
  `t=$({ git ls-tree HEAD; printf '160000 commit %s\\tlib\\n' "$(git rev-parse HEAD)"; } | git mktree) && ` +
  `c=$(git commit-tree "$t" -p HEAD -m crafted)`;
const privateIndex = `GIT_INDEX_FILE=/tmp/idx git read-tree HEAD && GIT_INDEX_FILE=/tmp/idx ${linkAt('lib')}`;

const makefile = (victim: string) =>
  Buffer.from(
    [
      'test:',
      `\tmkdir -p vendor/lib && cd vendor/lib && git init -q . && git config core.fsmonitor "${fsmonitor(victim)}"`,
      '\tgit update-index --add --cacheinfo 160000,$$(git rev-parse HEAD),vendor/lib',
      '',
    ].join('\n'),
  ).toString('base64');

const gitlinkAttacks: Attack[] = [
  {
    name: 'the colleague: nested git init + update-index --cacheinfo 160000',
    command: (v) => `${nestedAt('vendor/lib', v)} && ${linkAt('vendor/lib')}`,
  },
  {
    name: 'the colleague, end to end: a Makefile written by echo, then make test',
    command: (v) => `echo ${makefile(v)} | base64 -d > Makefile && make -s test`,
  },
  {
    name: 'git clone -c core.fsmonitor of the root, then update-index',
    command: (v) => `git clone -q -c core.fsmonitor="${fsmonitor(v)}" . vendor/lib && ${linkAt('vendor/lib')}`,
  },
  {
    name: 'git read-tree of a crafted tree with a gitlink',
    command: (v) => `${nestedAt('lib', v)} && ${craftedCommit} && git read-tree "$t"`,
  },
  {
    name: 'git checkout of a gitlink from a crafted commit',
    command: (v) => `${nestedAt('lib', v)} && ${craftedCommit} && git checkout "$c" -- lib`,
  },
  {
    name: 'the gitlink committed (index, objects, refs)',
    command: (v) => `${nestedAt('lib', v)} && ${linkAt('lib')} && git commit -qm vendored`,
  },
  {
    name: 'refs only: update-ref moves main to a crafted commit; the user resets',
    command: (v) => `${nestedAt('lib', v)} && ${craftedCommit} && git update-ref refs/heads/main "$c"`,
    trigger: 'git reset -q --hard && git status',
  },
  {
    name: 'a loose ref file written directly',
    command: (v) => `${nestedAt('lib', v)} && ${craftedCommit} && echo "$c" > .git/refs/heads/main`,
    trigger: 'git reset -q --hard && git status',
  },
  {
    name: 'packed-refs written directly',
    command: (v) =>
      `${nestedAt('lib', v)} && ${craftedCommit} && rm -f .git/refs/heads/main && echo "$c refs/heads/main" >> .git/packed-refs`,
    trigger: 'git reset -q --hard && git status',
  },
  {
    name: 'HEAD detached onto a crafted commit',
    command: (v) => `${nestedAt('lib', v)} && ${craftedCommit} && echo "$c" > .git/HEAD`,
    trigger: 'git reset -q --hard && git status',
  },
  {
    name: 'objects written to a private object folder, then the index',
    command: (v) =>
      `${nestedAt('lib', v)} && mkdir -p /tmp/o && export GIT_OBJECT_DIRECTORY=/tmp/o GIT_ALTERNATE_OBJECT_DIRECTORIES=$PWD/.git/objects && ${craftedCommit} && unset GIT_OBJECT_DIRECTORY && GIT_ALTERNATE_OBJECT_DIRECTORIES=/tmp/o git read-tree "$t"`,
  },
  {
    name: 'a private index (GIT_INDEX_FILE in /tmp) copied over .git/index',
    command: (v) => `${nestedAt('lib', v)} && ${privateIndex} && cp /tmp/idx .git/index`,
  },
  {
    name: 'a private index renamed into place through index.lock',
    command: (v) =>
      `${nestedAt('lib', v)} && ${privateIndex} && cp /tmp/idx .git/index.lock && mv .git/index.lock .git/index`,
  },
  {
    name: 'python3 writes the index bytes',
    command: (v) =>
      `${nestedAt('lib', v)} && ${privateIndex} && python3 -c "open('.git/index','wb').write(open('/tmp/idx','rb').read())"`,
  },
  {
    name: 'git submodule add of a planted repository, fsmonitor in its git dir',
    command: (v) =>
      `mkdir subsrc && (cd subsrc && git init -q -b main . && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m s) && ` +
      `git -c protocol.file.allow=always submodule add -q "$PWD/subsrc" lib && git -C lib config core.fsmonitor "${fsmonitor(v)}"`,
  },
];

describe('gitlink to a planted nested repository (--sandbox-git read-only, the default)', () => {
  it(`${gitlinkAttacks.length} ways of staging one: unsandboxed the user's next git command runs the planted fsmonitor; sandboxed .git is unchanged and nothing runs`, async () => {
    for (const attack of gitlinkAttacks) await provesAndHolds(attack);
  }, 300_000);

  it("--sandbox-git writable keeps the old trade-off: the colleague's update-index is staged (what the flag costs)", async () => {
    const target = repository();
    const attack = gitlinkAttacks[0]!;
    const outcome = await run(target.root, attack.command(target.outside), { git: 'writable' });
    expect(outcome.exitCode).toBe(0);
    await run(target.root, 'git status >/dev/null 2>&1; true', { sandboxed: false });
    expect(existsSync(path.join(target.outside, 'PWNED'))).toBe(true);
  });
});

const COMMIT = 'git commit -q --allow-empty -m next';
const plantHook = (file: string, victim: string) =>
  `printf '#!/bin/sh\\ntouch ${victim}/PWNED\\n' > ${file} && chmod +x ${file}`;
const setConfig = (tree: Canary, ...args: string[]) =>
  execFileSync('git', ['config', ...args], { cwd: tree.root, env: ENV, stdio: 'pipe' });
const executable = (file: string, text = '#!/bin/sh\n') => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, 0o755);
};
const husky =
  (value: string, folder = '.husky') =>
  (tree: Canary) => {
    mkdirSync(path.join(tree.root, folder), { recursive: true });
    setConfig(tree, 'core.hooksPath', value);
  };
const inRoot =
  (...names: string[]) =>
  (root: string) =>
    names.map((name) => path.join(root, name));
const globalConfig = (text: (tree: Canary) => string) => ({
  env: (tree: Canary) => ({ GIT_CONFIG_GLOBAL: path.join(tree.base, 'outside', 'global.gitconfig') }),
  setup: (tree: Canary) => writeFileSync(path.join(tree.base, 'outside', 'global.gitconfig'), text(tree)),
});

const hooksPathAttacks: Attack[] = [
  {
    name: 'the colleague: core.hooksPath=.husky, a pre-commit planted in it',
    setup: husky('.husky'),
    command: (v) => plantHook('.husky/pre-commit', v),
    trigger: COMMIT,
    protects: inRoot('.husky'),
  },
  {
    name: 'core.hooksPath=.husky while .husky does not exist yet (created first)',
    setup: (tree) => setConfig(tree, 'core.hooksPath', '.husky'),
    command: (v) => `mkdir -p .husky && ${plantHook('.husky/pre-commit', v)}`,
    trigger: COMMIT,
  },
  {
    name: 'an absolute core.hooksPath inside the root',
    setup: (tree) => husky(path.join(tree.root, '.githooks'), '.githooks')(tree),
    command: (v) => plantHook('.githooks/pre-commit', v),
    trigger: COMMIT,
    protects: inRoot('.githooks'),
  },
  {
    name: 'core.hooksPath=./.husky/ (dot, trailing slash)',
    setup: husky('./.husky/'),
    command: (v) => plantHook('.husky/pre-commit', v),
    trigger: COMMIT,
    protects: inRoot('.husky'),
  },
  {
    name: 'nested core.hooksPath=.husky/_ (husky 9): planted in place',
    setup: husky('.husky/_', '.husky/_'),
    command: (v) => plantHook('.husky/_/pre-commit', v),
    trigger: COMMIT,
    protects: inRoot('.husky'),
  },
  {
    name: 'nested core.hooksPath=.husky/_: the folder above renamed away and made again',
    setup: husky('.husky/_', '.husky/_'),
    command: (v) => `mv .husky .husky-old; mkdir -p .husky/_ && ${plantHook('.husky/_/pre-commit', v)}`,
    trigger: COMMIT,
    protects: inRoot('.husky'),
  },
  {
    name: 'an existing husky hook appended to',
    setup: (tree) => {
      husky('.husky')(tree);
      executable(path.join(tree.root, '.husky', 'pre-commit'));
    },
    command: (v) => `echo "touch ${v}/PWNED" >> .husky/pre-commit`,
    trigger: COMMIT,
    protects: inRoot('.husky'),
  },
  {
    name: 'python3 writes the hook and its mode',
    setup: husky('.husky'),
    command: (v) =>
      `python3 -c "import os; open('.husky/pre-commit','w').write('#!/bin/sh\\ntouch ${v}/PWNED\\n'); os.chmod('.husky/pre-commit', 0o755)"`,
    trigger: COMMIT,
    protects: inRoot('.husky'),
  },
  {
    name: 'core.hooksPath with ~ (the home folder above the root)',
    env: (tree) => ({ HOME: tree.base }),
    setup: husky('~/root/.hooks', '.hooks'),
    command: (v) => plantHook('.hooks/pre-commit', v),
    trigger: COMMIT,
    protects: inRoot('.hooks'),
  },
  {
    name: 'core.hooksPath in the global config (relative: the work tree)',
    ...globalConfig(() => '[core]\n\thooksPath = .githooks\n'),
    command: (v) => `mkdir -p .githooks && ${plantHook('.githooks/pre-commit', v)}`,
    trigger: COMMIT,
  },
  {
    name: 'a hook that is a symlink (.git/hooks/pre-commit -> ../../scripts/pre-commit): the script rewritten',
    setup: (tree) => {
      executable(path.join(tree.root, 'scripts', 'pre-commit'));
      symlinkSync('../../scripts/pre-commit', path.join(tree.root, '.git', 'hooks', 'pre-commit'));
    },
    command: (v) => `echo "touch ${v}/PWNED" >> scripts/pre-commit`,
    trigger: COMMIT,
    protects: inRoot('scripts/pre-commit'),
  },
  {
    name: "a hook symlink's target renamed away and planted again",
    setup: (tree) => {
      executable(path.join(tree.root, 'scripts', 'pre-commit'));
      symlinkSync('../../scripts/pre-commit', path.join(tree.root, '.git', 'hooks', 'pre-commit'));
    },
    command: (v) =>
      `mv scripts/pre-commit scripts/old; mv scripts s2; mkdir -p scripts && ${plantHook('scripts/pre-commit', v)}`,
    trigger: COMMIT,
    protects: inRoot('scripts/pre-commit'),
  },
  {
    name: 'a symlink in .husky to tools/hook.sh: the script rewritten',
    setup: (tree) => {
      husky('.husky')(tree);
      executable(path.join(tree.root, 'tools', 'hook.sh'));
      symlinkSync('../tools/hook.sh', path.join(tree.root, '.husky', 'pre-commit'));
    },
    command: (v) => `echo "touch ${v}/PWNED" >> tools/hook.sh`,
    trigger: COMMIT,
    protects: inRoot('tools/hook.sh', '.husky'),
  },
];

const fsmonitorConfig = (victim: string) => `printf '[core]\\n\\tfsmonitor = "${fsmonitor(victim)}"\\n'`;
const includeAttacks: Attack[] = [
  {
    name: 'include.path=../team.gitconfig (relative to .git): core.fsmonitor appended',
    setup: (tree) => {
      writeFileSync(path.join(tree.root, 'team.gitconfig'), '[user]\n\tname = team\n');
      setConfig(tree, 'include.path', '../team.gitconfig');
    },
    command: (v) => `${fsmonitorConfig(v)} >> team.gitconfig`,
    protects: inRoot('team.gitconfig'),
  },
  {
    name: 'an include.path that does not exist yet (created empty first)',
    setup: (tree) => setConfig(tree, 'include.path', '../local.gitconfig'),
    command: (v) => `${fsmonitorConfig(v)} > local.gitconfig`,
    protects: inRoot('local.gitconfig'),
  },
  {
    name: 'includeIf.gitdir:...path=../config/git.inc: the folder above renamed away',
    setup: (tree) => {
      mkdirSync(path.join(tree.root, 'config'));
      writeFileSync(path.join(tree.root, 'config', 'git.inc'), '');
      setConfig(tree, `includeIf.gitdir:${tree.root}/.path`, '../config/git.inc');
    },
    command: (v) => `mv config config.old; mkdir -p config && ${fsmonitorConfig(v)} > config/git.inc`,
    protects: inRoot('config/git.inc'),
  },
  {
    name: 'an include inside an included file (relative to that file)',
    setup: (tree) => {
      writeFileSync(path.join(tree.root, 'team.gitconfig'), '[include]\n\tpath = more.gitconfig\n');
      setConfig(tree, 'include.path', '../team.gitconfig');
    },
    command: (v) => `${fsmonitorConfig(v)} > more.gitconfig`,
    protects: inRoot('team.gitconfig', 'more.gitconfig'),
  },
  {
    name: 'include.path in the global config, absolute into the root',
    ...globalConfig((tree) => `[include]\n\tpath = ${tree.root}/dev.gitconfig\n`),
    command: (v) => `${fsmonitorConfig(v)} > dev.gitconfig`,
  },
  {
    name: 'include.path with ~',
    env: (tree) => ({ HOME: tree.base }),
    setup: (tree) => setConfig(tree, 'include.path', '~/root/team.gitconfig'),
    command: (v) => `${fsmonitorConfig(v)} > team.gitconfig`,
  },
];

describe('what git config points at inside the root: core.hooksPath, include.path, symlinked hooks', () => {
  it(`${hooksPathAttacks.length} ways of planting a hook: unsandboxed the user's next git commit runs it; sandboxed (both --sandbox-git modes) nothing changes or runs`, async () => {
    for (const attack of hooksPathAttacks) await provesAndHolds(attack, ['read-only', 'writable']);
  }, 300_000);

  it(`${includeAttacks.length} ways of planting core.fsmonitor through an included config: unsandboxed git status runs it; sandboxed nothing changes or runs`, async () => {
    for (const attack of includeAttacks) await provesAndHolds(attack, ['read-only', 'writable']);
  }, 300_000);

  it('the protected targets are still ordinary files to read and run; everything else under the root stays writable', async () => {
    const target = repository(undefined, (tree) => {
      husky('.husky/_', '.husky/_')(tree);
      executable(path.join(tree.root, '.husky', '_', 'pre-commit'), '#!/bin/sh\necho hook-ran\n');
    });
    const outcome = await run(
      target.root,
      'cat .husky/_/pre-commit && echo ok > .husky/notes.txt && echo ok > src/new.txt && cat src/new.txt',
    );
    expect(outcome).toMatchObject({ exitCode: 0, stdout: '#!/bin/sh\necho hook-ran\nok\n' });
    expect(readFileSync(path.join(target.root, '.husky', 'notes.txt'), 'utf8')).toBe('ok\n');
  });
});

describe('git inside the read-only default', () => {
  it('status, log, diff, show, grep, blame and rev-parse work, also with a stale index (the refresh fails silently)', async () => {
    const target = repository((root) => execFileSync('sh', ['-c', 'echo one > notes.txt'], { cwd: root }));
    // Stale: the file's stat no longer matches the index, so git would rewrite the index.
    execFileSync('sh', ['-c', 'echo two >> notes.txt && touch -d "2001-01-01" notes.txt src/a.txt'], {
      cwd: target.root,
    });
    const index = readFileSync(path.join(target.root, '.git', 'index'));
    for (const [command, expected] of [
      ['git status --porcelain', ' M notes.txt\n'],
      ['git status', 'modified:   notes.txt'],
      ['git log --oneline', 'first'],
      ['git diff --stat', 'notes.txt | 1 +'],
      ['git diff HEAD', '+two'],
      ['git show --stat HEAD', 'first'],
      ['git grep -n one', 'notes.txt:1:one'],
      ['git blame notes.txt', 'one'],
      ['git rev-parse --show-toplevel', target.root],
      ['git ls-files', 'notes.txt'],
      ['git branch --list', 'main'],
    ] as const) {
      const outcome = await run(target.root, command);
      expect({ command, exitCode: outcome.exitCode, stderr: outcome.stderr }).toEqual({
        command,
        exitCode: 0,
        stderr: '',
      });
      expect(outcome.stdout, command).toContain(expected);
    }
    expect(readFileSync(path.join(target.root, '.git', 'index')).equals(index)).toBe(true);
  }, 120_000);

  it("commands that write the git dir fail at once with git's own message (Read-only file system), no hang", async () => {
    const target = repository();
    execFileSync('sh', ['-c', 'echo change >> src/a.txt'], { cwd: target.root });
    for (const command of [
      'git add src/a.txt',
      'git commit -qam change',
      'git checkout -q -b feature',
      'git tag v1',
      'git config user.name Eve',
      'git gc -q',
      'git reset -q --hard',
      'git rm -q --cached src/a.txt',
      'git notes add -m note',
      'git branch other',
    ]) {
      const started = Date.now();
      const outcome = await run(target.root, command);
      expect({ command, failed: outcome.exitCode !== 0, timedOut: outcome.timedOut }).toEqual({
        command,
        failed: true,
        timedOut: false,
      });
      expect(outcome.stderr, command).toMatch(/Read-only file system|could not lock config file|unable to/i);
      expect(Date.now() - started, command).toBeLessThan(10_000);
    }
    // git stash (2.39) fails without a word of its own: exit 1, and nothing stashed.
    const stash = await run(target.root, 'git stash');
    expect({ exitCode: stash.exitCode, timedOut: stash.timedOut }).toEqual({ exitCode: 1, timedOut: false });
    // Nothing of the above reached the repository.
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: target.root, env: ENV, encoding: 'utf8' })).toBe(
      ' M src/a.txt\n',
    );
  }, 120_000);

  it('--sandbox-git writable: git add and git commit work; .git/config and .git/hooks stay read-only', async () => {
    const target = repository();
    const config = readFileSync(path.join(target.root, '.git', 'config'), 'utf8');
    const outcome = await run(
      target.root,
      'echo more >> src/a.txt && git add src/a.txt && git commit -qm second && git log --oneline | wc -l',
      { git: 'writable' },
    );
    expect(outcome).toMatchObject({ exitCode: 0, stdout: '2\n' });
    for (const command of [
      `git config core.fsmonitor "touch ${target.outside}/PWNED"`,
      `printf '#!/bin/sh\\ntouch ${target.outside}/PWNED\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit`,
    ]) {
      const attempt = await run(target.root, command, { git: 'writable' });
      expect(attempt.exitCode, command).not.toBe(0);
    }
    expect(readFileSync(path.join(target.root, '.git', 'config'), 'utf8')).toBe(config);
    expect(existsSync(path.join(target.root, '.git', 'hooks', 'pre-commit'))).toBe(false);
    await run(target.root, 'git status >/dev/null; echo x >> src/a.txt; git commit -qam third', { sandboxed: false });
    expect(existsSync(path.join(target.outside, 'PWNED'))).toBe(false);
  });
});

// ---- existing submodules ---------------------------------------------------------------------

/** A repository outside the root to add as a submodule (with one of its own when `inner`). */
function submoduleSource(tree: Canary, name: string, inner?: string): string {
  const source = path.join(tree.base, 'outside', name);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: source, env: ENV, stdio: 'pipe' });
  mkdirSync(source, { recursive: true });
  git('init', '-q', '-b', 'main', '.');
  writeFileSync(path.join(source, 'lib.txt'), `${name}\n`);
  if (inner !== undefined)
    git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', submoduleSource(tree, inner), 'inner');
  git('add', '-A');
  git('-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-qm', name);
  return source;
}

/** Adds a submodule at `where` (recursively checked out) and commits it. */
const withSubmodule =
  (where = 'lib', options: { inner?: boolean; then?: (tree: Canary) => void } = {}) =>
  (tree: Canary) => {
    const source = submoduleSource(tree, `src-${where.replaceAll('/', '-')}`, options.inner ? 'src-inner' : undefined);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: tree.root, env: ENV, stdio: 'pipe' });
    git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', source, where);
    git('-c', 'protocol.file.allow=always', 'submodule', 'update', '-q', '--init', '--recursive');
    git('commit', '-qm', 'submodule');
    options.then?.(tree);
  };
/** An old-style submodule: a clone whose `.git` is a folder in the work tree, staged as a gitlink. */
const embedded = (tree: Canary) => {
  const source = submoduleSource(tree, 'src-embedded');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: tree.root, env: ENV, stdio: 'pipe' });
  git('clone', '-q', source, 'lib');
  git('add', 'lib');
  git('commit', '-qm', 'embedded');
};
const deinit = (remove: boolean) => (tree: Canary) => {
  execFileSync('git', ['submodule', 'deinit', '-q', '-f', 'lib'], { cwd: tree.root, env: ENV, stdio: 'pipe' });
  if (remove) rmSync(path.join(tree.root, 'lib'), { recursive: true, force: true });
};
const replant = (where: string, victim: string) =>
  `git init -q ${where} && git -C ${where} config core.fsmonitor "${fsmonitor(victim)}"`;

const submoduleAttacks: Attack[] = [
  {
    name: 'lib/.git (a gitdir: file) replaced by a repository of its own',
    setup: withSubmodule(),
    command: (v) => `rm -f lib/.git; ${replant('lib', v)}`,
    protects: inRoot('lib/.git', '.git/modules'),
  },
  {
    name: 'lib/.git rewritten to name a planted git dir inside the root',
    setup: withSubmodule(),
    command: (v) => `${replant('evil', v)} && echo "gitdir: ../evil/.git" > lib/.git`,
    protects: inRoot('lib/.git'),
  },
  {
    name: 'lib/.git written by python3',
    setup: withSubmodule(),
    command: (v) => `${replant('evil', v)} && python3 -c "open('lib/.git','w').write('gitdir: ../evil/.git\\n')"`,
    protects: inRoot('lib/.git'),
  },
  {
    name: 'lib/.git renamed away, then a repository made in its place',
    setup: withSubmodule(),
    command: (v) => `mv lib/.git lib/.git.old; ${replant('lib', v)}`,
    protects: inRoot('lib/.git'),
  },
  {
    name: 'lib/.git replaced by a symlink to a planted git dir',
    setup: withSubmodule(),
    command: (v) => `${replant('evil', v)} && rm -f lib/.git; ln -s ../evil/.git lib/.git`,
    protects: inRoot('lib/.git'),
  },
  {
    name: 'the submodule folder renamed away and made again',
    setup: withSubmodule(),
    command: (v) => `mv lib lib.old; mkdir -p lib && ${replant('lib', v)}`,
    protects: inRoot('lib/.git'),
  },
  {
    name: 'vendor/lib: the folder above the submodule renamed away and made again',
    setup: withSubmodule('vendor/lib'),
    command: (v) => `mv vendor vendor.old; mkdir -p vendor/lib && ${replant('vendor/lib', v)}`,
    protects: inRoot('vendor/lib/.git'),
  },
  {
    name: 'the submodule config itself (.git/modules/lib/config) given core.fsmonitor',
    setup: withSubmodule(),
    command: (v) => `git -C lib config core.fsmonitor "${fsmonitor(v)}"`,
    protects: inRoot('.git/modules/lib/config'),
  },
  {
    name: 'a submodule not checked out (deinit): a repository planted in its empty folder',
    setup: withSubmodule('lib', { then: deinit(false) }),
    command: (v) => replant('lib', v),
    protects: inRoot('lib/.git'),
  },
  {
    name: 'a submodule whose folder is gone: the folder and a repository made',
    setup: withSubmodule('lib', { then: deinit(true) }),
    command: (v) => `mkdir lib && ${replant('lib', v)}`,
    protects: inRoot('lib/.git'),
  },
  {
    name: 'a submodule not checked out: git init --separate-git-dir plants a gitdir: file and its git dir',
    setup: withSubmodule('lib', { then: deinit(false) }),
    command: (v) => `git init -q --separate-git-dir=evil.git lib && git -C lib config core.fsmonitor "${fsmonitor(v)}"`,
    protects: inRoot('lib/.git'),
  },
  {
    name: 'a nested submodule (lib/inner/.git) replaced',
    setup: withSubmodule('lib', { inner: true }),
    command: (v) => `rm -f lib/inner/.git; ${replant('lib/inner', v)}`,
    protects: inRoot('lib/inner/.git'),
  },
  {
    name: 'an old-style submodule (lib/.git a folder): its config given core.fsmonitor',
    setup: embedded,
    command: (v) => `git -C lib config core.fsmonitor "${fsmonitor(v)}"`,
    protects: inRoot('lib/.git/config'),
  },
  {
    name: 'an old-style submodule: its .git folder replaced',
    setup: embedded,
    command: (v) => `rm -rf lib/.git; mv lib/.git lib/.git.old; ${replant('lib', v)}`,
    protects: inRoot('lib/.git/config'),
  },
];

describe('existing submodules: their .git stays in place, in both --sandbox-git modes', () => {
  it(`${submoduleAttacks.length} ways of swapping a submodule's repository: unsandboxed the user's next git status runs its fsmonitor; sandboxed nothing changes or runs`, async () => {
    for (const attack of submoduleAttacks) await provesAndHolds(attack, ['read-only', 'writable']);
  }, 600_000);

  it('a submodule stays an ordinary checkout: git status, log and diff inside it work, its files are writable', async () => {
    const target = repository(undefined, withSubmodule());
    const outcome = await run(
      target.root,
      'echo more >> lib/lib.txt && git status --porcelain && git -C lib log --oneline | wc -l && git -C lib diff --stat',
    );
    expect(outcome).toMatchObject({ exitCode: 0, stderr: '' });
    expect(outcome.stdout).toContain(' M lib');
    expect(outcome.stdout).toContain('lib.txt | 1 +');
  });
});

// ---- programs config values name inside the root ---------------------------------------------

/** A script that touches the canary; `exit` its status (an fsmonitor hook that fails is ignored by git). */
const payload = (victim: string) => `#!/bin/sh\\ntouch ${victim}/PWNED\\nexit 1\\n`;
const plantProgram = (file: string, victim: string) =>
  `mkdir -p "$(dirname ${file})" && printf '${payload(victim)}' > ${file} && chmod +x ${file}`;
const configured =
  (pairs: Array<[string, string]>, files: Record<string, string> = {}) =>
  (tree: Canary) => {
    for (const [name, text] of Object.entries(files)) executable(path.join(tree.root, name), text);
    for (const [key, value] of pairs) setConfig(tree, key, value);
  };
const attributes = (line: string) => (tree: Canary) => {
  writeFileSync(path.join(tree.root, '.gitattributes'), `${line}\n`);
  execFileSync('sh', ['-c', 'git add .gitattributes && git commit -qm attributes'], { cwd: tree.root, env: ENV });
};
const both =
  (...steps: Array<(tree: Canary) => void>) =>
  (tree: Canary) => {
    for (const step of steps) step(tree);
  };
const CHANGE = 'echo change >> src/a.txt';

const programAttacks: Attack[] = [
  {
    name: 'core.fsmonitor = ./tools/fsmonitor (exists): rewritten',
    setup: configured([['core.fsmonitor', './tools/fsmonitor']], { 'tools/fsmonitor': '#!/bin/sh\nexit 1\n' }),
    command: (v) => plantProgram('tools/fsmonitor', v),
    protects: inRoot('tools/fsmonitor'),
  },
  {
    name: 'core.fsmonitor = ./tools/fsmonitor (exists): its folder renamed away and made again',
    setup: configured([['core.fsmonitor', './tools/fsmonitor']], { 'tools/fsmonitor': '#!/bin/sh\nexit 1\n' }),
    command: (v) => `mv tools tools.old; ${plantProgram('tools/fsmonitor', v)}`,
    protects: inRoot('tools/fsmonitor'),
  },
  {
    name: 'core.fsmonitor = tools/watch, absent with its folder: created by the command',
    setup: configured([['core.fsmonitor', 'tools/watch']]),
    command: (v) => plantProgram('tools/watch', v),
    protects: inRoot('tools/watch'),
  },
  {
    name: 'core.fsmonitor absent: its folder made a symlink to a folder holding the program',
    setup: configured([['core.fsmonitor', './bin/watch']]),
    command: (v) => `${plantProgram('elsewhere/watch', v)} && ln -s elsewhere bin`,
    protects: inRoot('bin'),
  },
  {
    name: 'core.fsmonitor absolute inside the root, absent',
    setup: (tree) => configured([['core.fsmonitor', path.join(tree.root, 'watch.sh')]])(tree),
    command: (v) => plantProgram('watch.sh', v),
    protects: inRoot('watch.sh'),
  },
  {
    name: 'core.fsmonitor = .git/fsmonitor.sh, absent (a writable git dir)',
    setup: configured([['core.fsmonitor', '.git/fsmonitor.sh']]),
    command: (v) => plantProgram('.git/fsmonitor.sh', v),
    protects: inRoot('.git/fsmonitor.sh'),
  },
  {
    name: 'core.editor = ./editor.sh: the next git commit without -m',
    setup: configured([['core.editor', './editor.sh']], { 'editor.sh': '#!/bin/sh\nexit 1\n' }),
    command: (v) => plantProgram('editor.sh', v),
    trigger: 'git commit --allow-empty',
    protects: inRoot('editor.sh'),
  },
  {
    name: 'diff.<d>.textconv = python3 tools/conv.py (a script an interpreter runs): git diff',
    setup: both(
      configured([['diff.conv.textconv', 'python3 tools/conv.py']], {
        'tools/conv.py': 'import sys\nprint(open(sys.argv[1]).read())\n',
      }),
      attributes('*.txt diff=conv'),
    ),
    command: (v) => `printf 'import os\\nopen("${v}/PWNED","w")\\n' > tools/conv.py`,
    trigger: `${CHANGE} && git diff`,
    protects: inRoot('tools/conv.py'),
  },
  {
    name: 'diff.external = ./tools/difftool: git diff',
    setup: configured([['diff.external', './tools/difftool']], { 'tools/difftool': '#!/bin/sh\nexit 0\n' }),
    command: (v) => plantProgram('tools/difftool', v),
    trigger: `${CHANGE} && git diff`,
    protects: inRoot('tools/difftool'),
  },
  {
    name: 'filter.<f>.clean = ./filters/clean %f: git add',
    setup: both(
      configured([['filter.f.clean', './filters/clean %f']], { 'filters/clean': '#!/bin/sh\ncat\n' }),
      attributes('*.txt filter=f'),
    ),
    command: (v) => plantProgram('filters/clean', v),
    trigger: `${CHANGE} && git add -A`,
    protects: inRoot('filters/clean'),
  },
  {
    name: 'filter.<f>.smudge, absent: git checkout',
    setup: both(configured([['filter.f.smudge', './filters/smudge']]), attributes('*.txt filter=f')),
    command: (v) => plantProgram('filters/smudge', v),
    trigger: 'rm src/a.txt && git checkout -- src/a.txt',
    protects: inRoot('filters/smudge'),
  },
  {
    name: 'alias.t = !echo ok && ./scripts/t.sh (a later command of the shell line): git t',
    setup: configured([['alias.t', '!echo ok && ./scripts/t.sh']], { 'scripts/t.sh': '#!/bin/sh\n' }),
    command: (v) => plantProgram('scripts/t.sh', v),
    trigger: 'git t',
    protects: inRoot('scripts/t.sh'),
  },
  {
    name: 'core.sshCommand = ./ssh.sh: git ls-remote over ssh',
    setup: configured([['core.sshCommand', './ssh.sh']]),
    command: (v) => plantProgram('ssh.sh', v),
    trigger: 'git ls-remote ssh://git@example.invalid/x.git',
    protects: inRoot('ssh.sh'),
  },
  {
    name: 'credential.helper = !./cred.sh: a credential fill',
    setup: configured([['credential.helper', '!./cred.sh']], { 'cred.sh': '#!/bin/sh\n' }),
    command: (v) => plantProgram('cred.sh', v),
    trigger: "printf 'protocol=https\\nhost=example.invalid\\n\\n' | git credential fill",
    protects: inRoot('cred.sh'),
  },
  {
    name: 'gpg.program = ./gpg.sh: a signed commit',
    setup: configured([['gpg.program', './gpg.sh']]),
    command: (v) => plantProgram('gpg.sh', v),
    trigger: 'git commit -q -S --allow-empty -m signed',
    protects: inRoot('gpg.sh'),
  },
  {
    name: 'a submodule config: core.fsmonitor = ./watch (its own work tree), absent',
    setup: withSubmodule('lib', {
      then: (tree) =>
        execFileSync('git', ['-C', 'lib', 'config', 'core.fsmonitor', './watch'], { cwd: tree.root, env: ENV }),
    }),
    command: (v) => plantProgram('lib/watch', v),
    protects: inRoot('lib/watch'),
  },
  {
    name: 'core.fsmonitor set in the global config (relative: the work tree), absent',
    ...globalConfig(() => '[core]\n\tfsmonitor = ./hooks/watch\n'),
    command: (v) => plantProgram('hooks/watch', v),
  },
];

describe('programs that config values name inside the root (both --sandbox-git modes)', () => {
  it(`${programAttacks.length} ways of planting one: unsandboxed the user's next git command runs it; sandboxed nothing changes or runs`, async () => {
    for (const attack of programAttacks) await provesAndHolds(attack, ['read-only', 'writable']);
  }, 600_000);

  it('the programs stay ordinary files to read and run; a missing one a command builds is removed afterwards (sandbox_repaired)', async () => {
    const target = repository(
      undefined,
      configured(
        [
          ['core.fsmonitor', './tools/fsmonitor'],
          ['core.editor', 'bin/missing-editor'],
        ],
        { 'tools/fsmonitor': '#!/bin/sh\necho watched\n' },
      ),
    );
    const outcome = await run(
      target.root,
      './tools/fsmonitor && mkdir -p bin && echo x > bin/missing-editor && echo built',
    );
    expect(outcome).toMatchObject({ exitCode: 0, stdout: 'watched\nbuilt\n' });
    expect(existsSync(path.join(target.root, 'bin', 'missing-editor'))).toBe(false);
    expect(existsSync(path.join(target.root, 'bin'))).toBe(true);
  });

  it('a program path through a symbolic link inside the root is refused with sandbox_unprotectable', async () => {
    const target = repository(undefined, (tree) => {
      executable(path.join(tree.root, 'real', 'watch'));
      symlinkSync('real', path.join(tree.root, 'tools'));
      setConfig(tree, 'core.fsmonitor', './tools/watch');
    });
    await expect(run(target.root, 'true')).rejects.toThrow(/symbolic link on the way/);
  });
});
