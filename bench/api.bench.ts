// Proposals per second and latency through HTTP, on the embedded SQLite store and on Postgres,
// against a no-op route (GET /healthz) of the same server in the same run (the floor). The server
// is a real `brabo serve` child process; this process is the load generator (keep-alive node:http).
// Each rate runs three times (median with spread); the report names the largest rate with 0
// errors in all three. Targets: SQLite p99 < 10 ms at 500 proposals/s; Postgres p99 < 20 ms at
// 200 proposals/s. Run: npm run bench:api [-- --store both|sqlite|postgres --rates 100,200,300,500
// --seconds 4 --repeat 3]; Postgres at BRABO_BENCH_POSTGRES_URL (default 127.0.0.1:5432/test,
// in a schema of its own, dropped after).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '4' },
    rates: { type: 'string', default: '100,200,300,500' },
    repeat: { type: 'string', default: '3' },
    store: { type: 'string', default: 'both' },
    concurrency: { type: 'string', default: '16' },
  },
});
const SECONDS = Number(values.seconds);
const RATES = String(values.rates).split(',').map(Number);
const REPEAT = Number(values.repeat);
const POSTGRES_URL = process.env.BRABO_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CONCURRENCY = Number(values.concurrency);
const TOKEN = randomBytes(24).toString('base64url');
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

interface Target {
  host: string;
  port: number;
}

/** Day-to-day calls go with a service token (the upstream api); the admin token only provisions (issue 12). */
let serviceToken: string | null = null;
const isProvisioning = (method: string, path: string): boolean =>
  (method === 'POST' && path === '/api/projects') ||
  path.startsWith('/api/credentials') ||
  /\/members\/|\/runner-tokens/.test(path);

function send(target: Target, method: string, path: string, body?: unknown): Promise<{ status: number; body: string }> {
  const bearer = isProvisioning(method, path) || serviceToken === null ? TOKEN : serviceToken;
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolvePromise, reject) => {
    const req = request(
      {
        agent,
        host: target.host,
        port: target.port,
        method,
        path,
        headers: {
          authorization: `Bearer ${bearer}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (data += chunk));
        res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, body: data }));
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

function startServer(dir: string, databaseUrl: string | null): Promise<{ child: ChildProcess; target: Target }> {
  const bin = resolve(import.meta.dirname, '../bin/brabo');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BRABO_ADMIN_TOKEN: TOKEN,
    BRABO_LOG_LEVEL: 'warn',
    BRABO_PROJECT_WORKSPACES_ROOT: join(dir, 'ws'),
  };
  delete env.DATABASE_URL;
  if (databaseUrl) env.BRABO_DATABASE_URL = databaseUrl;
  else delete env.BRABO_DATABASE_URL;
  const child = spawn(bin, ['serve', '--port', '0', '--data-dir', join(dir, 'data')], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolvePromise, reject) => {
    let out = '';
    child.on('exit', (code) => reject(new Error(`brabo serve exited ${code}: ${out}`)));
    // Once listening, the child's output is drained unread: scanning a growing string on every
    // chunk would load this process (the load generator) during the measurement.
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /listening on http:\/\/([^:\s]+):(\d+)/.exec(out);
      if (m?.[1] && m[2]) {
        child.stdout?.off('data', onData).resume();
        resolvePromise({ child, target: { host: m[1], port: Number(m[2]) } });
      }
    };
    child.stdout?.on('data', onData);
  });
}

type Call = () => Promise<{ status: number }>;

interface Result {
  name: string;
  requests: number;
  errors: number;
  seconds: number;
  latencies: number[];
}

/** Open loop: requests leave on schedule whatever the server does; latency counts from the schedule. */
async function openLoop(name: string, call: Call, rate: number, seconds: number): Promise<Result> {
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    inflight.push(
      call().then(
        (r) => {
          if (r.status >= 300) errors++;
          latencies.push(performance.now() - due);
        },
        () => {
          errors++;
        },
      ),
    );
  }
  await Promise.all(inflight);
  return { name, requests: total, errors, seconds: (performance.now() - start) / 1000, latencies };
}

/** Closed loop: CONCURRENCY workers back to back, for the maximum rate. */
async function closedLoop(name: string, call: Call, seconds: number): Promise<Result> {
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const r = await call().catch(() => ({ status: 0 }));
        if (r.status >= 300 || r.status === 0) errors++;
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { name, requests: latencies.length, errors, seconds: (performance.now() - start) / 1000, latencies };
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

function row(r: Result) {
  const sorted = [...r.latencies].sort((a, b) => a - b);
  return {
    run: r.name,
    'req/s': Math.round(r.requests / r.seconds),
    'p50 ms': quantile(sorted, 0.5).toFixed(2),
    'p99 ms': quantile(sorted, 0.99).toFixed(2),
    'max ms': (sorted[sorted.length - 1] ?? 0).toFixed(2),
    errors: r.errors,
  };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const spread = (xs: number[]): string => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}`;

interface RateSummary {
  rate: number;
  proposeP50: number[];
  proposeP99: number[];
  floorP99: number[];
  errors: number;
  achieved: number[];
}

async function benchStore(kind: 'sqlite' | 'postgres'): Promise<RateSummary[]> {
  const dir = mkdtempSync(join(tmpdir(), 'brabo-bench-api-'));
  let schema: string | null = null;
  let admin: pg.Client | null = null;
  if (kind === 'postgres') {
    admin = new pg.Client({ connectionString: POSTGRES_URL });
    admin.on('error', () => {}); // a session closed by the server: the next query says so
    await admin.connect();
    schema = `brabo_bench_${randomBytes(5).toString('hex')}`;
    await admin.query(`CREATE SCHEMA ${schema}`);
  }
  const databaseUrl = schema ? `${POSTGRES_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}` : null;
  const { child, target } = await startServer(dir, databaseUrl);
  try {
    serviceToken = JSON.parse(
      (await send(target, 'POST', '/api/credentials', { kind: 'service', name: 'bench' })).body,
    ).token;
    const project = JSON.parse(
      (await send(target, 'POST', '/api/projects', { name: 'Bench', executionMode: 'container', ownerId: 'olivia' }))
        .body,
    );
    await send(target, 'PUT', `/api/projects/${project.id}/members/agent`, { role: 'developer', kind: 'agent' });
    await send(target, 'PUT', `/api/projects/${project.id}/permissions`, {
      userId: 'olivia',
      allow: ['Terminal(ls)', 'Terminal(pnpm test:*)'],
      deny: ['Terminal(curl:*)'],
    });
    let n = 0;
    // Half auto-approved (with a hand-off row), half pending; every one is a durable transaction.
    const commands = ['ls -la src', `cd ${project.root}/src && pnpm test:unit`, 'make build', 'npm publish'];
    const propose: Call = () =>
      send(target, 'POST', `/api/projects/${project.id}/actions`, {
        agentId: 'agent',
        actionType: 'terminal',
        payload: { command: commands[n++ % commands.length], cwd: project.root },
      });
    const floor: Call = () => send(target, 'GET', '/healthz');

    await closedLoop('warm-up', propose, 1);
    await closedLoop('warm-up', floor, 1);
    const summaries: RateSummary[] = [];
    for (const rate of RATES) {
      const summary: RateSummary = { rate, proposeP50: [], proposeP99: [], floorP99: [], errors: 0, achieved: [] };
      for (let i = 0; i < REPEAT; i++) {
        const f = row(await openLoop(`floor @${rate}/s`, floor, rate, SECONDS));
        const p = row(await openLoop(`propose @${rate}/s`, propose, rate, SECONDS));
        summary.floorP99.push(Number(f['p99 ms']));
        summary.proposeP50.push(Number(p['p50 ms']));
        summary.proposeP99.push(Number(p['p99 ms']));
        summary.achieved.push(p['req/s']);
        summary.errors += p.errors;
      }
      summaries.push(summary);
    }
    const floorMax = row(await closedLoop(`floor max (c=${CONCURRENCY})`, floor, SECONDS));
    const proposeMax = row(await closedLoop(`propose max (c=${CONCURRENCY})`, propose, SECONDS));
    console.log(`\n== ${kind}: open loop, ${REPEAT} runs of ${SECONDS} s per rate (median, spread min-max)`);
    console.table(
      summaries.map((s) => ({
        'rate/s': s.rate,
        'achieved/s': median(s.achieved),
        'p50 ms': median(s.proposeP50).toFixed(2),
        'p99 ms': median(s.proposeP99).toFixed(2),
        'p99 spread': spread(s.proposeP99),
        'floor p99 ms': median(s.floorP99).toFixed(2),
        'p99/floor': (median(s.proposeP99) / median(s.floorP99)).toFixed(1),
        errors: s.errors,
      })),
    );
    console.table([floorMax, proposeMax]);
    console.log(
      `${kind}: closed-loop max throughput ${proposeMax['req/s']} proposals/s (${(proposeMax['req/s'] / floorMax['req/s']).toFixed(2)}x of the floor), errors ${proposeMax.errors}`,
    );
    return summaries;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
    if (admin && schema) {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
      await admin.end();
    }
  }
}

function verdict(kind: string, summaries: RateSummary[], target: { rate: number; p99: number }): void {
  const clean = summaries.filter((s) => s.errors === 0).map((s) => s.rate);
  const largest = clean.length > 0 ? Math.max(...clean) : null;
  console.log(
    `${kind}: largest rate with 0 errors in all ${REPEAT} runs: ${largest === null ? 'none' : `${largest}/s`}`,
  );
  const at = summaries.find((s) => s.rate === target.rate);
  if (!at) {
    console.log(
      `${kind}: target p99 < ${target.p99} ms at ${target.rate} proposals/s: NOT MEASURED (add ${target.rate} to --rates)`,
    );
    return;
  }
  const p99 = median(at.proposeP99);
  const met = at.errors === 0 && p99 < target.p99;
  console.log(
    `${kind}: target p99 < ${target.p99} ms at ${target.rate} proposals/s: ${met ? 'MET' : 'NOT MET'} (median p99 ${p99.toFixed(2)} ms, spread ${spread(at.proposeP99)}, errors ${at.errors})`,
  );
}

async function main(): Promise<void> {
  const kinds = values.store === 'both' ? (['sqlite', 'postgres'] as const) : [values.store as 'sqlite' | 'postgres'];
  const results: Array<[string, RateSummary[]]> = [];
  for (const kind of kinds) results.push([kind, await benchStore(kind)]);
  agent.destroy();
  console.log('');
  for (const [kind, summaries] of results)
    verdict(kind, summaries, kind === 'sqlite' ? { rate: 500, p99: 10 } : { rate: 200, p99: 20 });
}

await main();
