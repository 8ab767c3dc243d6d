// /metrics as an operator scrapes it: every brabo_ metric has HELP text; the pending-approvals
// gauges follow the store (total and by action type, across projects, and after an approval);
// dispatch outcomes are counted by status and code; broker failures by code (a real broker
// pointed at a socket that does not exist).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadExecutionConfig } from '../../src/config.ts';
import { countBrokerFailures } from '../../src/execution/broker-failure-counter.ts';
import { Metrics } from '../../src/http/metrics.ts';
import {
  createProject,
  killAllChildren,
  type Server,
  settled,
  startRunner,
  startServer,
  tempDir,
  waitUntil,
} from '../e2e/support.ts';
import { proposeTerminal, seedProject, startTestApp, type TestApp } from '../http/helpers.ts';

/** `name{labels} value` lines of one metric, as a map from the label text to the value. */
function samples(text: string, name: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`).exec(line);
    if (match) out.set(match[1] ?? '', Number(match[2]));
  }
  return out;
}

async function scrape(t: TestApp): Promise<string> {
  const response = await t.app.http.inject({ method: 'GET', url: '/metrics' });
  expect(response.statusCode).toBe(200);
  return response.body;
}

describe('Metrics (unit)', () => {
  it('every brabo_ metric carries HELP and TYPE', async () => {
    const metrics = new Metrics();
    metrics.watchPendingApprovals(async () => []);
    const text = await metrics.registry.metrics();
    const names = [...text.matchAll(/^# TYPE (brabo_\w+) /gm)].map((m) => m[1]);
    expect(names).toEqual(
      expect.arrayContaining([
        'brabo_pending_approvals',
        'brabo_pending_approvals_by_type',
        'brabo_dispatch_outcomes_total',
        'brabo_broker_failures_total',
      ]),
    );
    for (const name of names) expect(text).toMatch(new RegExp(`^# HELP ${name} \\S`, 'm'));
  });

  it('dispatch outcomes: executed is code ok; failures keep their code', async () => {
    const metrics = new Metrics();
    metrics.dispatchSettled('executed', null);
    metrics.dispatchSettled('failed', 'runner_not_connected');
    metrics.dispatchSettled('failed', 'runner_not_connected');
    const counts = samples(await metrics.registry.metrics(), 'brabo_dispatch_outcomes_total');
    expect(counts.get('{status="executed",code="ok"}')).toBe(1);
    expect(counts.get('{status="failed",code="runner_not_connected"}')).toBe(2);
  });

  it('a store that cannot answer does not break the scrape', async () => {
    const metrics = new Metrics();
    metrics.watchPendingApprovals(async () => {
      throw new Error('store closed');
    });
    await expect(metrics.registry.metrics()).resolves.toContain('brabo_pending_approvals');
  });

  it('countBrokerFailures counts failed results by code, passes everything through unchanged', async () => {
    const codes: string[] = [];
    class FakeBroker {
      #calls = 0;
      async list() {
        this.#calls += 1;
        return this.#calls === 1
          ? { ok: true as const, value: [] }
          : { ok: false as const, failure: { code: 'broker_unavailable', message: 'down' } };
      }
      async exec() {
        return { ok: false as const, failure: { code: 'container_not_running', message: 'start it' } };
      }
      sync() {
        return 42;
      }
    }
    const counted = countBrokerFailures(new FakeBroker(), (code) => codes.push(code));
    expect(await counted.list()).toEqual({ ok: true, value: [] });
    expect(await counted.list()).toMatchObject({ ok: false });
    expect(await counted.exec()).toMatchObject({ ok: false });
    expect(counted.sync()).toBe(42);
    await new Promise((resolve) => setImmediate(resolve));
    expect(codes).toEqual(['broker_unavailable', 'container_not_running']);
  });
});

describe('pending approvals on a real app', () => {
  let t: TestApp | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
  });

  it('total and by type across projects, read from the store; an approval lowers it', async () => {
    t = await startTestApp();
    const a = await seedProject(t);
    const b = await seedProject(t);
    const first = await proposeTerminal(t, a.id, a.root, 'make build');
    await proposeTerminal(t, b.id, b.root, 'make test');
    await t.call('POST', `/api/projects/${a.id}/actions`, {
      agentId: 'agent-dev',
      actionType: 'git_push',
      payload: { branch: 'feature/x', remote: 'origin' },
    });
    let text = await scrape(t);
    const pendingTypes = samples(text, 'brabo_pending_approvals_by_type');
    const total = samples(text, 'brabo_pending_approvals').get('');
    expect(pendingTypes.get('{action_type="terminal"}')).toBe(2);
    expect(total).toBe([...pendingTypes.values()].reduce((x, y) => x + y, 0));
    expect(total).toBeGreaterThanOrEqual(2);
    expect((await t.call('POST', `/api/actions/${first.body.id}/approve`, { userId: 'olivia' })).status).toBe(200);
    text = await scrape(t);
    expect(samples(text, 'brabo_pending_approvals_by_type').get('{action_type="terminal"}')).toBe(1);
    expect(samples(text, 'brabo_pending_approvals').get('')).toBe((total ?? 0) - 1);
  });

  it('broker failures: a Docker broker on a socket that does not exist counts broker_unavailable', async () => {
    const execution = loadExecutionConfig({}, {});
    execution.docker = {
      enabled: true,
      dockerHost: `unix://${join(tempDir('no-docker'), 'docker.sock')}`,
      image: 'brabo-test-busybox:latest',
      labels: { 'brabo.test': 'metrics' },
    };
    t = await startTestApp({ execution });
    const ready = await t.app.http.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks).toContainEqual(
      expect.objectContaining({ name: 'docker', ok: false, code: 'broker_unavailable' }),
    );
    await waitUntil(
      async () =>
        (samples(await scrape(t as TestApp), 'brabo_broker_failures_total').get('{code="broker_unavailable"}') ?? 0) >=
        1,
      'the broker failure to be counted',
    );
  });
});

describe('dispatch outcomes through a real runner', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await killAllChildren();
    await server?.close();
  });

  it('an executed command counts {executed, ok}; a cwd outside the root counts {failed, runner_refused}', async () => {
    const root = join(tempDir('metrics-root'), 'project');
    mkdirSync(root, { recursive: true });
    const project = await createProject(server, { executionMode: 'runner', root });
    const token = (await server.call('POST', `/api/projects/${project.id}/runner-tokens`)).body.token;
    const runner = startRunner({
      url: server.wsUrl,
      token,
      root,
      projectId: project.id,
      journal: join(tempDir('metrics-journal'), 'j.jsonl'),
    });
    await waitUntil(() => runner.output().includes('● connected'), 'the runner to join');
    const before = samples(await server.app.metrics.registry.metrics(), 'brabo_dispatch_outcomes_total');
    for (const cwd of [root, tempDir('outside')]) {
      const proposed = await server.call('POST', `/api/projects/${project.id}/actions`, {
        agentId: 'agent-dev',
        actionType: 'terminal',
        payload: { command: 'echo hi', cwd },
      });
      if (proposed.body.status === 'pending')
        await server.call('POST', `/api/actions/${proposed.body.id}/approve`, { userId: 'olivia' });
      await settled(server, proposed.body.id);
    }
    const after = samples(await server.app.metrics.registry.metrics(), 'brabo_dispatch_outcomes_total');
    const delta = (key: string): number => (after.get(key) ?? 0) - (before.get(key) ?? 0);
    expect(delta('{status="executed",code="ok"}')).toBe(1);
    expect(
      [...after.keys()].filter((key) => key.startsWith('{status="failed"')).reduce((sum, key) => sum + delta(key), 0),
    ).toBe(1);
  });
});
