// Gateway benchmark: the Phoenix Channels gateway against a bare `ws` echo server (the floor),
// measured in the same run, each server in its own process, clients in another, loopback only.
//   node bench/gateway.bench.ts            (npm run bench:gateway)
// Env: BENCH_IDLE_SOCKETS (default 10000), BENCH_SECONDS (throughput seconds, default 5).
// Needs `ulimit -n` above the idle socket count in each process (server and clients).
import { execSync, fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import pino from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import { createRunnerGateway, ok, tokenAuthenticator } from '../gateway/index.ts';

const TOKEN = 'bench-admin-token';
const IDLE_SOCKETS = Number(process.env['BENCH_IDLE_SOCKETS'] ?? 10_000);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 5);
const HOLD_SECONDS = 10;
const HEARTBEAT_MS = 10_000; // Phoenix's default is 30 s; 10 s makes the CPU figure visible
const THROUGHPUT_CONNECTIONS = 50;
const WINDOW = 16; // requests in flight per connection
const PHASE_TIMEOUT_MS = 120_000;
const self = fileURLToPath(import.meta.url);

type Mode = 'floor' | 'gateway';
interface Stats {
  rss: number;
  heap: number;
  cpuMs: number;
  sockets: number;
}
interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  completed: number;
  errors: number;
}

// ---------------------------------------------------------------- servers (child processes)

function gc(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

function serverStats(sockets: () => number): Stats {
  gc();
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  return {
    rss: memory.rss,
    heap: memory.heapUsed + memory.external + memory.arrayBuffers,
    cpuMs: (cpu.user + cpu.system) / 1000,
    sockets: sockets(),
  };
}

async function runServer(mode: Mode): Promise<void> {
  const http = createServer((_request, response) => response.writeHead(404).end());
  let count: () => number;
  if (mode === 'floor') {
    const wss = new WebSocketServer({ server: http, path: '/socket/websocket', perMessageDeflate: false });
    wss.on('connection', (ws) => ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary })));
    count = () => wss.clients.size;
  } else {
    const { gateway } = createRunnerGateway({
      server: http,
      logger: pino({ level: 'warn' }),
      authenticate: tokenAuthenticator({ adminToken: TOKEN }),
      extraChannels: [{ topic: 'bench:*', module: { join: () => ok(), handleIn: (_event, payload) => ok(payload) } }],
    });
    count = () => gateway.socketCount;
  }
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  process.send!({ port: (http.address() as AddressInfo).port });
  process.on('message', () => process.send!(serverStats(count)));
}

// ---------------------------------------------------------------- clients (child process)

const percentile = (sorted: Float64Array, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

function openSocket(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** The topic each socket joined (its index at open time, not its position in the array). */
const topics = new WeakMap<WebSocket, string>();

/** Opens `count` sockets (at most 200 handshakes at once), joining one topic each on the gateway. */
async function openMany(url: string, count: number, mode: Mode): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const ws = await openSocket(url);
      topics.set(ws, mode === 'gateway' ? `bench:${index % 100}` : 'echo');
      if (mode === 'gateway') {
        await new Promise<void>((resolve) => {
          ws.once('message', () => resolve());
          ws.send(JSON.stringify(['1', '1', `bench:${index % 100}`, 'phx_join', {}]));
        });
      }
      sockets.push(ws);
    }
  };
  await Promise.all(Array.from({ length: 200 }, worker));
  return sockets;
}

function summarize(latencies: number[], ms: number, errors: number): LoadResult {
  const sorted = Float64Array.from(latencies).sort();
  return {
    rps: latencies.length / (ms / 1000),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    completed: latencies.length,
    errors,
  };
}

/** Keeps `window` pushes in flight on each socket for `ms`; round trips measured per push. */
async function load(sockets: WebSocket[], window: number, ms: number, mode: Mode): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + ms;
  const started = performance.now();
  await Promise.all(
    sockets.map(
      (ws) =>
        new Promise<void>((resolve) => {
          let ref = 0;
          let inFlight = 0;
          const sentAt = new Map<string, number>();
          const topic = topics.get(ws)!;
          const send = () => {
            const key = String(++ref);
            sentAt.set(key, performance.now());
            inFlight++;
            ws.send(JSON.stringify(['1', key, topic, 'ping', { n: ref, body: 'x'.repeat(64) }]));
          };
          const onMessage = (data: WebSocket.RawData) => {
            const frame = JSON.parse(data.toString()) as [string, string, string, string, { status?: string }];
            const sent = sentAt.get(frame[1]);
            if (sent === undefined) return;
            sentAt.delete(frame[1]);
            inFlight--;
            const now = performance.now();
            latencies.push(now - sent);
            if (mode === 'gateway' && frame[4].status !== 'ok') errors++;
            if (now < deadline) send();
            else if (inFlight === 0) {
              ws.off('message', onMessage);
              resolve();
            }
          };
          ws.on('message', onMessage);
          for (let i = 0; i < window; i++) send();
        }),
    ),
  );
  return summarize(latencies, performance.now() - started, errors);
}

async function runClient(): Promise<void> {
  process.on('message', async (task: { kind: string; url: string; mode: Mode }) => {
    const { url, mode } = task;
    if (task.kind === 'throughput') {
      const sockets = await openMany(url, THROUGHPUT_CONNECTIONS, mode);
      await load(sockets, WINDOW, 1_000, mode); // warm-up
      const result = await load(sockets, WINDOW, SECONDS * 1000, mode);
      for (const ws of sockets) ws.terminate();
      process.send!(result);
    } else if (task.kind === 'idle-open') {
      const started = performance.now();
      const sockets = await openMany(url, IDLE_SOCKETS, mode);
      const openSeconds = (performance.now() - started) / 1000;
      // Heartbeats spread over the interval, as independent clients would send them.
      let ref = 0;
      const timers = sockets.map((ws, index) =>
        setTimeout(
          () => {
            const beat = () =>
              ws.readyState === WebSocket.OPEN &&
              ws.send(JSON.stringify([null, `h${++ref}`, 'phoenix', 'heartbeat', {}]));
            beat();
            timers[index] = setInterval(beat, HEARTBEAT_MS);
          },
          (index / sockets.length) * HEARTBEAT_MS,
        ),
      );
      (globalThis as { held?: unknown }).held = { sockets, timers };
      process.send!({ opened: sockets.length, openSeconds });
    } else if (task.kind === 'idle-probe') {
      const { sockets } = (globalThis as unknown as { held: { sockets: WebSocket[] } }).held;
      const probes = sockets
        .filter((_ws, index) => index % Math.max(1, Math.floor(sockets.length / 20)) === 0)
        .slice(0, 20);
      const latencies: number[] = [];
      const deadline = performance.now() + HOLD_SECONDS * 1000;
      await Promise.all(
        probes.map(async (ws) => {
          const topic = topics.get(ws)!;
          let ref = 0;
          while (performance.now() < deadline) {
            const key = `p${++ref}`;
            const sent = performance.now();
            await new Promise<void>((resolve) => {
              const onMessage = (data: WebSocket.RawData) => {
                if ((JSON.parse(data.toString()) as unknown[])[1] !== key) return;
                ws.off('message', onMessage);
                latencies.push(performance.now() - sent);
                resolve();
              };
              ws.on('message', onMessage);
              ws.send(JSON.stringify(['1', key, topic, 'ping', { probe: true }]));
            });
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        }),
      );
      process.send!(summarize(latencies, HOLD_SECONDS * 1000, 0));
    } else if (task.kind === 'joins') {
      const sockets = await openMany(url, 50, 'floor');
      const started = performance.now();
      await Promise.all(
        sockets.map(
          (ws, s) =>
            new Promise<void>((resolve) => {
              let pending = 100;
              ws.on('message', () => --pending === 0 && resolve());
              for (let t = 0; t < 100; t++)
                ws.send(JSON.stringify([String(t + 1), String(t + 1), `bench:${s}-${t}`, 'phx_join', {}]));
            }),
        ),
      );
      const seconds = (performance.now() - started) / 1000;
      for (const ws of sockets) ws.terminate();
      process.send!({ joinsPerSecond: 5000 / seconds });
    } else if (task.kind === 'close') {
      const held = (globalThis as { held?: { sockets: WebSocket[]; timers: NodeJS.Timeout[] } }).held;
      for (const timer of held?.timers ?? []) clearInterval(timer);
      for (const ws of held?.sockets ?? []) ws.terminate();
      delete (globalThis as { held?: unknown }).held;
      process.send!({ closed: true });
    }
  });
}

// ---------------------------------------------------------------- orchestration

function ask<T>(child: ChildProcess, message?: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`child did not answer within ${PHASE_TIMEOUT_MS} ms`)),
      PHASE_TIMEOUT_MS,
    );
    child.once('message', (answer) => {
      clearTimeout(timer);
      resolve(answer as T);
    });
    if (message !== undefined) child.send(message as object);
  });
}

interface ModeFigures {
  load: LoadResult;
  openSeconds: number;
  held: number;
  memPerSocketRss: number;
  memPerSocketHeap: number;
  cpuPercent: number;
  probe: LoadResult;
  joinsPerSecond?: number;
}

async function measure(mode: Mode): Promise<ModeFigures> {
  const server = fork(self, ['server', mode], { execArgv: [...process.execArgv] });
  const client = fork(self, ['client'], { execArgv: [...process.execArgv] });
  try {
    const { port } = await ask<{ port: number }>(server);
    const url = `ws://127.0.0.1:${port}/socket/websocket?vsn=2.0.0&token=${TOKEN}`;
    const loadResult = await ask<LoadResult>(client, { kind: 'throughput', url, mode });
    const joins =
      mode === 'gateway' ? await ask<{ joinsPerSecond: number }>(client, { kind: 'joins', url, mode }) : undefined;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = await ask<Stats>(server, 'stats');
    const opened = await ask<{ opened: number; openSeconds: number }>(client, { kind: 'idle-open', url, mode });
    const afterOpen = await ask<Stats>(server, 'stats');
    const probe = await ask<LoadResult>(client, { kind: 'idle-probe', url, mode }); // HOLD_SECONDS with heartbeats
    const afterHold = await ask<Stats>(server, 'stats');
    await ask(client, { kind: 'close' });
    return {
      load: loadResult,
      openSeconds: opened.openSeconds,
      held: afterOpen.sockets,
      memPerSocketRss: (afterOpen.rss - before.rss) / opened.opened,
      memPerSocketHeap: (afterOpen.heap - before.heap) / opened.opened,
      cpuPercent: ((afterHold.cpuMs - afterOpen.cpuMs) / (HOLD_SECONDS * 1000)) * 100,
      probe,
      ...(joins ? { joinsPerSecond: joins.joinsPerSecond } : {}),
    };
  } finally {
    server.kill();
    client.kill();
  }
}

async function main(): Promise<void> {
  const limit = Number(execSync('ulimit -n', { shell: '/bin/sh' }).toString().trim());
  console.log(
    `ulimit -n = ${limit}; idle sockets = ${IDLE_SOCKETS} (each of server and client holds one fd per socket)`,
  );
  if (Number.isFinite(limit) && limit < IDLE_SOCKETS + 500) {
    console.log(
      `ulimit -n is too low for ${IDLE_SOCKETS} sockets: raise it (ulimit -n 20000) or set BENCH_IDLE_SOCKETS`,
    );
    process.exitCode = 1;
    return;
  }
  console.log('measuring the floor (bare ws echo server)...');
  const floor = await measure('floor');
  console.log('measuring the gateway...');
  const gateway = await measure('gateway');

  const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KiB`;
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  const throughputRatio = gateway.load.rps / floor.load.rps;
  const memRatio = gateway.memPerSocketRss / floor.memPerSocketRss;
  const rows: Array<[string, string, string, string, string]> = [
    [
      'push->reply round trips/s',
      floor.load.rps.toFixed(0),
      gateway.load.rps.toFixed(0),
      throughputRatio.toFixed(2),
      throughputRatio >= 0.7 ? 'PASS (>= 0.70)' : 'FAIL (>= 0.70)',
    ],
    [
      '  p50 latency (loaded)',
      ms(floor.load.p50),
      ms(gateway.load.p50),
      (gateway.load.p50 / floor.load.p50).toFixed(2),
      '',
    ],
    [
      '  p99 latency (loaded)',
      ms(floor.load.p99),
      ms(gateway.load.p99),
      (gateway.load.p99 / floor.load.p99).toFixed(2),
      '',
    ],
    ['idle sockets held', String(floor.held), String(gateway.held), '', gateway.held >= IDLE_SOCKETS ? 'PASS' : 'FAIL'],
    [
      '  connect(+join) time',
      `${floor.openSeconds.toFixed(2)} s`,
      `${gateway.openSeconds.toFixed(2)} s`,
      (gateway.openSeconds / floor.openSeconds).toFixed(2),
      '',
    ],
    [
      '  memory/socket (RSS)',
      kb(floor.memPerSocketRss),
      kb(gateway.memPerSocketRss),
      memRatio.toFixed(2),
      memRatio <= 2 ? 'PASS (<= 2.00)' : 'FAIL (<= 2.00)',
    ],
    [
      '  memory/socket (JS heap+ext)',
      kb(floor.memPerSocketHeap),
      kb(gateway.memPerSocketHeap),
      (gateway.memPerSocketHeap / floor.memPerSocketHeap).toFixed(2),
      '',
    ],
    [
      `  server CPU, heartbeats/${HEARTBEAT_MS / 1000}s`,
      `${floor.cpuPercent.toFixed(1)} %`,
      `${gateway.cpuPercent.toFixed(1)} %`,
      '',
      '',
    ],
    [
      '  p99 reply while held',
      ms(floor.probe.p99),
      ms(gateway.probe.p99),
      '',
      gateway.probe.p99 < 100 ? 'PASS (< 100 ms)' : 'FAIL (< 100 ms)',
    ],
    ['joins/s (50 sockets x 100 topics)', '-', (gateway.joinsPerSecond ?? 0).toFixed(0), '', ''],
  ];
  const widths = [36, 14, 14, 7, 16];
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' ');
  console.log(line(['metric', 'floor (ws)', 'gateway', 'ratio', 'target']));
  for (const row of rows) console.log(line(row));
  if (gateway.load.errors > 0) console.log(`gateway error replies during load: ${gateway.load.errors}`);
  const failed = rows.some((row) => row[4].startsWith('FAIL'));
  console.log(failed ? 'RESULT: FAIL' : 'RESULT: PASS');
  process.exitCode = failed ? 1 : 0;
}

const role = process.argv[2];
if (role === 'server') await runServer(process.argv[3] as Mode);
else if (role === 'client') await runClient();
else {
  const watchdog = setTimeout(() => {
    console.error('benchmark exceeded 10 minutes; aborting');
    process.exit(2);
  }, 600_000);
  watchdog.unref();
  await main();
}
