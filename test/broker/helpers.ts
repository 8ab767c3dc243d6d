// Shared set-up for the broker suites: a broker scoped to this run by label, throwaway
// workspaces writable by the container user, clean-up by label, and a unix-socket proxy that
// stands in for "the daemon went away" without touching the shared dockerd.
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { pino } from 'pino';
import { createDockerBroker, type DockerBroker, type DockerBrokerConfig } from '../../broker/index.ts';
import type { ContainerSpec } from '../../broker/port.ts';

process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';

export const TEST_IMAGE = 'brabo-test-busybox:latest';
export const DOCKER_SOCKET = '/var/run/docker.sock';
export const TEST_LABEL = 'brabo.test';

export const docker = new Docker({ socketPath: DOCKER_SOCKET });

export function newRunId(): string {
  return randomBytes(4).toString('hex');
}

/** A broker whose containers carry `brabo.test=<runId>` and a run-specific name prefix. */
export function testBroker(runId: string, overrides: Partial<DockerBrokerConfig> = {}): DockerBroker {
  return createDockerBroker({
    socketPath: DOCKER_SOCKET,
    defaultImage: TEST_IMAGE,
    labels: { [TEST_LABEL]: runId },
    namePrefix: `brabo-t${runId}-`,
    stopTimeoutSec: 2,
    logger: pino({ level: process.env.BROKER_TEST_LOG ?? 'silent' }),
    ...overrides,
  });
}

/** A host folder the non-root container user (1000:1000) can write. */
export async function makeWorkspace(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'brabo-broker-ws-'));
  await chmod(dir, 0o777);
  return dir;
}

export function spec(
  projectId: string,
  workspaceHostPath: string,
  overrides: Partial<ContainerSpec> = {},
): ContainerSpec {
  return { projectId, workspaceHostPath, resources: { cpus: 0.5, memoryMb: 32, pids: 64 }, ...overrides };
}

export async function containersOfRun(runId: string): Promise<Docker.ContainerInfo[]> {
  return docker.listContainers({ all: true, filters: { label: [`${TEST_LABEL}=${runId}`] } });
}

export async function cleanUp(runId: string, folders: string[]): Promise<void> {
  const rows = await containersOfRun(runId);
  await Promise.all(
    rows.map((row) =>
      docker
        .getContainer(row.Id)
        .remove({ force: true, v: true })
        .catch(() => undefined),
    ),
  );
  await Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true })));
}

/** Unwraps a BrokerResult in a test, failing with the operator sentence when it is not ok. */
export function value<T>(
  result: { ok: true; value: T } | { ok: false; failure: { code: string; message: string } },
): T {
  if (!result.ok) throw new Error(`expected ok, got ${result.failure.code}: ${result.failure.message}`);
  return result.value;
}

/** Forwards a temporary unix socket to the real engine; close it to play "daemon gone". */
export class DockerSocketProxy {
  readonly path: string;
  #server: Server | undefined;
  #sockets = new Set<Socket>();

  constructor(dir: string) {
    this.path = join(dir, 'docker-proxy.sock');
  }

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = createConnection(DOCKER_SOCKET);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.path, () => resolve());
    });
    this.#server = server;
  }

  /** Drops every live connection (an engine restart, seen from the client) but keeps listening. */
  dropConnections(): void {
    for (const socket of this.#sockets) socket.destroy();
  }

  async close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    this.dropConnections();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
