// test:dist: a packaged gateway as its users drive it over HTTP, and the end-to-end check every
// package test shares: a project whose runner (the packaged one) runs an approved command.
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { type Child, tempDir, waitFor } from './support.ts';

export interface Reply {
  status: number;
  body: any;
}

/** Provisioning (projects, members, credentials, runner tokens) uses the admin token; the rest the service token. */
const ADMIN_ROUTE = /^\/api\/(projects(\/[^/]+(\/members\/[^/]+|\/runner-tokens))?|credentials)$/;

export class GatewayClient {
  readonly base: string;
  readonly #admin: string;
  #service = '';

  constructor(base: string, adminToken: string) {
    this.base = base;
    this.#admin = adminToken;
  }

  /** Mints the service token the non-provisioning calls use. */
  async start(): Promise<this> {
    const minted = await this.call('POST', '/api/credentials', { kind: 'service', name: 'dist-test' });
    if (minted.status !== 201) throw new Error(`no service token: ${JSON.stringify(minted.body)}`);
    this.#service = minted.body.token as string;
    return this;
  }

  async call(method: string, route: string, body?: unknown, token?: string): Promise<Reply> {
    const response = await fetch(`${this.base}${route}`, {
      signal: AbortSignal.timeout(60_000),
      method,
      headers: {
        authorization: `Bearer ${token ?? (ADMIN_ROUTE.test(route) ? this.#admin : this.#service)}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text.length > 0 ? JSON.parse(text) : null };
  }
}

/** Waits for `brabo serve` (any way it was started) to print its address; its base URL. */
export async function servedAt(serve: Child, timeoutMs: number): Promise<string> {
  const port = await waitFor(
    () =>
      /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(serve.output())?.[1] ??
      (serve.child.exitCode !== null ? 'exited' : null),
    () => `the packaged server to listen; its output: ${serve.output()}`,
    timeoutMs,
  );
  if (port === 'exited') throw new Error(`the packaged server exited ${serve.child.exitCode}: ${serve.output()}`);
  return `http://127.0.0.1:${port}`;
}

/**
 * A runner project on `gateway`; `startRunner(url, projectId, root, token)` starts the packaged
 * runner (npx or its installed bin). The agent proposes a terminal command, olivia approves it,
 * and it must settle executed with its output, and its file on this machine's disk.
 */
export async function runApprovedCommand(
  gateway: GatewayClient,
  startRunner: (url: string, projectId: string, root: string, runnerToken: string) => Child,
): Promise<{ runner: Child }> {
  const root = realpathSync(tempDir('root'));
  const created = await gateway.call('POST', '/api/projects', { name: 'Dist', executionMode: 'runner', root, ownerId: 'olivia' });
  expect(created.status).toBe(201);
  const projectId = created.body.id as string;
  expect((await gateway.call('PUT', `/api/projects/${projectId}/members/agent-dev`, { role: 'developer', kind: 'agent' })).status).toBeLessThan(300);
  const minted = await gateway.call('POST', `/api/projects/${projectId}/runner-tokens`);
  expect(minted.status).toBeLessThan(300);
  // Day-to-day calls with the caller's own kind (issue 12): the agent proposes, olivia approves.
  const agentToken = (await gateway.call('POST', '/api/credentials', { kind: 'agent', projectId, agentId: 'agent-dev' })).body.token as string;
  const oliviaToken = (await gateway.call('POST', '/api/credentials', { kind: 'human', memberId: 'olivia' })).body.token as string;

  const runner = startRunner(`${gateway.base.replace('http', 'ws')}/socket`, projectId, root, minted.body.token as string);
  await waitFor(() => runner.output().includes('● connected') || runner.child.exitCode !== null, () => `the packaged runner to join; its output: ${runner.output()}`, 240_000);
  expect(runner.output()).toContain('● connected');

  const proposed = await gateway.call('POST', `/api/projects/${projectId}/actions`, {
    agentId: 'agent-dev',
    actionType: 'terminal',
    payload: { command: 'echo hello from the package > made-by-runner.txt && cat made-by-runner.txt', cwd: root },
  }, agentToken);
  expect(proposed.body.status).toBe('pending');
  expect((await gateway.call('POST', `/api/actions/${proposed.body.id}/approve`, {}, oliviaToken)).status).toBe(200);
  const settled = await waitFor(async () => {
    const got = await gateway.call('GET', `/api/actions/${proposed.body.id}/settlement?wait=2`, undefined, agentToken);
    return got.body?.state === 'settled' ? got.body : null;
  }, 'the action to settle', 60_000);
  expect(settled.settlement).toMatchObject({ status: 'executed', result: { exitCode: 0, stdout: 'hello from the package\n' } });
  expect(readFileSync(path.join(root, 'made-by-runner.txt'), 'utf8')).toBe('hello from the package\n');
  return { runner };
}

/** The runner's command line for `runApprovedCommand`, its log file in a fresh state folder. */
export function runnerFlags(url: string, projectId: string, root: string, state: string): string[] {
  return ['--url', url, '--project', projectId, '--root', root, '--log-file', path.join(state, 'runner.log')];
}
