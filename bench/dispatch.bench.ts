// Dispatch benchmark: "approve -> command start on the runner" over loopback, against the floor
// measured in the same run: a bare Phoenix push round trip through the same gateway.
//   node bench/dispatch.bench.ts            (npm run bench:dispatch)
// Env: BENCH_SAMPLES (default 300). The gateway runs in this process (real createApp, SQLite,
// port 0); the runner is a real `./bin/brabo runner` child. The command is `date +%s%N`, so its
// own start time (wall clock, same machine) is compared with the wall clock just before the
// approve request was sent. Target: p99 < 20 ms.
// Sandbox (issue 9 B.4): a second project's runner runs with `--sandbox all`, so its approved
// commands start inside bwrap; the two are sampled alternately and what bwrap adds to "approve ->
// command start" is reported at p50 as the median of 3 rounds with their spread, next to the
// same difference measured at the runner alone (spawn -> command start, bench/sandbox-start.ts).
// Target: bwrap adds <= 15 ms at p50.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
// @ts-ignore -- untyped JS package
import { Socket } from 'phoenix';
import WebSocket from 'ws';
import { createApp } from '../src/app.ts';
import { type AppConfig, GATEWAY_CHECKOUT, loadExecutionConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { measureSandboxStart } from './sandbox-start.ts';

const SAMPLES = Number(process.env['BENCH_SAMPLES'] ?? 300);
const WARMUP = 20;
const TOKEN = 'bench-admin-token-0123456789abcdef';
const BRABO = resolve(import.meta.dirname, '../bin/brabo');

const wallMs = (): number => performance.timeOrigin + performance.now();
const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
const summary = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: quantile(s, 0.5), p99: quantile(s, 0.99), max: s[s.length - 1] as number };
};
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
/** p50(sandboxed) - p50(plain) in each of 3 consecutive thirds of the samples. */
const roundsOfDelta = (plain: number[], sandboxed: number[]): number[] => {
  const third = Math.floor(plain.length / 3);
  return [0, 1, 2].map(
    (r) =>
      summary(sandboxed.slice(r * third, (r + 1) * third)).p50 - summary(plain.slice(r * third, (r + 1) * third)).p50,
  );
};

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'brabo-bench-dispatch-'));
  const machine = join(dir, 'machine');
  mkdirSync(machine);
  const config: AppConfig = {
    host: '127.0.0.1',
    port: 0,
    dataDir: join(dir, 'data'),
    adminToken: TOKEN,
    projectWorkspacesRoot: join(dir, 'ws'),
    projectsBase: join(dir, 'pb'),
    gatewayCheckout: GATEWAY_CHECKOUT,
    logLevel: 'silent',
    execution: loadExecutionConfig({}, {}),
  };
  const app = await createApp(config, { logger: createLogger('silent') });
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  await app.start();
  const address = app.http.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const base = `http://127.0.0.1:${port}`;
  // The admin token provisions; day-to-day calls go with a service token (issue 12).
  let serviceToken: string | null = null;
  const call = async (method: string, path: string, body?: unknown): Promise<any> => {
    const provisioning =
      (method === 'POST' && path === '/api/projects') || /\/members\/|\/runner-tokens|^\/api\/credentials/.test(path);
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${provisioning || serviceToken === null ? TOKEN : serviceToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return response.json();
  };
  serviceToken = (await call('POST', '/api/credentials', { kind: 'service', name: 'bench' })).token;
  const project = await call('POST', '/api/projects', {
    name: 'Bench',
    executionMode: 'runner',
    root: machine,
    ownerId: 'olivia',
  });
  await call('PUT', `/api/projects/${project.id}/members/agent`, { role: 'developer', kind: 'agent' });
  const { token } = await call('POST', `/api/projects/${project.id}/runner-tokens`);
  const runner = spawn(
    BRABO,
    [
      'runner',
      '--url',
      `ws://127.0.0.1:${port}/socket`,
      '--root',
      machine,
      '--project',
      project.id,
      '--journal',
      join(dir, 'journal.jsonl'),
    ],
    {
      env: { ...process.env, BRABO_RUNNER_TOKEN: token, NO_COLOR: '1' },
      stdio: 'ignore',
    },
  );
  // The same, with every approved command sandboxed (--sandbox all) in its own project folder.
  const sandboxedMachine = join(dir, 'sandboxed-machine');
  mkdirSync(sandboxedMachine);
  const sandboxedProject = await call('POST', '/api/projects', {
    name: 'Bench sandboxed',
    executionMode: 'runner',
    root: sandboxedMachine,
    ownerId: 'olivia',
  });
  await call('PUT', `/api/projects/${sandboxedProject.id}/members/agent`, { role: 'developer', kind: 'agent' });
  const sandboxedToken = (await call('POST', `/api/projects/${sandboxedProject.id}/runner-tokens`)).token;
  const sandboxedRunner = spawn(
    BRABO,
    [
      'runner',
      '--url',
      `ws://127.0.0.1:${port}/socket`,
      '--root',
      sandboxedMachine,
      '--project',
      sandboxedProject.id,
      '--journal',
      join(dir, 'journal-sandboxed.jsonl'),
      '--sandbox',
      'all',
    ],
    { env: { ...process.env, BRABO_RUNNER_TOKEN: sandboxedToken, NO_COLOR: '1' }, stdio: 'ignore' },
  );
  try {
    while (!app.execution?.gateway.runners.isConnected(project.id)) await new Promise((r) => setTimeout(r, 20));
    while (!app.execution?.gateway.runners.isConnected(sandboxedProject.id))
      await new Promise((r) => setTimeout(r, 20));
    const sandboxState = app.execution.gateway.runners
      .connectedRunners()
      .find((r) => r.projectId === sandboxedProject.id)?.sandbox;
    if (sandboxState?.available !== true)
      throw new Error(`the --sandbox all runner has no sandbox: ${JSON.stringify(sandboxState)} (install bubblewrap)`);

    // Floor: a bare push round trip through the same gateway (phoenix client, service watcher).
    const socket = new Socket(`ws://127.0.0.1:${port}/socket`, {
      transport: WebSocket,
      params: { token: serviceToken },
    });
    socket.connect();
    const channel = socket.channel(`runner:${project.id}`, {});
    await new Promise<void>((r) => channel.join().receive('ok', () => r()));
    const floor: number[] = [];
    for (let i = 0; i < SAMPLES + WARMUP; i++) {
      const t0 = performance.now();
      await new Promise<void>((r) =>
        channel
          .push('ack', { dispatchId: 'floor', attempt: 1 })
          .receive('error', () => r())
          .receive('ok', () => r()),
      );
      if (i >= WARMUP) floor.push(performance.now() - t0);
    }

    // approve -> command start on the runner; approve -> result recorded (settlement visible).
    const toStart: number[] = [];
    const toSettled: number[] = [];
    // Breakdown: when the gateway pushed `execute` (inside the claim's transaction, before its
    // commit), and when the runner acknowledged it (the runner acks once the shell is spawned).
    const toPush: number[] = [];
    const pushToAck: number[] = [];
    const hub = app.execution!.gateway.runners;
    const execute = hub.execute.bind(hub);
    let pushedAt = 0;
    let ackedAt = 0;
    hub.execute = async (projectId, message) => {
      pushedAt = wallMs();
      const outcome = await execute(projectId, message);
      ackedAt = wallMs();
      return outcome;
    };
    /** Proposes `date +%s%N`, approves it, returns approve -> command start and approve -> settled. */
    const approveAndRun = async (
      projectId: string,
      cwd: string,
    ): Promise<{ start: number; settled: number; push: number; ack: number }> => {
      const proposed = await call('POST', `/api/projects/${projectId}/actions`, {
        agentId: 'agent',
        actionType: 'terminal',
        payload: { command: 'date +%s%N', cwd },
      });
      if (proposed.status !== 'pending') throw new Error(`expected pending, got ${JSON.stringify(proposed)}`);
      const t0 = wallMs();
      const p0 = performance.now();
      await call('POST', `/api/actions/${proposed.id}/approve`, { userId: 'olivia' });
      const view = await call('GET', `/api/actions/${proposed.id}/settlement?wait=10`);
      const settledMs = performance.now() - p0;
      const startedNs = BigInt(String(view.settlement?.result?.stdout ?? '0').trim() || '0');
      if (view.settlement?.status !== 'executed') throw new Error(`not executed: ${JSON.stringify(view)}`);
      return {
        start: Number(startedNs / 1000n) / 1000 - t0,
        settled: settledMs,
        push: pushedAt - t0,
        ack: ackedAt - pushedAt,
      };
    };
    const sandboxedToStart: number[] = [];
    const plainPaired: number[] = [];
    for (let i = 0; i < SAMPLES + WARMUP; i++) {
      const sandboxFirst = i % 2 === 1;
      const sandboxedRun = sandboxFirst ? await approveAndRun(sandboxedProject.id, sandboxedMachine) : null;
      const plain = await approveAndRun(project.id, machine);
      const sandboxed = sandboxedRun ?? (await approveAndRun(sandboxedProject.id, sandboxedMachine));
      if (i >= WARMUP) {
        toStart.push(plain.start);
        toSettled.push(plain.settled);
        toPush.push(plain.push);
        pushToAck.push(plain.ack);
        plainPaired.push(plain.start);
        sandboxedToStart.push(sandboxed.start);
      }
    }
    socket.disconnect();
    const atRunner = await measureSandboxStart(Math.max(60, Math.floor(SAMPLES / 2)));

    const f = summary(floor);
    const s = summary(toStart);
    const e = summary(toSettled);
    const p = summary(toPush);
    const a = summary(pushToAck);
    const fmt = (n: number) => n.toFixed(2).padStart(8);
    process.stdout.write(
      `dispatch benchmark (${SAMPLES} samples, loopback, real brabo runner, SQLite synchronous=FULL)\n` +
        `                                   p50 ms   p99 ms   max ms\n` +
        `floor: phoenix push round trip  ${fmt(f.p50)} ${fmt(f.p99)} ${fmt(f.max)}\n` +
        `approve -> command start        ${fmt(s.p50)} ${fmt(s.p99)} ${fmt(s.max)}   (x${(s.p50 / f.p50).toFixed(1)} floor at p50)\n` +
        `  of which approve -> execute pushed (HTTP, decision, claim)  ${fmt(p.p50)} ${fmt(p.p99)} ${fmt(p.max)}\n` +
        `  of which execute pushed -> runner ack (sent once spawned)   ${fmt(a.p50)} ${fmt(a.p99)} ${fmt(a.max)}\n` +
        `approve -> settled (long-poll)  ${fmt(e.p50)} ${fmt(e.p99)} ${fmt(e.max)}\n` +
        `target p99 approve -> command start < 20 ms: ${s.p99 < 20 ? 'met' : 'NOT met'}\n`,
    );
    const sb = summary(sandboxedToStart);
    const e2eRounds = roundsOfDelta(plainPaired, sandboxedToStart);
    const runnerRounds = roundsOfDelta(atRunner.plain, atRunner.sandboxed);
    const spread = (xs: number[]) => `${Math.min(...xs).toFixed(2)}..${Math.max(...xs).toFixed(2)}`;
    const added = median(runnerRounds);
    process.stdout.write(
      `\nsandbox (bwrap, --sandbox all runner; same run, samples alternated)\n` +
        `approve -> command start, sandboxed ${fmt(sb.p50)} ${fmt(sb.p99)} ${fmt(sb.max)}\n` +
        `bwrap adds, approve -> command start, p50: median of 3 rounds ${median(e2eRounds).toFixed(2)} ms (spread ${spread(e2eRounds)})\n` +
        `bwrap adds, runner spawn -> command start, p50: median of 3 rounds ${added.toFixed(2)} ms (spread ${spread(runnerRounds)}; ` +
        `plain p50 ${summary(atRunner.plain).p50.toFixed(2)} ms, sandboxed p50 ${summary(atRunner.sandboxed).p50.toFixed(2)} ms, ${atRunner.plain.length} each)\n` +
        `target: bwrap adds <= 15 ms at p50: ${added <= 15 ? 'met' : 'NOT met'}\n`,
    );
  } finally {
    runner.kill('SIGTERM');
    sandboxedRunner.kill('SIGTERM');
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
