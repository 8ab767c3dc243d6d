// `brabo runner` as a user meets it: a --url that is not a brabo socket stops it at once (exit 2,
// one sentence) instead of retrying forever; after Ctrl-C "stopped" is the last thing it says;
// a warning is printed once (a human line on stdout, JSON only in --log-file).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPermanentUpgradeStatus } from '../../src/runner/connection.ts';
import {
  BRABO,
  createProject,
  killAllChildren,
  type Server,
  startRunner,
  startServer,
  stopChild,
  tempDir,
  waitUntil,
} from '../e2e/support.ts';

let server: Server;
let token: string;
let projectId: string;
let root: string;

beforeAll(async () => {
  server = await startServer();
  root = join(tempDir('runner-cli'), 'project');
  mkdirSync(root, { recursive: true });
  const project = await createProject(server, { executionMode: 'runner', root });
  projectId = project.id;
  token = (await server.call('POST', `/api/projects/${projectId}/runner-tokens`)).body.token;
});
afterAll(async () => {
  await killAllChildren();
  await server?.close();
});

function runOnce(url: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      BRABO,
      [
        'runner',
        '--url',
        url,
        '--project',
        projectId,
        '--root',
        root,
        '--journal',
        join(tempDir('journal'), 'j.jsonl'),
        '--reconnect-base-ms',
        '50',
        '--reconnect-max-ms',
        '100',
      ],
      {
        env: { ...process.env, NO_COLOR: '1', BRABO_RUNNER_TOKEN: token },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe('a --url that is not a brabo socket', () => {
  it.each([
    ['no /socket mount', (base: string) => base],
    ['an HTTP API path', (base: string) => `${base}/api`],
    ['a path below the socket', (base: string) => `${base}/socket/extra`],
    ['a typo in the mount', (base: string) => `${base}/sockets`],
  ])('%s: stops with exit 2 and says what --url should be (no endless retries)', async (_what, make) => {
    const url = make(server.wsUrl.replace(/\/socket$/, ''));
    const { code, out } = await runOnce(url);
    expect(code, out).toBe(2);
    expect(out).toContain(`${url} is not a brabo socket`);
    expect(out).toContain('--url ws://HOST:PORT/socket');
    expect(out).not.toMatch(/retrying/);
  });

  it('the right URL still connects (the check does not refuse a real socket)', async () => {
    const runner = startRunner({
      url: server.wsUrl,
      token,
      root,
      projectId,
      journal: join(tempDir('journal'), 'j.jsonl'),
    });
    await waitUntil(() => runner.output().includes('● connected'), 'the runner to join');
    await runner.stop();
  });

  it('retryable statuses are not fatal; wrong-place statuses are', () => {
    for (const status of [403, 408, 429, 500, 502, 503, 504])
      expect(isPermanentUpgradeStatus(status), String(status)).toBe(false);
    for (const status of [200, 301, 302, 400, 404, 405, 426])
      expect(isPermanentUpgradeStatus(status), String(status)).toBe(true);
  });
});

describe('stopping', () => {
  it('after SIGINT, "stopped" is the last line: no "disconnected"/"reconnecting" after it', async () => {
    const runner = startRunner({
      url: server.wsUrl,
      token,
      root,
      projectId,
      journal: join(tempDir('journal'), 'j.jsonl'),
    });
    await waitUntil(() => runner.output().includes('● connected'), 'the runner to join');
    const exited = new Promise<number | null>((resolve) => runner.child.once('exit', (code) => resolve(code)));
    runner.child.kill('SIGINT');
    expect(await exited).toBe(0);
    const lines = runner.output().trim().split('\n');
    expect(lines.at(-1)).toMatch(/stopped/);
    const stoppedAt = lines.findIndex((line) => /stopping/.test(line));
    expect(lines.slice(stoppedAt).filter((line) => /reconnect|disconnected/.test(line))).toEqual([]);
  });
});

describe('warnings are printed once', () => {
  it('a server that is down: one human warning on stdout, no JSON on stderr; with --log-file the JSON goes there', async () => {
    const down = 'ws://127.0.0.1:9/socket'; // discard port: nothing listens
    const logFile = join(tempDir('log'), 'runner.log');
    const journal = join(tempDir('journal'), 'j.jsonl');
    const child = spawn(
      BRABO,
      [
        'runner',
        '--url',
        down,
        '--project',
        projectId,
        '--root',
        root,
        '--journal',
        journal,
        '--log-file',
        logFile,
        '--reconnect-base-ms',
        '50',
        '--reconnect-max-ms',
        '100',
      ],
      {
        env: { ...process.env, NO_COLOR: '1', BRABO_RUNNER_TOKEN: token },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await waitUntil(() => stdout.includes('cannot connect'), 'the unreachable warning', 20_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // several more failed attempts
    await stopChild(child, 'SIGTERM');
    expect(stdout.split('\n').filter((line) => line.includes('cannot connect'))).toHaveLength(1);
    expect(stderr).not.toMatch(/^\{/m);
    const json = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg?: string; level: number });
    expect(json.length).toBeGreaterThan(0);
    expect(json.every((entry) => typeof entry.level === 'number')).toBe(true);
  });
});
