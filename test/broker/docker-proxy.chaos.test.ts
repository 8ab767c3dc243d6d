// Issue 10 chaos scenario "a proxy outage in front of dockerd": a real gateway whose broker reaches
// the engine only through a unix-socket proxy, which is cut (connections reset) and taken away
// (outages) at random while auto-approved commands run in the container. Each command first
// creates its own marker file, so what happened is known independently of what was recorded:
// - `executed` only when the command ran (its marker exists and its output is complete);
// - never a "not run" failure when the marker exists;
// - exactly one settling event per action, and nothing left running in the container.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addInfraAgent,
  allowCommands,
  createProject,
  events,
  type Server,
  settled,
  startServer,
  waitUntil,
} from '../e2e/support.ts';
import { cleanUp, docker, DockerSocketProxy, TEST_IMAGE, TEST_LABEL } from './helpers.ts';

/** Failure codes that tell the agent the command was not run. */
const NOT_RUN = new Set([
  'broker_unavailable',
  'broker_error',
  'container_not_running',
  'cwd_outside_workspace',
  'image_missing',
  'resource_limit_invalid',
  'workspace_missing',
  'workspace_not_writable',
  'workspace_unsafe',
  'no_broker',
  'invalid_payload',
]);
/** Outcomes that say the command may have run. */
const MAY_HAVE_RUN = new Set(['exec_interrupted', 'outcome_unknown', 'command_timeout']);

const runId = `chaos-${randomUUID().slice(0, 8)}`;
const COMMANDS = 36;
let socketDir: string;
let proxy: DockerSocketProxy;
let server: Server;
const previousDockerHost = process.env.DOCKER_HOST;

beforeAll(async () => {
  socketDir = await mkdtemp(join(tmpdir(), 'brabo-chaos-sock-'));
  proxy = new DockerSocketProxy(socketDir);
  await proxy.open();
  // The gateway's broker resolves DOCKER_HOST when it is built: every engine call goes through the proxy.
  process.env.DOCKER_HOST = `unix://${proxy.path}`;
  server = await startServer({
    docker: { image: TEST_IMAGE, labels: { [TEST_LABEL]: runId } },
    limits: {
      resources: { defaults: { cpus: 1, memoryMb: 128, pids: 256 }, maxima: { cpus: 1, memoryMb: 256, pids: 512 } },
    },
  });
});

afterAll(async () => {
  if (previousDockerHost === undefined) delete process.env.DOCKER_HOST;
  else process.env.DOCKER_HOST = previousDockerHost;
  await server?.close();
  await proxy?.close();
  await cleanUp(runId, [socketDir]);
});

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('chaos: a proxy outage in front of dockerd', () => {
  it(`${COMMANDS} commands under random cuts and outages: outcomes match the markers, one event each, nothing left running`, async () => {
    const project = await createProject(server, { executionMode: 'container', name: 'Chaos' });
    await allowCommands(server, project.id, [
      'Terminal(mkdir:*)',
      'Terminal(touch:*)',
      'Terminal(sleep:*)',
      'Terminal(echo:*)',
    ]);
    await addInfraAgent(server, project.id);
    const accepted = await server.call('POST', `/api/projects/${project.id}/handoffs/infra/accept`, { userId: 'max' });
    expect((await settled(server, accepted.body.id, 60_000)).settlement).toMatchObject({ status: 'executed' });
    const marker = (i: number) => join(project.root, 'markers', `m-${i}`);

    const propose = async (i: number, seconds: string) => {
      const command = `mkdir -p markers && touch markers/m-${i} && sleep ${seconds} && echo done-${i}`;
      const posted = await server.call('POST', `/api/projects/${project.id}/actions`, {
        agentId: 'agent-dev',
        actionType: 'terminal',
        payload: { command },
      });
      expect(posted.body.status).toBe('auto_approved');
      return posted.body.id as string;
    };

    // One cut that certainly lands mid-exec: once command 0 has created its marker.
    const first = propose(0, '4');
    await waitUntil(() => existsSync(marker(0)), 'command 0 to start', 30_000);
    proxy.dropConnections();

    let chaos = true;
    const cuts = { resets: 1, outages: 0 };
    const chaosLoop = (async () => {
      while (chaos) {
        await delay(800 + Math.random() * 800);
        if (!chaos) break;
        if (Math.random() < 0.6) {
          proxy.dropConnections();
          cuts.resets += 1;
        } else {
          await proxy.close();
          cuts.outages += 1;
          await delay(150 + Math.random() * 450);
          await proxy.open();
        }
      }
    })();
    const ids: Array<Promise<string>> = [first];
    for (let i = 1; i < COMMANDS; i++) {
      ids.push(propose(i, (0.1 + Math.random() * 1.4).toFixed(2)));
      await delay(60 + Math.random() * 120);
    }
    const actionIds = await Promise.all(ids);
    await delay(1500);
    chaos = false;
    await chaosLoop;

    const tally: Record<string, number> = {};
    for (const [i, actionId] of actionIds.entries()) {
      await settled(server, actionId, 90_000);
      const action = (await server.call('GET', `/api/actions/${actionId}`)).body;
      const outcome = action.dispatch?.outcome ?? {};
      const ran = existsSync(marker(i));
      const label = `${outcome.status === 'executed' ? 'executed' : String(outcome.code)}${ran ? '+marker' : ''}`;
      tally[label] = (tally[label] ?? 0) + 1;
      if (outcome.status === 'executed') {
        // Executed means it ran to the end.
        expect(ran, `action ${i} executed without its marker`).toBe(true);
        expect(outcome).toMatchObject({ exitCode: 0, stdout: `done-${i}\n` });
      } else {
        expect(outcome.status, `action ${i}`).toBe('failed');
        if (ran)
          expect(
            NOT_RUN.has(outcome.code),
            `action ${i} ran but was recorded as ${outcome.code}: ${outcome.message}`,
          ).toBe(false);
        expect(
          NOT_RUN.has(outcome.code) || MAY_HAVE_RUN.has(outcome.code),
          `unexpected code ${outcome.code}: ${outcome.message}`,
        ).toBe(true);
      }
    }
    console.info(`chaos: ${cuts.resets} connection resets, ${cuts.outages} outages; outcomes ${JSON.stringify(tally)}`);
    // The certain mid-exec cut: command 0 ran and cannot have been recorded as complete.
    expect(existsSync(marker(0))).toBe(true);
    expect(
      Object.keys(tally).some((label) => label.startsWith('exec_interrupted') || label.startsWith('outcome_unknown')),
    ).toBe(true);

    // One settling event per action, never two.
    const log = await events(server, project.id);
    for (const actionId of actionIds) {
      const settling = log.filter(
        (e) => e.actionId === actionId && (e.type === 'action.executed' || e.type === 'action.failed'),
      );
      expect(settling, `events of ${actionId}`).toHaveLength(1);
    }
    // Nothing a cut command started is still running (the supervisor kills on a closed input).
    await waitUntil(
      async () => {
        const ps = await server.call('POST', `/api/projects/${project.id}/actions`, {
          agentId: 'agent-dev',
          actionType: 'terminal',
          payload: { command: 'echo probe' },
        });
        const view = await settled(server, ps.body.id, 30_000);
        return view.settlement.status === 'executed';
      },
      'the container to answer again',
      30_000,
    );
    const rows = await docker.listContainers({ filters: { label: [`${TEST_LABEL}=${runId}`] } });
    const top = await docker
      .getContainer(rows[0]!.Id)
      .top({ ps_args: '-o pid,args' })
      .catch(() => ({ Processes: [] as string[][] }));
    const leftover = top.Processes.map((row: string[]) => row.join(' ')).filter(
      (line: string) => /sleep [0-9.]+$/.test(line) && !line.endsWith('sleep 3600'),
    );
    expect(leftover).toEqual([]);
  }, 240_000);
});
