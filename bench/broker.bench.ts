// Broker benchmark (npm run bench:broker). One run, one engine, one container, interleaved:
//   exec round trip through the broker   vs  the `docker exec` CLI        (target: ratio <= 1.0)
//   start / stop / remove via the broker vs  bare dockerode calls         (target: ratio <= 1.2)
//   (the bare start does what broker.start must: protected mounts and a write-probe exec)
// Figures are medians; ratios are broker / floor measured in the same run.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { pino } from 'pino';
import { resolveConfig } from '../broker/config.ts';
import { createOptions } from '../broker/container-spec.ts';
import { createDockerBroker } from '../broker/index.ts';
import { parseOwner, prepareProtectedPaths } from '../broker/protected-paths.ts';
import type { BrokerResult, ContainerSpec } from '../broker/port.ts';

const run = promisify(execFile);
const IMAGE = process.env.BENCH_IMAGE ?? 'brabo-test-busybox:latest';
const EXEC_ROUNDS = Number(process.env.BENCH_EXEC_ROUNDS ?? 40);
const LIFECYCLE_ROUNDS = Number(process.env.BENCH_LIFECYCLE_ROUNDS ?? 12);
const runId = randomBytes(4).toString('hex');
const labels = { 'brabo.bench': runId };
const docker = new Docker({ socketPath: '/var/run/docker.sock' });
const brokerConfig = {
  socketPath: '/var/run/docker.sock',
  defaultImage: IMAGE,
  labels,
  namePrefix: `brabo-bench-${runId}-`,
  stopTimeoutSec: 10,
  logger: pino({ level: 'silent' }),
};
const broker = createDockerBroker(brokerConfig);
const bareConfig = resolveConfig({ ...brokerConfig, namePrefix: `brabo-bare-${runId}-` });

function ok<T>(result: BrokerResult<T>): T {
  if (!result.ok) throw new Error(`${result.failure.code}: ${result.failure.message}`);
  return result.value;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function report(name: string, brokerMs: number[], floorMs: number[], floorName: string, target: number): boolean {
  const ratio = median(brokerMs) / median(floorMs);
  const pass = ratio <= target;
  console.log(
    `${name.padEnd(18)} broker ${median(brokerMs).toFixed(1).padStart(7)} ms  ${floorName.padEnd(16)} ${median(floorMs).toFixed(1).padStart(7)} ms  ratio ${ratio.toFixed(2)}  (target <= ${target}) ${pass ? 'ok' : 'MISSED'}`,
  );
  return pass;
}

/** A plain exec that writes and removes a file in /work, awaited to its end (the floor of the write probe). */
async function probe(container: Docker.Container): Promise<void> {
  const exec = await container.exec({
    Cmd: ['sh', '-c', 'echo probe > /work/.bench-probe && rm -f /work/.bench-probe'],
    AttachStdout: true,
    AttachStderr: true,
  });
  const stream = await exec.start({ hijack: true, stdin: false });
  stream.resume();
  await new Promise((resolve) => stream.once('end', resolve));
}

async function main(): Promise<void> {
  const workspace = await mkdtemp(join(tmpdir(), 'brabo-bench-ws-'));
  await chmod(workspace, 0o777);
  const spec = (projectId: string): ContainerSpec => ({
    projectId,
    workspaceHostPath: workspace,
    resources: { cpus: 1, memoryMb: 128, pids: 128 },
  });
  let allPass = true;
  try {
    // ---- exec round trip on one container --------------------------------------------------
    const container = ok(await broker.start(spec('exec')));
    const id = container.containerId ?? '';
    const viaBroker: number[] = [];
    const viaCli: number[] = [];
    for (let i = 0; i < 3; i++) {
      ok(await broker.exec('exec', { command: 'true', cwd: '/work' }));
      await run('docker', ['exec', '-w', '/work', id, 'sh', '-c', 'true']);
    }
    for (let i = 0; i < EXEC_ROUNDS; i++) {
      viaBroker.push(await timed(async () => ok(await broker.exec('exec', { command: 'echo hi', cwd: '/work' }))));
      viaCli.push(await timed(() => run('docker', ['exec', '-w', '/work', id, 'sh', '-c', 'echo hi'])));
    }
    allPass = report('exec round trip', viaBroker, viaCli, 'docker exec CLI', 1.0) && allPass;

    // ---- lifecycle: broker vs bare dockerode with the same create options ------------------
    const phases = { start: [[], []], stop: [[], []], remove: [[], []] } as Record<string, [number[], number[]]>;
    for (let i = 0; i < LIFECYCLE_ROUNDS; i++) {
      const projectId = `life-${i}`;
      // The same work as broker.start: the protected read-only mounts and the write probe exec.
      const mounts = await prepareProtectedPaths(workspace, parseOwner(bareConfig.user));
      if (!Array.isArray(mounts)) throw new Error(mounts.message);
      const bareOptions = createOptions(bareConfig, spec(`bare-${projectId}`), mounts);
      let bare: Docker.Container | undefined;
      phases.start?.[0].push(await timed(async () => ok(await broker.start(spec(projectId)))));
      phases.start?.[1].push(
        await timed(async () => {
          bare = await docker.createContainer(bareOptions);
          await bare.start();
          await probe(bare);
        }),
      );
      phases.stop?.[0].push(await timed(async () => ok(await broker.stop(projectId))));
      phases.stop?.[1].push(await timed(() => bare!.stop({ t: 10 })));
      phases.remove?.[0].push(await timed(async () => ok(await broker.remove(projectId))));
      phases.remove?.[1].push(await timed(() => bare!.remove({ force: true, v: true })));
    }
    for (const [phase, [brokerMs, bareMs]] of Object.entries(phases)) {
      allPass = report(phase, brokerMs, bareMs, 'bare dockerode', 1.2) && allPass;
    }
  } finally {
    const rows = await docker.listContainers({ all: true, filters: { label: [`brabo.bench=${runId}`] } });
    await Promise.all(
      rows.map((row) =>
        docker
          .getContainer(row.Id)
          .remove({ force: true })
          .catch(() => undefined),
      ),
    );
    await rm(workspace, { recursive: true, force: true });
  }
  console.log(allPass ? 'broker bench: all targets met' : 'broker bench: some targets MISSED (noisy machine? rerun)');
}

await main();
