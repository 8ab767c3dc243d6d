// Cluster benchmark: three gateway nodes on one Postgres against one node on Postgres, on this
// machine, measured in the same run (the single node is the floor).
//   node bench/cluster.bench.ts            (npm run bench:cluster)
// Env: BENCH_SAMPLES (default 100 per round), BENCH_ROUNDS (default 3), BENCH_RUNNERS (default
// 150 sockets), BRABO_TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/test).
// 1. approve -> command start: a real `./bin/brabo runner` child; on the cluster it is connected
//    to node B and every approval goes to node A, so each dispatch crosses nodes (A forwards over
//    Postgres pub/sub, B claims and pushes). The command is `date +%s%N`: its own start time is
//    compared with the wall clock just before the approve request. Target: cross-node p99 < 50 ms.
// 2. runner sockets held: BENCH_RUNNERS phoenix clients join `runner:<project>` with runner
//    tokens, spread round-robin over the nodes; joins/s until every node sees all of them.
// Each measure runs BENCH_ROUNDS times, interleaved; the report is the median with its spread.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
// @ts-ignore -- untyped JS package
import { Socket } from 'phoenix';
import WebSocket from 'ws';
import { RUNNER_PROTOCOL_VERSION } from '../runner-protocol/index.ts';
import { type App, createApp } from '../src/app.ts';
import { type AppConfig, GATEWAY_CHECKOUT, loadExecutionConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';

const SAMPLES = Number(process.env['BENCH_SAMPLES'] ?? 100);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const RUNNERS = Number(process.env['BENCH_RUNNERS'] ?? 150);
const WARMUP = 10;
const TOKEN = 'bench-admin-token-0123456789abcdef';
const BRABO = resolve(import.meta.dirname, '../bin/brabo');
const PG = process.env['BRABO_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

const progress = (what: string): void => void process.stderr.write(`bench:cluster: ${what}\n`);
const wallMs = (): number => performance.timeOrigin + performance.now();
const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
const p = (xs: number[], q: number): number =>
  quantile(
    [...xs].sort((a, b) => a - b),
    q,
  );
const median = (xs: number[]): number => p(xs, 0.5);

interface Node {
  app: App;
  base: string;
  ws: string;
  call(method: string, path: string, body?: unknown): Promise<any>;
}

/** The admin token only provisions (issue 12): proposals, approvals and reads use a service token. */
const provisioning = (method: string, path: string): boolean =>
  (method === 'POST' && path === '/api/projects') || /\/members\/|\/runner-tokens|^\/api\/credentials/.test(path);

async function startNode(databaseUrl: string, dir: string, serviceToken: () => string | null): Promise<Node> {
  const config: AppConfig = {
    host: '127.0.0.1',
    port: 0,
    dataDir: dir,
    adminToken: TOKEN,
    projectWorkspacesRoot: join(dir, 'ws'),
    projectsBase: join(dir, 'pb'),
    gatewayCheckout: GATEWAY_CHECKOUT,
    logLevel: 'silent',
    databaseUrl,
    execution: loadExecutionConfig({}, {}),
  };
  const app = await createApp(config, { logger: createLogger('silent') });
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  await app.start();
  const address = app.http.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const base = `http://127.0.0.1:${port}`;
  return {
    app,
    base,
    ws: `ws://127.0.0.1:${port}/socket`,
    async call(method, path, body) {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${provisioning(method, path) ? TOKEN : (serviceToken() ?? TOKEN)}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return response.json();
    },
  };
}

interface Topology {
  name: string;
  nodes: Node[];
  /** Where approvals go, and where the runner connects. */
  approveOn: Node;
  runnerOn: Node;
  projectId: string;
  machine: string;
  stop(): Promise<void>;
}

async function topology(name: string, admin: pg.Pool, count: number, dir: string): Promise<Topology> {
  const schema = `brabo_bench_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = `${PG}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const shared = join(dir, name);
  const nodes: Node[] = [];
  let serviceToken: string | null = null;
  for (let i = 0; i < count; i++) nodes.push(await startNode(url, shared, () => serviceToken));
  progress(`${name}: ${count} node(s) up`);
  const approveOn = nodes[0]!;
  serviceToken = (await approveOn.call('POST', '/api/credentials', { kind: 'service', name: 'bench' })).token;
  const runnerOn = nodes[count > 1 ? 1 : 0]!;
  const machine = join(shared, 'machine');
  mkdirSync(machine, { recursive: true });
  const project = await approveOn.call('POST', '/api/projects', {
    name: 'Bench',
    executionMode: 'runner',
    root: machine,
    ownerId: 'olivia',
  });
  await approveOn.call('PUT', `/api/projects/${project.id}/members/agent`, { role: 'developer', kind: 'agent' });
  const { token } = await approveOn.call('POST', `/api/projects/${project.id}/runner-tokens`);
  const runner = spawn(
    BRABO,
    [
      'runner',
      '--url',
      runnerOn.ws,
      '--root',
      machine,
      '--project',
      project.id,
      '--journal',
      join(shared, 'journal.jsonl'),
    ],
    {
      env: { ...process.env, BRABO_RUNNER_TOKEN: token, NO_COLOR: '1' },
      stdio: 'ignore',
    },
  );
  // Every node must see the runner (presence replica) before approvals go to A.
  while (
    !nodes.every(
      (n) =>
        n.app.execution!.cluster.directory?.remoteHolder(project.id) ||
        n.app.execution!.gateway.runners.isConnected(project.id),
    )
  ) {
    await new Promise((r) => setTimeout(r, 20));
  }
  progress(`${name}: runner connected`);
  return {
    name,
    nodes,
    approveOn,
    runnerOn,
    projectId: project.id,
    machine,
    async stop() {
      runner.kill('SIGTERM');
      for (const node of nodes) await node.app.close();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    },
  };
}

/** p50/p99 of approve -> command start, over SAMPLES dispatches. */
async function approveToStart(t: Topology): Promise<{ p50: number; p99: number }> {
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES + WARMUP; i++) {
    const proposed = await t.approveOn.call('POST', `/api/projects/${t.projectId}/actions`, {
      agentId: 'agent',
      actionType: 'terminal',
      payload: { command: 'date +%s%N', cwd: t.machine },
    });
    if (proposed.status !== 'pending') throw new Error(`expected pending, got ${JSON.stringify(proposed)}`);
    const t0 = wallMs();
    await t.approveOn.call('POST', `/api/actions/${proposed.id}/approve`, { userId: 'olivia' });
    const view = await t.approveOn.call('GET', `/api/actions/${proposed.id}/settlement?wait=10`);
    if (view.settlement?.status !== 'executed') throw new Error(`not executed: ${JSON.stringify(view).slice(0, 500)}`);
    const startedNs = BigInt(String(view.settlement?.result?.stdout ?? '0').trim() || '0');
    if (i >= WARMUP) samples.push(Number(startedNs / 1000n) / 1000 - t0);
  }
  return { p50: p(samples, 0.5), p99: p(samples, 0.99) };
}

/** Joins RUNNERS runner sockets spread over the nodes; joins/s until every node sees them all. */
async function holdRunners(t: Topology, round: number): Promise<{ joinsPerSecond: number; sockets: number }> {
  const grants: Array<{ projectId: string; token: string }> = [];
  for (let i = 0; i < RUNNERS; i++) {
    const root = join(t.machine, '..', `held-${round}-${i}`);
    mkdirSync(root, { recursive: true });
    const project = await t.approveOn.call('POST', '/api/projects', {
      name: `Held ${round}-${i}`,
      executionMode: 'runner',
      root,
      ownerId: 'olivia',
    });
    if (typeof project.id !== 'string')
      throw new Error(`project not created: ${JSON.stringify(project).slice(0, 300)}`);
    const { token } = await t.approveOn.call('POST', `/api/projects/${project.id}/runner-tokens`);
    grants.push({ projectId: project.id, token });
  }
  progress(`${t.name}: ${grants.length} projects with runner tokens`);
  const sockets: any[] = [];
  const t0 = performance.now();
  await Promise.all(
    grants.map(
      (grant, i) =>
        new Promise<void>((resolveJoin, reject) => {
          const socket = new Socket(t.nodes[i % t.nodes.length]!.ws, {
            transport: WebSocket,
            params: { token: grant.token },
            timeout: 30_000,
          });
          socket.connect();
          sockets.push(socket);
          socket
            .channel(`runner:${grant.projectId}`, { protocolVersion: RUNNER_PROTOCOL_VERSION, hostname: `bench-${i}` })
            .join(30_000)
            .receive('ok', () => resolveJoin())
            .receive('error', (e: unknown) => reject(new Error(`join refused: ${JSON.stringify(e)}`)))
            .receive('timeout', () => reject(new Error('join timed out')));
        }),
    ),
  );
  progress(`${t.name}: ${grants.length} joined`);
  const seen = (node: Node): number =>
    grants.filter(
      (g) =>
        node.app.execution!.gateway.runners.isConnected(g.projectId) ||
        node.app.execution!.cluster.directory?.remoteHolder(g.projectId),
    ).length;
  while (!t.nodes.every((node) => seen(node) === grants.length)) await new Promise((r) => setTimeout(r, 10));
  const seconds = (performance.now() - t0) / 1000;
  for (const socket of sockets) socket.disconnect();
  return { joinsPerSecond: grants.length / seconds, sockets: grants.length };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'brabo-bench-cluster-'));
  const admin = new pg.Pool({ connectionString: PG, max: 2 });
  admin.on('error', () => {}); // an idle session closed by the server: the pool opens a new one
  const topologies: Topology[] = [];
  try {
    const single = await topology('single', admin, 1, dir);
    topologies.push(single);
    const cluster = await topology('cluster', admin, 3, dir);
    topologies.push(cluster);
    const latency = new Map<string, Array<{ p50: number; p99: number }>>([
      ['single', []],
      ['cluster', []],
    ]);
    const held = new Map<string, number[]>([
      ['single', []],
      ['cluster', []],
    ]);
    for (let round = 0; round < ROUNDS; round++) {
      for (const t of [single, cluster]) {
        latency.get(t.name)!.push(await approveToStart(t));
        progress(`round ${round + 1}: ${t.name} approve -> start measured`);
      }
      for (const t of [single, cluster]) {
        held.get(t.name)!.push((await holdRunners(t, round)).joinsPerSecond);
        progress(`round ${round + 1}: ${t.name} runner sockets measured`);
      }
    }
    const fmt = (n: number) => n.toFixed(2).padStart(8);
    const row = (name: string, label: string) => {
      const runs = latency.get(name)!;
      const p50s = runs.map((r) => r.p50);
      const p99s = runs.map((r) => r.p99);
      return `${label}${fmt(median(p50s))} ${fmt(median(p99s))}   p99 spread ${Math.min(...p99s).toFixed(2)}-${Math.max(...p99s).toFixed(2)}`;
    };
    const s99 = median(latency.get('single')!.map((r) => r.p99));
    const c99 = median(latency.get('cluster')!.map((r) => r.p99));
    const sJoins = held.get('single')!;
    const cJoins = held.get('cluster')!;
    process.stdout.write(
      `cluster benchmark (${ROUNDS} rounds x ${SAMPLES} dispatches, ${RUNNERS} runner sockets per round; Postgres; real brabo runner)\n` +
        `approve -> command start                 p50 ms   p99 ms   (median of ${ROUNDS})\n` +
        `${row('single', '1 node (floor)                    ')}\n` +
        `${row('cluster', '3 nodes, runner on B, approve on A')}\n` +
        `cross-node / single-node p99: x${(c99 / s99).toFixed(2)}; target cross-node p99 < 50 ms: ${c99 < 50 ? 'met' : 'NOT met'}\n` +
        `runner sockets held (join until every node sees them)   joins/s median (spread)\n` +
        `1 node (floor)      ${median(sJoins).toFixed(0).padStart(8)} (${Math.min(...sJoins).toFixed(0)}-${Math.max(...sJoins).toFixed(0)})\n` +
        `3 nodes             ${median(cJoins).toFixed(0).padStart(8)} (${Math.min(...cJoins).toFixed(0)}-${Math.max(...cJoins).toFixed(0)})   x${(median(cJoins) / median(sJoins)).toFixed(2)} of single\n`,
    );
  } catch (error) {
    progress(`failed: ${(error as Error).stack ?? String(error)}`);
    process.exitCode = 1;
  } finally {
    for (const t of topologies) await t.stop().catch(() => {});
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
