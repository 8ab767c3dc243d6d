import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunnerArgs, UsageError } from '../../src/runner/config.ts';
import type { RunnerConfig } from '../../src/runner/config.ts';
import { tempDir } from './support/fixtures.ts';

let dir: string;
let root: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('config'));
  root = path.join(dir, 'project');
  await mkdir(root);
  await symlink(root, path.join(dir, 'root-link'));
});
afterAll(async () => cleanup());

const base = () => [
  '--url',
  'ws://127.0.0.1:4000/socket',
  '--token',
  'brt_x',
  '--project',
  'p1',
  '--root',
  root,
  '--journal',
  path.join(dir, 'state', 'j.jsonl'),
];
const parse = (argv: string[], env: NodeJS.ProcessEnv = {}) => parseRunnerArgs(argv, env);

describe('brabo runner flags', () => {
  it('parses a full command line with defaults', () => {
    expect(parse(base())).toMatchObject({
      url: 'ws://127.0.0.1:4000/socket',
      token: 'brt_x',
      projectId: 'p1',
      root,
      defaultTimeoutMs: 600_000,
      maxConcurrent: 4,
      logLevel: 'warn',
      logFile: null,
    });
  });

  it('takes the token from BRABO_RUNNER_TOKEN and resolves --root through symlinks', () => {
    const argv = base()
      .filter((_, i, all) => all[i] !== '--token' && all[i - 1] !== '--token')
      .map((a) => (a === root ? path.join(dir, 'root-link') : a));
    expect(parse(argv, { BRABO_RUNNER_TOKEN: 'brt_env' })).toMatchObject({ token: 'brt_env', root });
  });

  it('puts the default journal under XDG_STATE_HOME, outside the root', () => {
    const argv = base().slice(0, -2);
    expect((parse(argv, { XDG_STATE_HOME: path.join(dir, 'xdg') }) as RunnerConfig).journalFile).toBe(
      path.join(dir, 'xdg', 'brabo', 'runner-p1.jsonl'),
    );
  });

  it.each([
    ['a missing --url', (a: string[]) => a.slice(2), /--url is required/],
    ['an http url', (a: string[]) => ['--url', 'http://x/socket', ...a.slice(2)], /ws:\/\/ or wss:\/\//],
    ['a missing token', (a: string[]) => [...a.slice(0, 2), ...a.slice(4)], /token is required/],
    ['a missing --project', (a: string[]) => [...a.slice(0, 4), ...a.slice(6)], /--project is required/],
    [
      'a root that does not exist',
      (a: string[]) => a.map((x) => (x === root ? path.join(dir, 'nope') : x)),
      /does not exist/,
    ],
    ['/ as root', (a: string[]) => a.map((x) => (x === root ? '/' : x)), /file system root/],
    [
      'a journal inside the root',
      (a: string[]) => [...a.slice(0, -1), path.join(root, '.brabo', 'j.jsonl')],
      /inside --root/,
    ],
    [
      'a journal reached through a symlink into the root',
      (a: string[]) => [...a.slice(0, -1), path.join(dir, 'root-link', 'j.jsonl')],
      /inside --root/,
    ],
    ['a bad number', (a: string[]) => [...a, '--timeout-ms', '10s'], /--timeout-ms must be a whole number/],
    ['an unknown flag', (a: string[]) => [...a, '--yolo'], /Unknown option/],
    ['a bad log level', (a: string[]) => [...a, '--log-level', 'loud'], /--log-level must be one of/],
  ])('refuses %s with a UsageError that says what to change', (_label, edit, message) => {
    expect(() => parse(edit(base()))).toThrow(UsageError);
    expect(() => parse(edit(base()))).toThrow(message);
  });

  it('--help is not an error', () => {
    expect(parse(['--help'])).toBe('help');
  });
});
