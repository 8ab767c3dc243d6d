// Proposals per second and latency through HTTP on the embedded store, against a no-op route
// (GET /healthz) of the same server in the same run (the floor). The server is a real
// `brabo serve` child process; this process is the load generator (keep-alive node:http).
// Target: p99 < 10 ms at 500 proposals/s. Run: npm run bench:api [-- --seconds 5 --rate 500]
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '5' }, rate: { type: 'string', default: '500' }, concurrency: { type: 'string', default: '16' } },
});
const SECONDS = Number(values.seconds);
const RATE = Number(values.rate);
const CONCURRENCY = Number(values.concurrency);
const TOKEN = randomBytes(24).toString('base64url');
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

interface Target {
  host: string;
  port: number;
}

function send(target: Target, method: string, path: string, body?: unknown): Promise<{ status: number; body: string }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolvePromise, reject) => {
    const req = request(
      {
        agent,
        host: target.host,
        port: target.port,
        method,
        path,
        headers: { authorization: `Bearer ${TOKEN}`, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
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

function startServer(dir: string): Promise<{ child: ChildProcess; target: Target }> {
  const bin = resolve(import.meta.dirname, '../bin/brabo');
  const env: NodeJS.ProcessEnv = { ...process.env, BRABO_ADMIN_TOKEN: TOKEN, LOG_LEVEL: 'warn', PROJECT_WORKSPACES_ROOT: join(dir, 'ws') };
  const child = spawn(bin, ['serve', '--port', '0', '--data-dir', join(dir, 'data')], { env, stdio: ['ignore', 'pipe', 'inherit'] });
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

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'brabo-bench-api-'));
  const { child, target } = await startServer(dir);
  try {
    const project = JSON.parse((await send(target, 'POST', '/api/projects', { name: 'Bench', executionMode: 'container', ownerId: 'olivia' })).body);
    await send(target, 'PUT', `/api/projects/${project.id}/members/agent`, { role: 'developer', kind: 'agent' });
    await send(target, 'PUT', `/api/projects/${project.id}/permissions`, { userId: 'olivia', allow: ['Terminal(ls)', 'Terminal(pnpm test:*)'], deny: ['Terminal(curl:*)'] });
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
    const results = [
      await openLoop(`floor GET /healthz @${RATE}/s`, floor, RATE, SECONDS),
      await openLoop(`propose @${RATE}/s`, propose, RATE, SECONDS),
      await closedLoop(`floor GET /healthz max (c=${CONCURRENCY})`, floor, SECONDS),
      await closedLoop(`propose max (c=${CONCURRENCY})`, propose, SECONDS),
    ];
    const rows = results.map(row);
    console.table(rows);
    const [floorOpen, proposeOpen, floorMax, proposeMax] = rows;
    console.log(
      `propose/floor: p99 at ${RATE}/s ${(Number(proposeOpen?.['p99 ms']) / Number(floorOpen?.['p99 ms'])).toFixed(1)}x, ` +
        `max throughput ${((proposeMax?.['req/s'] ?? 0) / (floorMax?.['req/s'] ?? 1)).toFixed(2)}x of the floor`,
    );
    const p99 = Number(proposeOpen?.['p99 ms']);
    console.log(`target p99 < 10 ms at 500 proposals/s: ${RATE >= 500 && p99 < 10 ? 'MET' : 'NOT MET'} (p99 ${p99.toFixed(2)} ms at ${RATE}/s)`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    agent.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
