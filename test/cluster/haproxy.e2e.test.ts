// Three real `brabo serve` nodes on one Postgres behind HAProxy running the shipped
// deploy/haproxy.cfg, a real `brabo runner` and agents connected through it or to single nodes:
// - kill -9 of the node holding the runner mid-command: the runner reconnects through HAProxy to
//   another node, the in-flight dispatch resolves exactly once (from the runner's journal/outbox),
//   work approved meanwhile is delivered, agents on other nodes get their settlements;
// - rolling restart of all three nodes under traffic: every accepted action runs exactly once.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allowCommands,
  api,
  createProject,
  freePort,
  joinAgentTopic,
  killAllChildren,
  type ServeProcess,
  settled,
  startRunner,
  startServeAt,
  stopChild,
  tempDir,
  waitUntil,
} from '../e2e/support.ts';
import { TestSchemas } from '../store/contract-postgres.ts';
import { FAST_CLUSTER_ENV } from './support.ts';

const HAPROXY_CFG = resolve(import.meta.dirname, '../../deploy/haproxy.cfg');
const schemas = new TestSchemas();
let schema: { name: string; url: string };
let dataDir = '';
let home = '';
let ports: number[] = [];
const nodes: Array<ServeProcess | null> = [null, null, null];
let haproxy: ChildProcess | null = null;
let lbPort = 0;
const lb = () => api(`http://127.0.0.1:${lbPort}`);
const lbWs = () => `ws://127.0.0.1:${lbPort}/socket`;

const nodeEnv = (i: number): NodeJS.ProcessEnv => ({
  DATABASE_URL: schema.url,
  BRABO_NODE_ID: `node${i + 1}`,
  ...FAST_CLUSTER_ENV,
  BRABO_RUNNER_GRACE_MS: '8000',
  BRABO_DELIVERY_TIMEOUT_MS: '8000',
  BRABO_PROJECTS_BASE: join(dataDir, 'projects'),
  // POST /actions answers without holding the request for the outcome long (the test reads the database).
  BRABO_PROPOSE_WAIT_MS: '1000',
});

async function startNode(i: number): Promise<ServeProcess> {
  // Three nodes, HAProxy, a runner and other suites share two cores: starts can be slow.
  const node = await startServeAt(dataDir, ports[i]!, nodeEnv(i), 150_000);
  nodes[i] = node;
  return node;
}

const sql = (text: string) => schemas.query(schema.name, text);

/** The node index holding the project's runner socket, from the cluster lock row. */
async function holderOf(projectId: string): Promise<number | null> {
  const rows = await sql(
    `SELECT node_id FROM runner_sessions WHERE project_id = '${projectId}' AND node_id IS NOT NULL`,
  );
  const id = rows[0]?.node_id as string | undefined;
  return id ? Number(id.replace('node', '')) - 1 : null;
}

beforeAll(async () => {
  schema = await schemas.create();
  dataDir = tempDir('cluster-lb');
  home = tempDir('cluster-lb-machines');
  ports = [await freePort(), await freePort(), await freePort()];
  lbPort = await freePort();
  for (let i = 0; i < 3; i++) await startNode(i);
  haproxy = spawn('haproxy', ['-f', HAPROXY_CFG, '-db'], {
    env: {
      ...process.env,
      BRABO_LB_BIND: `127.0.0.1:${lbPort}`,
      BRABO_NODE1: `127.0.0.1:${ports[0]}`,
      BRABO_NODE2: `127.0.0.1:${ports[1]}`,
      BRABO_NODE3: `127.0.0.1:${ports[2]}`,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let haproxyErr = '';
  haproxy.stderr?.on('data', (d: Buffer) => (haproxyErr += d.toString()));
  await waitUntil(async () => {
    if (haproxy?.exitCode !== null) throw new Error(`haproxy exited: ${haproxyErr}`);
    return (
      (await fetch(`http://127.0.0.1:${lbPort}/healthz`).then(
        (r) => r.status,
        () => 0,
      )) === 200
    );
  }, 'HAProxy to answer');
}, 480_000);

afterAll(async () => {
  if (haproxy) await stopChild(haproxy, 'SIGTERM');
  await killAllChildren();
  await schemas.dropAll();
  for (const dir of [dataDir, home]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A runner-mode project whose machine folder has count.sh (counts a run) and gate.sh (waits for `go`, then counts). */
async function machineProject(name: string) {
  const root = join(home, name);
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'count.sh'), 'echo run >> "$(dirname "$0")/counter.txt"\necho counted\n');
  writeFileSync(
    join(root, 'gate.sh'),
    'cd "$(dirname "$0")"; while [ ! -f go ]; do sleep 0.05; done\necho run >> counter.txt\necho gate-open\n',
  );
  const project = await createProject(lb(), { executionMode: 'runner', root, name });
  await allowCommands(lb(), project.id, ['Terminal(sh count.sh)']);
  const token = (await lb().call('POST', `/api/projects/${project.id}/runner-tokens`)).body.token as string;
  // Enough concurrency for the traffic below: runner_busy backpressure is another test's subject.
  const runner = startRunner({
    url: lbWs(),
    token,
    root,
    projectId: project.id,
    journal: join(home, `${name}.journal`),
    extra: ['--max-concurrent', '32'],
  });
  await waitUntil(
    () => holderOf(project.id).then((i) => i !== null),
    `runner of ${name} to join through HAProxy`,
    45_000,
  );
  const runs = (): number =>
    existsSync(join(root, 'counter.txt'))
      ? readFileSync(join(root, 'counter.txt'), 'utf8').trim().split('\n').length
      : 0;
  return { project, root, runner, runs };
}

/** Per action: how many times each execution event was recorded (never more than once). */
async function executionEvents(projectId: string): Promise<Map<string, string[]>> {
  const rows = await sql(
    `SELECT action_id, type FROM session_events WHERE project_id = '${projectId}' AND type LIKE 'action.%' ORDER BY id`,
  );
  const byAction = new Map<string, string[]>();
  for (const row of rows) {
    const list = byAction.get(String(row.action_id)) ?? [];
    list.push(String(row.type));
    byAction.set(String(row.action_id), list);
  }
  return byAction;
}

const duplicates = (types: string[]): string[] => types.filter((t, i) => types.indexOf(t) !== i);

describe('three nodes behind HAProxy (deploy/haproxy.cfg)', () => {
  it('kill -9 of the node holding the runner mid-command: resolved exactly once, queued work delivered, agents elsewhere settled', async () => {
    const { project, root, runner, runs } = await machineProject('killed');
    const holder = (await holderOf(project.id))!;
    const others = [0, 1, 2].filter((i) => i !== holder);
    const [o1, o2] = others.map((i) => nodes[i]!) as [ServeProcess, ServeProcess];
    const agent = await joinAgentTopic(o2.wsUrl, 'agent-dev');
    try {
      // In flight on the holder: approved on another node, running on the runner, waiting for `go`.
      const gate = await o1.call('POST', `/api/projects/${project.id}/actions`, {
        agentId: 'agent-dev',
        actionType: 'terminal',
        payload: { command: 'sh gate.sh', cwd: root, timeoutMs: 60_000 },
      });
      expect(gate.body.status).toBe('pending');
      expect((await o1.call('POST', `/api/actions/${gate.body.id}/approve`, { userId: 'olivia' })).status).toBe(200);
      await waitUntil(
        async () =>
          ['accepted', 'running'].includes((await o1.call('GET', `/api/actions/${gate.body.id}`)).body.dispatch?.state),
        'the runner to accept the gate',
      );

      nodes[holder]!.child.kill('SIGKILL');
      await new Promise<void>((r) => nodes[holder]!.child.once('exit', () => r()));
      nodes[holder] = null;

      // Approved while the runner is between nodes: delivered once it is back.
      const queued: string[] = [];
      for (let i = 0; i < 3; i++) {
        const p = await o2.call('POST', `/api/projects/${project.id}/actions`, {
          agentId: 'agent-dev',
          actionType: 'terminal',
          payload: { command: 'sh gate.sh', cwd: root, timeoutMs: 60_000 },
        });
        expect((await o2.call('POST', `/api/actions/${p.body.id}/approve`, { userId: 'olivia' })).status).toBe(200);
        queued.push(p.body.id as string);
      }
      await waitUntil(
        () => holderOf(project.id).then((i) => i !== null && i !== holder),
        'the runner to reconnect through HAProxy to a live node',
        30_000,
      );
      writeFileSync(join(root, 'go'), '');

      for (const id of [gate.body.id as string, ...queued])
        expect((await settled(o1, id, 45_000)).settlement).toMatchObject({ status: 'executed' });
      expect(runs()).toBe(4); // each ran exactly once
      const events = await executionEvents(project.id);
      for (const id of [gate.body.id as string, ...queued]) expect(duplicates(events.get(id) ?? [])).toEqual([]);
      const rows = await sql(`SELECT state, attempt FROM execution_handoffs WHERE action_id = '${gate.body.id}'`);
      expect(rows[0]).toMatchObject({ state: 'executed', attempt: 1 }); // never delivered twice
      // The agent listening on another node got every settlement, once.
      await waitUntil(
        () => [gate.body.id, ...queued].every((id) => agent.received.some((m) => m.payload?.actionId === id)),
        'task.action_settled on the agent node',
        15_000,
      );
      for (const id of [gate.body.id, ...queued])
        expect(agent.received.filter((m) => m.payload?.actionId === id)).toHaveLength(1);
    } finally {
      agent.socket.disconnect();
      await runner.stop();
      await startNode(holder); // back for the next test
    }
  }, 420_000);

  it('rolling restart of all three nodes under traffic loses nothing', async () => {
    const { project, root, runner, runs } = await machineProject('rolling');
    let stop = false;
    const statuses: number[] = [];
    const traffic = (async () => {
      const inFlight = new Set<Promise<void>>();
      while (!stop) {
        const call = lb()
          .call('POST', `/api/projects/${project.id}/actions`, {
            agentId: 'agent-dev',
            actionType: 'terminal',
            payload: { command: 'sh count.sh', cwd: root },
          })
          .then(
            (r) => void statuses.push(r.status),
            () => void statuses.push(0),
          );
        inFlight.add(call);
        void call.finally(() => inFlight.delete(call));
        if (inFlight.size >= 4) await Promise.race(inFlight);
        await new Promise((r) => setTimeout(r, 100));
      }
      await Promise.all(inFlight);
    })();
    const t0 = Date.now();
    const mark = (what: string) => process.env.E2E_TIMING && console.log(`${Date.now() - t0} ms: ${what}`);
    try {
      for (let i = 0; i < 3; i++) {
        mark(`stopping node${i + 1}`);
        await stopChild(nodes[i]!.child, 'SIGTERM');
        nodes[i] = null;
        await new Promise((r) => setTimeout(r, 300));
        mark(`starting node${i + 1}`);
        await startNode(i);
        mark(`node${i + 1} up`);
        await new Promise((r) => setTimeout(r, 700));
      }
    } finally {
      stop = true;
      await traffic;
    }
    mark('traffic stopped');
    // The truth is the database: every action accepted by any node must run exactly once.
    await waitUntil(
      async () =>
        (
          await sql(
            `SELECT count(*)::int AS n FROM execution_handoffs WHERE project_id = '${project.id}' AND state NOT IN ('executed', 'failed')`,
          )
        )[0]?.n === 0,
      'every dispatch to settle',
      60_000,
    );
    const rows = await sql(
      `SELECT a.id, h.state, h.outcome FROM proposed_actions a JOIN execution_handoffs h ON h.action_id = a.id WHERE a.project_id = '${project.id}'`,
    );
    mark('all settled');
    const accepted = statuses.filter((s) => s === 201).length;
    expect(rows.length).toBeGreaterThanOrEqual(accepted);
    expect(accepted).toBeGreaterThan(10);
    const notExecuted = rows.filter((r) => r.state !== 'executed');
    expect(
      notExecuted.map((r) => ({
        state: r.state,
        code: (r.outcome as { code?: string } | null)?.code,
        message: (r.outcome as { message?: string } | null)?.message,
      })),
    ).toEqual([]);
    expect(runs()).toBe(rows.length);
    const events = await executionEvents(project.id);
    for (const row of rows) expect(duplicates(events.get(String(row.id)) ?? [])).toEqual([]);
    await runner.stop();
  }, 420_000);
});
