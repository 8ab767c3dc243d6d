// A canary tree for the sandbox tests: a project root with the protected files (and some ordinary
// ones), plus canary folders outside it, and a way to run a command sandboxed (real bwrap) or not,
// through the same launch and supervisor path the runner uses.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand } from '../../../src/runner/run-command.ts';
import type { CommandOutcome } from '../../../src/runner/run-command.ts';
import { launchFor } from '../../../src/runner/sandbox/launch.ts';

export interface Canary {
  base: string;
  root: string;
  /** Outside the root on the host's disk (not under /tmp, which the sandbox replaces). */
  outside: string;
  /** Outside the root under the host's /tmp. */
  tmpOutside: string;
  cleanup: () => void;
}

export function canaryTree(): Canary {
  const base = mkdtempSync(path.join(os.tmpdir(), 'brabo-canary-'));
  const root = path.join(base, 'root');
  const tmpOutside = path.join(base, 'outside');
  const outside = mkdtempSync(path.join('/var/tmp', 'brabo-canary-outside-'));
  mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
  mkdirSync(path.join(root, 'src'), { recursive: true });
  mkdirSync(tmpOutside, { recursive: true });
  writeFileSync(path.join(root, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n');
  writeFileSync(path.join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(path.join(root, '.git', 'hooks', 'pre-commit.sample'), '#!/bin/sh\n');
  writeFileSync(
    path.join(root, 'permissions.json'),
    '{"allow": ["Terminal(echo:*)"], "deny": ["Terminal(curl:*)"], "ask": []}\n',
  );
  writeFileSync(path.join(root, 'src', 'a.txt'), 'a\n');
  for (const dir of [outside, tmpOutside]) writeFileSync(path.join(dir, 'secret.txt'), 'secret\n');
  return {
    base,
    root,
    outside,
    tmpOutside,
    cleanup: () => {
      rmSync(base, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    },
  };
}

/** path -> sha256 of content (or `dir`) for every entry under `dir`, recursively. */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (current: string): void => {
    let entries: string[];
    try {
      entries = readdirSync(current);
    } catch {
      return;
    }
    for (const name of entries) {
      const full = path.join(current, name);
      const stat = statSync(full, { throwIfNoEntry: false });
      if (stat === undefined) continue;
      if (stat.isDirectory()) {
        out.set(full, `dir ${stat.mode.toString(8)}`);
        walk(full);
      } else {
        out.set(full, `${stat.mode.toString(8)} ${createHash('sha256').update(readFileSync(full)).digest('hex')}`);
      }
    }
  };
  walk(dir);
  return out;
}

const PROTECTED = ['.git', '.git/config', '.git/hooks', 'permissions.json'] as const;

/**
 * The protected entries' state: kind, content (hooks: every file in it), mode, owner, times
 * and extended attributes. Any change a sandboxed command could leave on them shows here.
 */
export function protectedState(root: string, options: { xattrs?: boolean } = {}): Record<string, string> {
  const entries: Record<string, string> = {};
  // Listing xattrs costs a python3 start; callers that know no xattr writer ran may skip it.
  const xattrs = options.xattrs === false ? {} : listXattrs(PROTECTED.map((name) => path.join(root, name)));
  for (const name of PROTECTED) {
    const file = path.join(root, name);
    const stat = statSync(file, { throwIfNoEntry: false });
    if (stat === undefined) {
      entries[name] = 'missing';
      continue;
    }
    const meta = `${stat.mode.toString(8)} ${stat.uid}:${stat.gid} m${stat.mtimeMs} x${xattrs[file] ?? '?'}`;
    if (stat.isFile()) entries[name] = `file ${meta} ${createHash('sha256').update(readFileSync(file)).digest('hex')}`;
    else if (name === '.git') entries[name] = `dir ${meta}`;
    else entries[name] = `dir ${meta} ${[...snapshot(file).entries()].sort().join(',')}`;
  }
  // Git's redirections are absent in the canary and must stay so (see prepare.ts GIT_REDIRECTS).
  for (const name of ['commondir', 'modules', 'worktrees', 'config.worktree']) {
    entries[`.git/${name}`] =
      statSync(path.join(root, '.git', name), { throwIfNoEntry: false }) === undefined ? 'missing' : 'present';
  }
  return entries;
}

/** path -> its extended attribute names (one python3 call for all paths; node has no xattr API). */
function listXattrs(paths: string[]): Record<string, string> {
  const result = spawnSync(
    'python3',
    [
      '-c',
      'import os,sys,json; print(json.dumps({p: sorted(os.listxattr(p)) if os.path.exists(p) else None for p in sys.argv[1:]}))',
      ...paths,
    ],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`listing xattrs failed: ${result.stderr}`);
  const parsed = JSON.parse(result.stdout) as Record<string, string[] | null>;
  return Object.fromEntries(Object.entries(parsed).map(([file, names]) => [file, JSON.stringify(names)]));
}

export interface RunOptions {
  sandboxed?: boolean;
  network?: boolean;
  /** --sandbox-git; default read-only, as the runner's. */
  git?: 'read-only' | 'writable';
  cwd?: string;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  hide?: string[];
}

export async function runIn(root: string, command: string, options: RunOptions = {}): Promise<CommandOutcome> {
  const cwd = options.cwd ?? root;
  const launch = launchFor({
    command,
    root,
    cwd,
    env: options.env ?? process.env,
    backend: options.sandboxed === false ? null : 'bwrap',
    network: options.network ?? true,
    ...(options.git ? { git: options.git } : {}),
    seccomp: true,
    ...(options.hide ? { hide: options.hide } : {}),
  });
  try {
    return await runCommand({
      command,
      launch,
      cwd,
      timeoutMs: options.timeoutMs ?? 20_000,
      killGraceMs: 500,
      maxOutputBytes: 256 * 1024,
      env: launch.env,
    });
  } finally {
    launch.cleanup();
  }
}
