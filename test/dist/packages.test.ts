// The published packages, as a user gets them: `npm run build`, both .tgz files, then on a plain
// Node 22 with nothing from this checkout on PATH:
//   npx ./brabo-gateway-<v>.tgz serve        -> answers /healthz and /readyz
//   npx ./brabo-runner-<v>.tgz --url … --project … --root …  -> runs an approved command
// plus what goes into each tarball and what the runner costs on disk once installed.
import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAndPack, type Child, cleanEnv, diskBytes, type Packages, spawnIn, tempDir, waitFor } from './support.ts';

const ADMIN = 'dist-admin-token-0123456789abcdef';
const RUNNER_TARGET_BYTES = 15 * 1024 * 1024;

let packages: Packages;
let serve: Child;
let base: string;
let service: string;
const children: Child[] = [];

/** Provisioning (projects, members, credentials) uses the admin token; everything else the service token. */
async function call(method: string, route: string, body?: unknown, token = /^\/api\/(projects(\/[^/]+(\/members\/[^/]+|\/runner-tokens))?|credentials)$/.test(route) ? ADMIN : service): Promise<{ status: number; body: any }> {
  const response = await fetch(`${base}${route}`, {
    signal: AbortSignal.timeout(60_000),
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text.length > 0 ? JSON.parse(text) : null };
}

function tarList(tgz: string): string[] {
  return execFileSync('tar', ['tzf', tgz], { encoding: 'utf8' }).trim().split('\n');
}

beforeAll(async () => {
  packages = buildAndPack();
  const cwd = tempDir('serve');
  serve = spawnIn(path.dirname(packages.server), 'npx', ['--yes', `./${path.basename(packages.server)}`, 'serve', '--port', '0', '--data-dir', path.join(cwd, 'data')], cleanEnv({ BRABO_ADMIN_TOKEN: ADMIN }));
  children.push(serve);
  const port = await waitFor(
    () => /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(serve.output())?.[1] ?? (serve.child.exitCode !== null ? 'exited' : null),
    () => `the packaged server to listen; its output: ${serve.output()}`,
    240_000,
  );
  if (port === 'exited') throw new Error(`npx brabo-gateway serve exited ${serve.child.exitCode}: ${serve.output()}`);
  base = `http://127.0.0.1:${port}`;
  const minted = await call('POST', '/api/credentials', { kind: 'service', name: 'dist-test' }, ADMIN);
  if (minted.status !== 201) throw new Error(`no service token: ${JSON.stringify(minted.body)}`);
  service = minted.body.token as string;
}, 600_000);

afterAll(async () => {
  await Promise.all(children.map((child) => child.stop()));
});

describe('brabo-gateway package', () => {
  it('carries the built JavaScript, the bin and the docs, and no sources, tests or benchmarks', () => {
    const files = tarList(packages.server);
    expect(files).toContain('package/bin/brabo.js');
    expect(files).toContain('package/dist/src/cli.js');
    expect(files).toContain('package/README.md');
    expect(files.filter((f) => /^package\/(test|bench|src|gateway|broker|runner-protocol|scripts|\.ci)\//.test(f))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.ts'))).toEqual([]);
  });

  it('npx brabo-gateway serve runs on plain Node 22: /healthz answers, --version names the package version', async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const version = (JSON.parse(readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string }).version;
    const out = execFileSync('npx', ['--yes', `./${path.basename(packages.server)}`, '--version'], { env: cleanEnv(), cwd: path.dirname(packages.server), encoding: 'utf8' });
    expect(out).toContain(`brabo ${version} (node 22.`);
  });
});

describe('brabo-runner package', () => {
  it('holds only its own files and depends only on phoenix, ws, zod (+ dockerode, optional)', () => {
    const files = tarList(packages.runner);
    expect(files.filter((f) => !/^package\/(bin\/|dist\/|README\.md$|package\.json$)/.test(f))).toEqual([]);
    expect(files.filter((f) => /^package\/dist\/src\/(http|store|actions|policy|execution|agents)\//.test(f))).toEqual([]);
    const manifest = JSON.parse(execFileSync('tar', ['xzOf', packages.runner, 'package/package.json'], { encoding: 'utf8' })) as Record<string, Record<string, string>>;
    expect(Object.keys(manifest.dependencies ?? {}).sort()).toEqual(['phoenix', 'ws', 'zod']);
    expect(Object.keys(manifest.optionalDependencies ?? {})).toEqual(['dockerode']);
  });

  it('installed size: printed, and the required part stays within 15 MB', () => {
    const measure = (omitOptional: boolean): number => {
      const prefix = tempDir('size');
      execFileSync('npm', ['install', '--silent', '--no-audit', '--no-fund', '--prefix', prefix, ...(omitOptional ? ['--omit=optional'] : []), packages.runner], { env: cleanEnv(), stdio: 'inherit' });
      return diskBytes(path.join(prefix, 'node_modules'));
    };
    const required = measure(true);
    const full = measure(false);
    const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
    process.stdout.write(`brabo-runner installed size: ${mb(required)} MB (phoenix, ws, zod); ${mb(full)} MB with the optional dockerode; target <= 15 MB\n`);
    expect(required).toBeLessThanOrEqual(RUNNER_TARGET_BYTES);
  }, 300_000);

  it('npx ./brabo-runner-<v>.tgz --url … --project … --root … runs an approved command from a real gateway', async () => {
    const root = realpathSync(tempDir('root'));
    const created = await call('POST', '/api/projects', { name: 'Dist', executionMode: 'runner', root, ownerId: 'olivia' });
    expect(created.status).toBe(201);
    const projectId = created.body.id as string;
    expect((await call('PUT', `/api/projects/${projectId}/members/agent-dev`, { role: 'developer', kind: 'agent' })).status).toBeLessThan(300);
    const minted = await call('POST', `/api/projects/${projectId}/runner-tokens`);
    expect(minted.status).toBeLessThan(300);
    // Day-to-day calls with the caller's own kind (issue 12): the agent proposes, olivia approves.
    const agentToken = (await call('POST', '/api/credentials', { kind: 'agent', projectId, agentId: 'agent-dev' })).body.token as string;
    const oliviaToken = (await call('POST', '/api/credentials', { kind: 'human', memberId: 'olivia' })).body.token as string;

    const state = tempDir('state');
    const runner = spawnIn(
      path.dirname(packages.runner),
      'npx',
      ['--yes', `./${path.basename(packages.runner)}`, '--url', `${base.replace('http', 'ws')}/socket`, '--project', projectId, '--root', root, '--log-file', path.join(state, 'runner.log')],
      cleanEnv({ BRABO_RUNNER_TOKEN: minted.body.token, XDG_STATE_HOME: state }),
    );
    children.push(runner);
    await waitFor(() => runner.output().includes('● connected') || runner.child.exitCode !== null, () => `the packaged runner to join; its output: ${runner.output()}`, 240_000);
    expect(runner.output()).toContain('● connected');

    const proposed = await call('POST', `/api/projects/${projectId}/actions`, {
      agentId: 'agent-dev',
      actionType: 'terminal',
      payload: { command: 'echo hello from the package > made-by-runner.txt && cat made-by-runner.txt', cwd: root },
    }, agentToken);
    expect(proposed.body.status).toBe('pending');
    expect((await call('POST', `/api/actions/${proposed.body.id}/approve`, {}, oliviaToken)).status).toBe(200);
    const settled = await waitFor(async () => {
      const got = await call('GET', `/api/actions/${proposed.body.id}/settlement?wait=2`, undefined, agentToken);
      return got.body?.state === 'settled' ? got.body : null;
    }, 'the action to settle', 60_000);
    expect(settled.settlement).toMatchObject({ status: 'executed', result: { exitCode: 0, stdout: 'hello from the package\n' } });
    expect(readFileSync(path.join(root, 'made-by-runner.txt'), 'utf8')).toBe('hello from the package\n');
  }, 300_000);
});

