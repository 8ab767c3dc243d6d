// Unit tests of the sandbox's pure parts: the rule description, the bwrap arguments and the
// Seatbelt profile generated from it, the seccomp program, the choice per command, the start-up
// state, the platform probe and the preparation of the protected files. No sandbox is run here
// (sandbox-exec.test.ts runs the real bwrap).
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunnerJoin, RunnerSandbox, TerminalAction } from '../../runner-protocol/index.ts';
import { bwrapArgs } from '../../src/runner/sandbox/bwrap.ts';
import { probeSandbox } from '../../src/runner/sandbox/platform.ts';
import type { Availability } from '../../src/runner/sandbox/platform.ts';
import { chooseSandbox, SANDBOX_MODES, sandboxState, startupWarning } from '../../src/runner/sandbox/policy.ts';
import {
  EMPTY_PERMISSIONS_TEXT,
  prepareProtection,
  SandboxUnprotectableError,
  withoutCovered,
} from '../../src/runner/sandbox/prepare.ts';
import { removeAppeared } from '../../src/runner/sandbox/pinned-metadata.ts';
import { sandboxRules, SandboxRuleError } from '../../src/runner/sandbox/rules.ts';
import type { SandboxRules } from '../../src/runner/sandbox/rules.ts';
import { sbplString, seatbeltProfile } from '../../src/runner/sandbox/seatbelt.ts';
import { SECCOMP_ARCHES, seccompProgram, SeccompUnsupportedError } from '../../src/runner/sandbox/seccomp.ts';
import { SUPERVISOR_SCRIPT, supervised } from '../../src/runner/supervisor.ts';
import { tempDir } from './support/fixtures.ts';

const ROOT = '/home/ana/shop';
const rules = (overrides: Partial<SandboxRules> = {}): SandboxRules => ({
  ...sandboxRules({
    root: ROOT,
    cwd: `${ROOT}/src`,
    network: true,
    readOnly: [
      { path: `${ROOT}/permissions.json`, kind: 'file' },
      { path: `${ROOT}/.git/hooks`, kind: 'dir' },
      { path: `${ROOT}/.git/config`, kind: 'file' },
    ],
    pinned: [`${ROOT}/.git`],
  }),
  ...overrides,
});

/** The mount operations in order, as [flag, source, destination]. */
function mounts(args: string[]): Array<[string, string, string]> {
  const out: Array<[string, string, string]> = [];
  for (let i = 0; i < args.length; i++) {
    const flag = args[i]!;
    if (flag === '--') break;
    if (flag === '--ro-bind' || flag === '--bind') out.push([flag, args[i + 1]!, args[i + 2]!]);
    if (flag === '--tmpfs' || flag === '--proc' || flag === '--dev') out.push([flag, '', args[i + 1]!]);
  }
  return out;
}

describe('bwrap arguments (Linux back-end)', () => {
  it('host read-only first, then a private /tmp, the root writable, .git pinned, protected entries read-only last', () => {
    const args = bwrapArgs(rules(), 'echo hi', { seccompFd: 4 });
    expect(mounts(args)).toEqual([
      ['--ro-bind', '/', '/'],
      ['--dev', '', '/dev'],
      ['--proc', '', '/proc'],
      ['--tmpfs', '', '/tmp'],
      ['--bind', ROOT, ROOT],
      ['--bind', `${ROOT}/.git`, `${ROOT}/.git`],
      ['--ro-bind', `${ROOT}/permissions.json`, `${ROOT}/permissions.json`],
      ['--ro-bind', `${ROOT}/.git/hooks`, `${ROOT}/.git/hooks`],
      ['--ro-bind', `${ROOT}/.git/config`, `${ROOT}/.git/config`],
    ]);
    expect(args.slice(args.indexOf('--'))).toEqual(['--', '/bin/sh', '-c', 'echo hi']);
  });

  it('dies with its parent, new session, own PID namespace, no capabilities, seccomp on the given fd, cwd set', () => {
    const args = bwrapArgs(rules(), 'true', { seccompFd: 4 });
    for (const flag of ['--die-with-parent', '--new-session', '--unshare-pid', '--unshare-ipc'])
      expect(args).toContain(flag);
    expect(args.slice(args.indexOf('--cap-drop'), args.indexOf('--cap-drop') + 2)).toEqual(['--cap-drop', 'ALL']);
    expect(args.slice(args.indexOf('--seccomp'), args.indexOf('--seccomp') + 2)).toEqual(['--seccomp', '4']);
    expect(args.slice(args.indexOf('--chdir'), args.indexOf('--chdir') + 2)).toEqual(['--chdir', `${ROOT}/src`]);
    expect(args.indexOf('--die-with-parent')).toBeLessThan(args.indexOf('--'));
  });

  it('--sandbox-network off unshares the network; on keeps it; no seccomp fd: no --seccomp', () => {
    expect(bwrapArgs(rules({ network: false }), 'true', { seccompFd: null })).toContain('--unshare-net');
    const on = bwrapArgs(rules(), 'true', { seccompFd: null });
    expect(on).not.toContain('--unshare-net');
    expect(on).not.toContain('--seccomp');
  });

  it('the command is one argument, never split or interpreted by the runner (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (command) => {
        const args = bwrapArgs(rules(), command, { seccompFd: null });
        expect(args.slice(args.indexOf('--'))).toEqual(['--', '/bin/sh', '-c', command]);
      }),
    );
  });

  it('hidden credentials: an empty tmpfs over folders, /dev/null over files, after the private /tmp', () => {
    const args = bwrapArgs(
      rules({
        hidden: [
          { path: '/home/ana/.ssh', kind: 'dir' },
          { path: '/home/ana/.netrc', kind: 'file' },
        ],
      }),
      'true',
      { seccompFd: null },
    );
    const list = mounts(args);
    const at = (entry: [string, string, string]) => list.findIndex((m) => m.join('|') === entry.join('|'));
    expect(at(['--tmpfs', '', '/home/ana/.ssh'])).toBeGreaterThan(at(['--tmpfs', '', '/tmp']));
    expect(at(['--ro-bind', '/dev/null', '/home/ana/.netrc'])).toBeGreaterThan(at(['--tmpfs', '', '/tmp']));
    const profile = seatbeltProfile(
      rules({
        hidden: [
          { path: '/Users/ana/.ssh', kind: 'dir' },
          { path: '/Users/ana/.netrc', kind: 'file' },
        ],
      }),
      { privateTmp: '/t' },
    );
    expect(profile).toContain('(deny file-read* (subpath "/Users/ana/.ssh") (literal "/Users/ana/.netrc"))');
  });

  it('rules refuse relative paths and NUL bytes', () => {
    expect(() => sandboxRules({ root: 'rel', cwd: '/x', network: true, readOnly: [], pinned: [] })).toThrow(
      SandboxRuleError,
    );
    expect(() =>
      sandboxRules({ root: '/r', cwd: '/r', network: true, readOnly: [{ path: '/r/a\0b', kind: 'file' }], pinned: [] }),
    ).toThrow(SandboxRuleError);
  });
});

describe('Seatbelt profile (macOS back-end), generated from the same rules', () => {
  const profile = seatbeltProfile(rules(), { privateTmp: '/private/var/folders/x/T/brabo-sandbox-1' });
  const lines = profile
    .trim()
    .split('\n')
    .filter((line) => !line.startsWith(';'));

  it('broad to narrow (last match wins): allow default, deny writes, allow root and private tmp, deny protected', () => {
    const order = [
      '(allow default)',
      '(deny file-write*)',
      '(allow file-write* (subpath "/home/ana/shop")',
      '(deny file-write* (literal "/home/ana/shop/permissions.json")',
    ];
    const at = order.map((start) => lines.findIndex((line) => line.startsWith(start)));
    expect(at.every((index) => index >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(profile).toContain('(subpath "/private/var/folders/x/T/brabo-sandbox-1")');
  });

  it('git redirections that do not exist may not be created (Seatbelt can deny what is absent)', () => {
    const text = seatbeltProfile(
      sandboxRules({
        root: ROOT,
        cwd: ROOT,
        network: true,
        readOnly: [],
        pinned: [],
        mustNotAppear: [`${ROOT}/.git/commondir`],
      }),
      { privateTmp: '/t' },
    );
    expect(text).toContain(
      '(deny file-write* (literal "/home/ana/shop/.git/commondir") (subpath "/home/ana/shop/.git/commondir"))',
    );
  });

  it('protected files are literals, protected folders subpaths, and pinned .git cannot be moved', () => {
    const deny = lines.find((line) => line.startsWith('(deny file-write* (literal'))!;
    expect(deny).toContain('(literal "/home/ana/shop/permissions.json")');
    expect(deny).toContain('(subpath "/home/ana/shop/.git/hooks")');
    expect(deny).toContain('(literal "/home/ana/shop/.git/config")');
    expect(deny).toContain('(literal "/home/ana/shop/.git")');
  });

  it('unix sockets and other processes are denied; network only when off', () => {
    expect(profile).toContain('(deny network* (remote unix-socket))');
    expect(profile).toContain('(deny process-info* (target others))');
    expect(profile).not.toMatch(/^\(deny network\*\)$/m);
    expect(seatbeltProfile(rules({ network: false }), { privateTmp: '/t' })).toMatch(/^\(deny network\*\)$/m);
  });

  it('balanced parentheses, and paths with quotes or backslashes cannot break out of their string (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }).filter((s) => ![...s].some((c) => c.charCodeAt(0) < 0x20)),
        (name) => {
          const root = `/home/${name}`;
          const text = seatbeltProfile(
            sandboxRules({
              root,
              cwd: root,
              network: true,
              readOnly: [{ path: `${root}/permissions.json`, kind: 'file' }],
              pinned: [],
            }),
            { privateTmp: '/t' },
          );
          // Remove string literals, then every parenthesis left must balance.
          const code = text.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/#"[^"]*"/g, '');
          let depth = 0;
          for (const ch of code) {
            if (ch === '(') depth += 1;
            if (ch === ')') depth -= 1;
            expect(depth).toBeGreaterThanOrEqual(0);
          }
          expect(depth).toBe(0);
          expect(text).toContain(`(subpath ${sbplString(root)})`);
        },
      ),
    );
  });

  it('control characters in a path are refused rather than written into the profile', () => {
    expect(() => sbplString('/a\nb')).toThrow();
  });
});

describe('seccomp program (no unix sockets, no io_uring, no foreign ABI)', () => {
  const decode = (buffer: Buffer) =>
    Array.from({ length: buffer.length / 8 }, (_, i) => ({
      code: buffer.readUInt16LE(i * 8),
      jt: buffer[i * 8 + 2]!,
      jf: buffer[i * 8 + 3]!,
      k: buffer.readUInt32LE(i * 8 + 4),
    }));

  /** A tiny classic-BPF interpreter for the instructions the program uses. */
  function evaluate(program: ReturnType<typeof decode>, data: { nr: number; arch: number; arg0: number }): number {
    let acc = 0;
    for (let pc = 0; pc < program.length;) {
      const { code, jt, jf, k } = program[pc]!;
      if (code === 0x20) {
        acc = k === 0 ? data.nr : k === 4 ? data.arch : k === 16 ? data.arg0 : Number.NaN;
        pc += 1;
      } else if (code === 0x15) pc += 1 + (acc === k ? jt : jf);
      else if (code === 0x35) pc += 1 + (acc >= k ? jt : jf);
      else if (code === 0x06) return k;
      else throw new Error(`unexpected opcode ${code}`);
    }
    throw new Error('fell off the end');
  }

  for (const arch of Object.values(SECCOMP_ARCHES)) {
    it(`${arch.name}: socket(AF_UNIX) -> EPERM, io_uring_setup -> ENOSYS, xattr writes -> ENOTSUP, other ABIs -> ENOSYS, everything else allowed`, () => {
      const program = decode(seccompProgram(arch.name));
      const run = (nr: number, arg0 = 0, auditArch = arch.auditArch) =>
        evaluate(program, { nr, arch: auditArch, arg0 });
      expect(run(arch.socketNr, 1)).toBe(0x0005_0001);
      expect(run(arch.socketNr, 2)).toBe(0x7fff_0000); // AF_INET
      expect(run(arch.socketNr, 10)).toBe(0x7fff_0000); // AF_INET6
      expect(run(arch.ioUringSetupNr)).toBe(0x0005_0026);
      for (const nr of arch.xattrWriteNrs) expect(run(nr)).toBe(0x0005_005f); // ENOTSUP
      expect(run(arch.socketNr, 1, 0x4000_0003)).toBe(0x0005_0026); // i386
      if (arch.foreignNrBit !== 0) expect(run(arch.foreignNrBit + arch.socketNr, 1)).toBe(0x0005_0026); // x32
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 64 }), (nr, arg0) => {
          fc.pre(nr !== arch.socketNr && nr !== arch.ioUringSetupNr && !arch.xattrWriteNrs.includes(nr));
          expect(run(nr, arg0)).toBe(0x7fff_0000);
        }),
      );
    });
  }

  it('an architecture without a table is refused by name, not guessed', () => {
    expect(() => seccompProgram('riscv64')).toThrow(SeccompUnsupportedError);
  });
});

describe('which commands are sandboxed (--sandbox)', () => {
  const yes: Availability = { available: true, backend: 'bwrap', seccomp: true };
  const no: Availability = { available: false, why: 'bubblewrap (bwrap) is not installed' };

  it.each([
    ['auto', yes, 'auto', 'sandboxed'],
    ['auto', yes, 'human', 'unsandboxed'],
    ['auto', no, 'auto', 'unsandboxed'],
    ['auto', no, 'human', 'unsandboxed'],
    ['required', yes, 'auto', 'sandboxed'],
    ['required', yes, 'human', 'unsandboxed'],
    ['required', no, 'auto', 'refused'],
    ['required', no, 'human', 'unsandboxed'],
    ['all', yes, 'auto', 'sandboxed'],
    ['all', yes, 'human', 'sandboxed'],
    ['all', no, 'auto', 'refused'],
    ['all', no, 'human', 'refused'],
    ['off', yes, 'auto', 'unsandboxed'],
    ['off', yes, 'human', 'unsandboxed'],
  ] as const)('--sandbox %s, available=%o, approval %s -> %s', (mode, availability, approval, kind) => {
    const choice = chooseSandbox(mode, availability, approval);
    expect(choice.kind).toBe(kind);
    if (choice.kind === 'refused') expect(choice.message).toContain('bubblewrap (bwrap) is not installed');
  });

  it('start-up: one line says the host is unprotected exactly when auto-approved commands would run unsandboxed', () => {
    for (const mode of SANDBOX_MODES) {
      for (const availability of [yes, no]) {
        const state = sandboxState(mode, availability, true);
        const unprotected = chooseSandbox(mode, availability, 'auto').kind === 'unsandboxed';
        const warning = startupWarning(state);
        expect(warning !== null).toBe(unprotected);
        if (warning !== null) {
          expect(warning).toContain('the host is unprotected');
          expect(warning).not.toContain('\n');
        }
        expect(state.enforced).toBe(!unprotected);
        expect(RunnerSandbox.safeParse(state).success).toBe(true);
      }
    }
  });

  it('the join payload carries the state; the execute carries who approved (optional, for older peers)', () => {
    const state = sandboxState('required', yes, false);
    expect(RunnerJoin.parse({ protocolVersion: 1, sandbox: state }).sandbox).toEqual({
      mode: 'required',
      available: true,
      backend: 'bwrap',
      network: false,
      git: 'read-only',
      enforced: true,
      reason: null,
    });
    expect(
      RunnerJoin.parse({ protocolVersion: 1, sandbox: sandboxState('auto', yes, true, 'writable') }).sandbox,
    ).toMatchObject({ git: 'writable' });
    // An older runner reports no `git`; an unknown value is refused.
    const { git: _git, ...older } = state;
    expect(RunnerJoin.safeParse({ protocolVersion: 1, sandbox: older }).success).toBe(true);
    expect(RunnerJoin.safeParse({ protocolVersion: 1, sandbox: { ...state, git: 'rw' } }).success).toBe(false);
    expect(RunnerJoin.safeParse({ protocolVersion: 1, sandbox: { ...state, mode: 'sometimes' } }).success).toBe(false);
    expect(TerminalAction.parse({ type: 'terminal', command: 'ls', cwd: '/r', approval: 'human' }).approval).toBe(
      'human',
    );
    expect(TerminalAction.safeParse({ type: 'terminal', command: 'ls', cwd: '/r', approval: 'robot' }).success).toBe(
      false,
    );
  });
});

describe('platform probe', () => {
  it('linux: bwrap that runs -> bwrap with seccomp; missing -> named; failing -> its first stderr line', async () => {
    const seen: string[][] = [];
    const ok = await probeSandbox({
      platform: 'linux',
      arch: 'x64',
      run: async (file, args, input) => (
        seen.push([file, ...args]),
        expect(input?.length).toBeGreaterThan(0),
        { code: 0, stderr: '' }
      ),
    });
    expect(ok).toEqual({ available: true, backend: 'bwrap', seccomp: true });
    expect(seen[0]).toContain('--seccomp');
    const missing = await probeSandbox({
      platform: 'linux',
      run: async () => Promise.reject(Object.assign(new Error('spawn bwrap ENOENT'), { code: 'ENOENT' })),
    });
    expect(missing).toEqual({ available: false, why: 'bubblewrap (bwrap) is not installed' });
    const broken = await probeSandbox({
      platform: 'linux',
      run: async () => ({ code: 1, stderr: 'bwrap: No permissions to creating new namespace\nmore' }),
    });
    expect(broken).toMatchObject({
      available: false,
      why: expect.stringContaining('No permissions to creating new namespace'),
    });
    const otherArch = await probeSandbox({
      platform: 'linux',
      arch: 'riscv64',
      run: async (_file, args) => (expect(args).not.toContain('--seccomp'), { code: 0, stderr: '' }),
    });
    expect(otherArch).toEqual({ available: true, backend: 'bwrap', seccomp: false });
  });

  it('darwin: sandbox-exec present -> seatbelt; absent -> named; other platforms -> named', async () => {
    expect(await probeSandbox({ platform: 'darwin', canExecute: () => true })).toEqual({
      available: true,
      backend: 'seatbelt',
      seccomp: false,
    });
    expect(await probeSandbox({ platform: 'darwin', canExecute: () => false })).toMatchObject({
      available: false,
      why: expect.stringContaining('sandbox-exec'),
    });
    expect(await probeSandbox({ platform: 'win32' })).toMatchObject({
      available: false,
      why: expect.stringContaining('win32'),
    });
  });
});

describe('supervisor wrapper', () => {
  it("execs the command in place after starting the watcher, so pid, exit code and signal stay the command's", () => {
    const { file, args } = supervised('/bin/sh', ['-c', 'echo hi']);
    expect(file).toBe('/bin/sh');
    expect(args).toEqual(['-c', SUPERVISOR_SCRIPT, 'brabo-supervisor', '/bin/sh', '-c', 'echo hi']);
    expect(SUPERVISOR_SCRIPT.trim().split('\n').at(-1)).toBe('exec "$@"');
    expect(SUPERVISOR_SCRIPT).toContain('kill -KILL 0');
  });
});

describe('preparing the protected files', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempDir('prep')));
  afterEach(async () => cleanup());

  it('--sandbox-git writable: creates .git/hooks, .git/config and permissions.json when absent (empty rules), and pins .git', () => {
    const protection = prepareProtection(dir, 'writable');
    expect(readFileSync(path.join(dir, 'permissions.json'), 'utf8')).toBe(EMPTY_PERMISSIONS_TEXT);
    expect(JSON.parse(EMPTY_PERMISSIONS_TEXT)).toEqual({ allow: [], deny: [], ask: [] });
    expect(lstatSync(path.join(dir, '.git', 'hooks')).isDirectory()).toBe(true);
    expect(readFileSync(path.join(dir, '.git', 'config'), 'utf8')).toBe('');
    expect(protection.pinned).toEqual([path.join(dir, '.git')]);
    expect(protection.readOnly.map((entry) => path.relative(dir, entry.path)).sort()).toEqual([
      '.git/config',
      '.git/hooks',
      'permissions.json',
    ]);
    expect(protection.mustNotAppear.map((entry) => path.relative(dir, entry)).sort()).toEqual([
      '.git/commondir',
      '.git/config.worktree',
      '.git/modules',
      '.git/worktrees',
    ]);
  });

  it("--sandbox-git writable: leaves existing files as they are and also protects git's redirections (modules, config.worktree) when present", () => {
    mkdirSync(path.join(dir, '.git', 'modules', 'lib'), { recursive: true });
    writeFileSync(path.join(dir, '.git', 'config'), '[core]\n');
    writeFileSync(path.join(dir, '.git', 'config.worktree'), '');
    writeFileSync(path.join(dir, 'permissions.json'), '{"allow": ["Terminal(ls)"]}');
    const protection = prepareProtection(dir, 'writable');
    expect(readFileSync(path.join(dir, '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect(readFileSync(path.join(dir, 'permissions.json'), 'utf8')).toBe('{"allow": ["Terminal(ls)"]}');
    expect(protection.readOnly.map((entry) => path.relative(dir, entry.path)).sort()).toEqual([
      '.git/config',
      '.git/config.worktree',
      '.git/hooks',
      '.git/modules',
      'permissions.json',
    ]);
  });

  it("--sandbox-git writable: a linked worktree: the .git file is read-only, and its git dir's config and hooks when inside the root", () => {
    mkdirSync(path.join(dir, 'main-git', 'hooks'), { recursive: true });
    writeFileSync(path.join(dir, 'main-git', 'config'), '');
    writeFileSync(path.join(dir, '.git'), 'gitdir: main-git\n');
    const protection = prepareProtection(dir, 'writable');
    expect(protection.pinned).toEqual([path.join(dir, 'main-git')]);
    expect(protection.readOnly.map((entry) => path.relative(dir, entry.path)).sort()).toEqual([
      '.git',
      'main-git/config',
      'main-git/hooks',
      'permissions.json',
    ]);
  });

  it('--sandbox-git read-only (default): the whole .git is read-only, nothing pinned or left to delete; config and hooks still created', () => {
    const protection = prepareProtection(dir);
    expect(prepareProtection(dir, 'read-only')).toEqual(protection);
    expect(lstatSync(path.join(dir, '.git', 'hooks')).isDirectory()).toBe(true);
    expect(readFileSync(path.join(dir, '.git', 'config'), 'utf8')).toBe('');
    expect(protection.pinned).toEqual([]);
    expect(protection.mustNotAppear).toEqual([]);
    expect(protection.readOnly).toEqual([
      { path: path.join(dir, 'permissions.json'), kind: 'file' },
      { path: path.join(dir, '.git'), kind: 'dir' },
    ]);
  });

  it('--sandbox-git read-only: a linked worktree whose git dir (and its commondir) lie inside the root: both read-only whole', () => {
    mkdirSync(path.join(dir, 'main', '.git', 'worktrees', 'w', 'hooks'), { recursive: true });
    writeFileSync(path.join(dir, 'main', '.git', 'config'), '');
    writeFileSync(path.join(dir, 'main', '.git', 'worktrees', 'w', 'commondir'), '../..\n');
    writeFileSync(path.join(dir, '.git'), 'gitdir: main/.git/worktrees/w\n');
    const protection = prepareProtection(dir);
    expect(protection.pinned).toEqual([]);
    expect(protection.readOnly.map((entry) => [path.relative(dir, entry.path), entry.kind])).toEqual([
      ['permissions.json', 'file'],
      ['.git', 'file'],
      ['main/.git/worktrees/w', 'dir'],
      ['main/.git', 'dir'],
    ]);
    // Writable: both pinned; the config and hooks of each read-only, the commondir file too.
    const writable = prepareProtection(dir, 'writable');
    expect(writable.pinned.map((entry) => path.relative(dir, entry))).toEqual(['main/.git/worktrees/w', 'main/.git']);
    expect(writable.readOnly.map((entry) => path.relative(dir, entry.path)).sort()).toEqual([
      '.git',
      'main/.git/config',
      'main/.git/hooks',
      'main/.git/worktrees',
      'main/.git/worktrees/w/commondir',
      'main/.git/worktrees/w/config',
      'main/.git/worktrees/w/hooks',
      'permissions.json',
    ]);
  });

  it('both back-ends from the prepared rules: read-only mode ro-binds .git (Seatbelt: a subpath), writable mode pins it', () => {
    const args = (git: 'read-only' | 'writable') =>
      sandboxRules({ root: dir, cwd: dir, network: true, ...prepareProtection(dir, git) });
    const readOnly = mounts(bwrapArgs(args('read-only'), 'true', { seccompFd: null }));
    expect(readOnly.slice(readOnly.findIndex((m) => m[2] === dir))).toEqual([
      ['--bind', dir, dir],
      ['--ro-bind', path.join(dir, 'permissions.json'), path.join(dir, 'permissions.json')],
      ['--ro-bind', path.join(dir, '.git'), path.join(dir, '.git')],
    ]);
    const readOnlyProfile = seatbeltProfile(args('read-only'), { privateTmp: '/t' });
    expect(readOnlyProfile).toContain(
      `(deny file-write* (literal ${sbplString(path.join(dir, 'permissions.json'))}) (subpath ${sbplString(path.join(dir, '.git'))}))`,
    );
    const writable = mounts(bwrapArgs(args('writable'), 'true', { seccompFd: null }));
    expect(writable).toContainEqual(['--bind', path.join(dir, '.git'), path.join(dir, '.git')]);
    expect(writable).not.toContainEqual(['--ro-bind', path.join(dir, '.git'), path.join(dir, '.git')]);
    expect(writable).toContainEqual(['--ro-bind', path.join(dir, '.git', 'config'), path.join(dir, '.git', 'config')]);
    expect(writable).toContainEqual(['--ro-bind', path.join(dir, '.git', 'hooks'), path.join(dir, '.git', 'hooks')]);
    const writableProfile = seatbeltProfile(args('writable'), { privateTmp: '/t' });
    expect(writableProfile).not.toContain(`(subpath ${sbplString(path.join(dir, '.git'))})`);
    expect(writableProfile).toContain(`(subpath ${sbplString(path.join(dir, '.git', 'hooks'))})`);
    expect(writableProfile).toContain(`(literal ${sbplString(path.join(dir, '.git', 'config'))})`);
    expect(writableProfile).toContain(`(literal ${sbplString(path.join(dir, '.git'))})`);
  });

  it('rules list read-only entries and pinned folders parents first, so no mount covers one made inside it', () => {
    const ordered = sandboxRules({
      root: '/r',
      cwd: '/r',
      network: true,
      readOnly: [
        { path: '/r/a/b/c', kind: 'file' },
        { path: '/r/a', kind: 'dir' },
        { path: '/r/x', kind: 'file' },
      ],
      pinned: ['/r/m/.git/worktrees/w', '/r/m/.git'],
    });
    expect(ordered.readOnly.map((entry) => entry.path)).toEqual(['/r/a', '/r/x', '/r/a/b/c']);
    expect(ordered.pinned).toEqual(['/r/m/.git', '/r/m/.git/worktrees/w']);
  });

  it('what git config points at (hooksPath .husky/_, include.path, a symlinked hook): read-only in both back-ends, the folders above pinned', () => {
    mkdirSync(path.join(dir, '.git', 'hooks'), { recursive: true });
    mkdirSync(path.join(dir, 'scripts'));
    writeFileSync(path.join(dir, 'scripts', 'pre-push'), '#!/bin/sh\n');
    symlinkSync('../../scripts/pre-push', path.join(dir, '.git', 'hooks', 'pre-push'));
    writeFileSync(
      path.join(dir, '.git', 'config'),
      '[core]\n\thooksPath = .husky/_\n[include]\n\tpath = ../config/team.inc\n[core]\n\thooksPath = ../outside-hooks\n',
    );
    const env = { HOME: path.join(dir, 'home'), GIT_CONFIG_NOSYSTEM: '1' };
    for (const git of ['read-only', 'writable'] as const) {
      const protection = prepareProtection(dir, git, env);
      const rel = (entry: string) => path.relative(dir, entry);
      expect(
        protection.readOnly
          .filter((e) => !rel(e.path).startsWith('.git') && rel(e.path) !== 'permissions.json')
          .map((e) => [rel(e.path), e.kind]),
      ).toEqual([
        ['.husky/_', 'dir'],
        ['config/team.inc', 'file'],
        ['scripts/pre-push', 'file'],
      ]);
      expect(protection.pinned.map(rel).filter((entry) => !entry.startsWith('.git'))).toEqual([
        '.husky',
        'config',
        'scripts',
      ]);
      expect(readFileSync(path.join(dir, 'config', 'team.inc'), 'utf8')).toBe('');
      const rules = sandboxRules({ root: dir, cwd: dir, network: true, ...protection });
      const list = mounts(bwrapArgs(rules, 'true', { seccompFd: null }));
      expect(list).toContainEqual(['--bind', path.join(dir, '.husky'), path.join(dir, '.husky')]);
      expect(list).toContainEqual(['--ro-bind', path.join(dir, '.husky', '_'), path.join(dir, '.husky', '_')]);
      expect(list).toContainEqual([
        '--ro-bind',
        path.join(dir, 'config', 'team.inc'),
        path.join(dir, 'config', 'team.inc'),
      ]);
      expect(list.findIndex((m) => m[2] === path.join(dir, '.husky', '_'))).toBeGreaterThan(
        list.findIndex((m) => m[2] === path.join(dir, '.husky')),
      );
      const profile = seatbeltProfile(rules, { privateTmp: '/t' });
      expect(profile).toContain(`(subpath ${sbplString(path.join(dir, '.husky', '_'))})`);
      expect(profile).toContain(`(literal ${sbplString(path.join(dir, 'config', 'team.inc'))})`);
      expect(profile).toContain(`(literal ${sbplString(path.join(dir, 'scripts', 'pre-push'))})`);
      expect(profile).toContain(`(literal ${sbplString(path.join(dir, '.husky'))})`);
    }
  });

  it.each([
    [
      'core.hooksPath is the root itself',
      (d: string) => writeFileSync(path.join(d, '.git', 'config'), '[core]\n\thooksPath = ./\n'),
    ],
    [
      'core.hooksPath passes a symlink inside the root',
      (d: string) => {
        mkdirSync(path.join(d, 'real-hooks'));
        symlinkSync('real-hooks', path.join(d, '.husky'));
        writeFileSync(path.join(d, '.git', 'config'), '[core]\n\thooksPath = .husky\n');
      },
    ],
    [
      'include.path is a symlink inside the root',
      (d: string) => {
        writeFileSync(path.join(d, 'real.inc'), '');
        symlinkSync('real.inc', path.join(d, 'team.inc'));
        writeFileSync(path.join(d, '.git', 'config'), '[include]\n\tpath = ../team.inc\n');
      },
    ],
    [
      'a hook symlink to nothing inside the root (a command could create it)',
      (d: string) => symlinkSync('../../scripts/absent', path.join(d, '.git', 'hooks', 'pre-commit')),
    ],
  ])('refused with sandbox_unprotectable: %s', (_name, setup) => {
    mkdirSync(path.join(dir, '.git', 'hooks'), { recursive: true });
    setup(dir);
    for (const git of ['read-only', 'writable'] as const)
      expect(() => prepareProtection(dir, git, { GIT_CONFIG_NOSYSTEM: '1', HOME: '/nonexistent' })).toThrow(
        SandboxUnprotectableError,
      );
  });

  it('a hook symlink to nothing outside the root is left alone (nothing inside can create it)', () => {
    mkdirSync(path.join(dir, '.git', 'hooks'), { recursive: true });
    symlinkSync('/nonexistent/brabo/hook', path.join(dir, '.git', 'hooks', 'pre-commit'));
    expect(() => prepareProtection(dir, 'read-only', { GIT_CONFIG_NOSYSTEM: '1', HOME: '/nonexistent' })).not.toThrow();
  });

  it('a .git file naming the root itself cannot be protected (its config would be an ordinary file of the root)', () => {
    writeFileSync(path.join(dir, '.git'), 'gitdir: .\n');
    for (const git of ['read-only', 'writable'] as const)
      expect(() => prepareProtection(dir, git)).toThrow(SandboxUnprotectableError);
  });

  it.each([['read-only'], ['writable']] as const)(
    '--sandbox-git %s: a symlinked .git/config or .git/hooks is refused in both modes',
    (git) => {
      mkdirSync(path.join(dir, '.git'), { recursive: true });
      symlinkSync(path.join(dir, 'gitconfig'), path.join(dir, '.git', 'config'));
      expect(() => prepareProtection(dir, git)).toThrow(SandboxUnprotectableError);
    },
  );

  it.each([['permissions.json'], ['.git'], ['.git/config'], ['.git/hooks']])(
    'a symlinked %s cannot be pinned: refused with sandbox_unprotectable',
    (name) => {
      if (name !== '.git') mkdirSync(path.join(dir, '.git'), { recursive: true });
      symlinkSync('/etc/hostname', path.join(dir, name));
      expect(() => prepareProtection(dir)).toThrow(SandboxUnprotectableError);
    },
  );
});

describe('existing submodules: the gitlinks of the index decide which <path>/.git stay in place', () => {
  let repo: string;
  const gitIn = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, {
      cwd,
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
      stdio: 'pipe',
    });
  const env = { HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  const oid = '1'.repeat(40);
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  const temp = async (prefix: string) => {
    const made = await tempDir(prefix);
    cleanups.push(made.cleanup);
    return made.dir;
  };
  beforeEach(async () => {
    repo = await temp('brabo-submodules-');
    gitIn(repo, 'init', '-q', '.');
    for (const where of ['lib', 'vendor/old', 'absent/mod', 'blocked/x', 'uninit'])
      gitIn(repo, 'update-index', '--add', '--cacheinfo', `160000,${oid},${where}`);
    // lib: a modern checkout (`gitdir:` file into .git/modules); vendor/old: an embedded .git folder;
    // absent/mod: not there at all; blocked: a file where the folder would be; uninit: an empty folder.
    mkdirSync(path.join(repo, '.git', 'modules', 'lib'), { recursive: true });
    writeFileSync(path.join(repo, '.git', 'modules', 'lib', 'config'), '[core]\n\tbare = false\n');
    mkdirSync(path.join(repo, 'lib'));
    writeFileSync(path.join(repo, 'lib', '.git'), 'gitdir: ../.git/modules/lib\n');
    mkdirSync(path.join(repo, 'vendor', 'old'), { recursive: true });
    gitIn(path.join(repo, 'vendor', 'old'), 'init', '-q', '.');
    writeFileSync(path.join(repo, 'blocked'), 'a file\n');
    mkdirSync(path.join(repo, 'uninit'));
  });
  const rel = (entry: string) => path.relative(repo, entry);

  it('read-only: lib/.git read-only, vendor/old/.git read-only whole, the folders above pinned; where no .git is, none may appear; both back-ends', () => {
    const protection = withoutCovered(prepareProtection(repo, 'read-only', env));
    expect(protection.readOnly.map((e) => [rel(e.path), e.kind])).toEqual([
      ['permissions.json', 'file'],
      ['.git', 'dir'],
      ['blocked', 'file'],
      ['lib/.git', 'file'],
      ['vendor/old/.git', 'dir'],
    ]);
    expect(protection.pinned.map(rel)).toEqual(['lib', 'vendor', 'vendor/old']);
    expect(protection.mustNotAppear.map(rel).sort()).toEqual(['absent/mod/.git', 'uninit/.git']);
    const rules = sandboxRules({ root: repo, cwd: repo, network: true, ...protection });
    const list = mounts(bwrapArgs(rules, 'true', { seccompFd: null }));
    for (const entry of ['lib/.git', 'vendor/old/.git', 'blocked'])
      expect(list).toContainEqual(['--ro-bind', path.join(repo, entry), path.join(repo, entry)]);
    for (const folder of ['lib', 'vendor', 'vendor/old'])
      expect(list).toContainEqual(['--bind', path.join(repo, folder), path.join(repo, folder)]);
    const profile = seatbeltProfile(rules, { privateTmp: '/t' });
    expect(profile).toContain(`(literal ${sbplString(path.join(repo, 'lib', '.git'))})`);
    expect(profile).toContain(`(subpath ${sbplString(path.join(repo, 'vendor', 'old', '.git'))})`);
    expect(profile).toContain(`(literal ${sbplString(path.join(repo, 'vendor', 'old'))})`);
    expect(profile).toContain(`(subpath ${sbplString(path.join(repo, 'uninit', '.git'))})`);
    expect(profile).toContain(`(subpath ${sbplString(path.join(repo, 'absent', 'mod', '.git'))})`);
  });

  it('writable: the embedded .git keeps only its config, hooks and redirections read-only (pinned); .git/modules is a read-only redirection', () => {
    const protection = withoutCovered(prepareProtection(repo, 'writable', env));
    const readOnly = protection.readOnly.map((e) => rel(e.path));
    for (const entry of ['.git/modules', 'lib/.git', 'vendor/old/.git/config', 'vendor/old/.git/hooks'])
      expect(readOnly).toContain(entry);
    expect(readOnly).not.toContain('vendor/old/.git');
    expect(protection.pinned.map(rel)).toEqual(
      expect.arrayContaining(['.git', 'lib', 'vendor/old', 'vendor/old/.git']),
    );
    expect(protection.mustNotAppear.map(rel)).toEqual(
      expect.arrayContaining(['absent/mod/.git', 'uninit/.git', 'vendor/old/.git/commondir']),
    );
  });

  it.each([
    [
      'a corrupt index',
      (d: string) => writeFileSync(path.join(d, '.git', 'index'), 'DIRC\0\0\0\x02garbage-garbage-garbage'),
      /git index cannot be read/,
    ],
    ['a split index', (d: string) => gitIn(d, 'update-index', '--split-index'), /split index/],
    [
      'a symlink on the way to a submodule',
      (d: string) => {
        rmSync(path.join(d, 'uninit'), { recursive: true });
        symlinkSync('lib', path.join(d, 'uninit'));
      },
      /symbolic link on the way to the submodule/,
    ],
    [
      'lib/.git a symlink',
      (d: string) => {
        rmSync(path.join(d, 'lib', '.git'));
        symlinkSync('../.git/modules/lib', path.join(d, 'lib', '.git'));
      },
      /symbolic link/,
    ],
  ] as const)('%s: refused with sandbox_unprotectable, named', (_name, bend, message) => {
    bend(repo);
    expect(() => prepareProtection(repo, 'read-only', env)).toThrow(SandboxUnprotectableError);
    expect(() => prepareProtection(repo, 'read-only', env)).toThrow(message);
  });

  it('what appeared is removed one name at a time from the root: a symlink on the way is unlinked, never followed', async () => {
    const outside = await temp('brabo-outside-');
    mkdirSync(path.join(outside, 'mod', '.git'), { recursive: true });
    writeFileSync(path.join(outside, 'mod', '.git', 'config'), 'kept\n');
    rmSync(path.join(repo, 'absent'), { recursive: true, force: true });
    symlinkSync(outside, path.join(repo, 'absent'));
    mkdirSync(path.join(repo, 'uninit', '.git'));
    writeFileSync(path.join(repo, 'uninit', '.git', 'config'), 'planted\n');
    const removed = removeAppeared(repo, [path.join(repo, 'absent', 'mod', '.git'), path.join(repo, 'uninit', '.git')]);
    expect(removed.map(rel)).toEqual(['absent', 'uninit/.git']);
    expect(readFileSync(path.join(outside, 'mod', '.git', 'config'), 'utf8')).toBe('kept\n');
    expect(lstatSync(path.join(repo, 'uninit')).isDirectory()).toBe(true);
  });
});

describe('programs config values name inside the root: both back-ends', () => {
  let repo: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir: repo, cleanup } = await tempDir('brabo-programs-')));
  afterEach(async () => cleanup());

  it.each(['read-only', 'writable'] as const)(
    '--sandbox-git %s: an existing program read-only with its folder pinned, a missing one must not appear, a file where a folder would be read-only',
    (git) => {
      mkdirSync(path.join(repo, '.git'), { recursive: true });
      mkdirSync(path.join(repo, 'tools'));
      writeFileSync(path.join(repo, 'tools', 'watch'), '#!/bin/sh\n');
      writeFileSync(path.join(repo, 'notes'), 'a file\n');
      writeFileSync(
        path.join(repo, '.git', 'config'),
        '[core]\n\tfsmonitor = ./tools/watch\n\teditor = bin/ed --wait\n[diff "x"]\n\ttextconv = notes/conv\n[alias]\n\tl = !./.git/l.sh\n',
      );
      const protection = withoutCovered(
        prepareProtection(repo, git, {
          HOME: '/nonexistent',
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_CONFIG_GLOBAL: '/dev/null',
        }),
      );
      const rel = (entry: string) => path.relative(repo, entry);
      const readOnly = protection.readOnly.map((entry) => rel(entry.path));
      expect(readOnly).toEqual(expect.arrayContaining(['tools/watch', 'notes']));
      expect(protection.pinned.map(rel)).toContain('tools');
      expect(protection.mustNotAppear.map(rel)).toEqual(
        expect.arrayContaining(git === 'writable' ? ['bin/ed', '.git/l.sh'] : ['bin/ed']),
      );
      if (git === 'read-only') expect(protection.mustNotAppear.map(rel)).not.toContain('.git/l.sh'); // inside the read-only .git
      const rules = sandboxRules({ root: repo, cwd: repo, network: true, ...protection });
      const list = mounts(bwrapArgs(rules, 'true', { seccompFd: null }));
      expect(list).toContainEqual(['--ro-bind', path.join(repo, 'tools', 'watch'), path.join(repo, 'tools', 'watch')]);
      expect(list).toContainEqual(['--bind', path.join(repo, 'tools'), path.join(repo, 'tools')]);
      const profile = seatbeltProfile(rules, { privateTmp: '/t' });
      expect(profile).toContain(`(literal ${sbplString(path.join(repo, 'tools', 'watch'))})`);
      expect(profile).toContain(`(literal ${sbplString(path.join(repo, 'notes'))})`);
      expect(profile).toContain(`(subpath ${sbplString(path.join(repo, 'bin', 'ed'))})`);
    },
  );
});
