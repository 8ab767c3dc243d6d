// Chaos: a gateway on Postgres under a 60-second load of auto-approved commands run by a real
// runner, while every one of its Postgres backends (active, idle in transaction, idle pooled, the
// cluster's LISTEN session) is terminated (pg_terminate_backend) every 0.3-1.5 s. The gateway never crashes (no unhandled 'error'); HTTP answers are 201 or a named 503
// (store_busy / store_unavailable) with Retry-After, never a 500; at the end every action created
// has a true outcome (markers), nothing ran twice, no event is duplicated.
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  allowCommands,
  createProject,
  killAllChildren,
  serviceTokenOf,
  startRunner,
  startServer,
  tempDir,
  waitUntil,
  type Server,
} from '../e2e/support.ts';
import { POSTGRES_TEST_URL, quiet, TestSchemas } from '../store/contract-postgres.ts';
import { markingRoot, type Tracked, verdict } from './support.ts';

const LOAD_MS = Number(process.env.BRABO_CHAOS_LOAD_MS ?? 60_000);
const schemas = new TestSchemas();
const admin = quiet(new pg.Pool({ connectionString: POSTGRES_TEST_URL, max: 1 }));
let server: Server | null = null;
afterAll(async () => {
  await killAllChildren();
  await server?.close();
  await schemas.dropAll();
  await admin.end();
});

describe('chaos: Postgres backends terminated under load', () => {
  it(
    `${LOAD_MS / 1000} s of proposals while every backend is terminated again and again`,
    async () => {
      const schema = await schemas.create();
      const appName = `brabo_chaos_${process.pid}`;
      server = await startServer({
        databaseUrl: `${schema.url}&application_name=${appName}`,
        limits: { runnerGraceMs: 5_000, deliveryTimeoutMs: 10_000 },
      });
      const root = tempDir('chaos-pg-root');
      const home = tempDir('chaos-pg-home');
      const { runs } = markingRoot(root);
      const project = await createProject(server, { executionMode: 'runner', root, name: 'chaos-pg' });
      await allowCommands(server, project.id, ['Terminal(sh mark.sh)']);
      const token = (await server.call('POST', `/api/projects/${project.id}/runner-tokens`)).body.token as string;
      const runner = startRunner({
        url: server.wsUrl,
        token,
        root,
        projectId: project.id,
        journal: join(home, 'runner.journal'),
        extra: ['--max-concurrent', '16'],
      });
      await waitUntil(() => server!.app.execution?.gateway.runners.isConnected(project.id), 'the runner to join');

      let stop = false;
      let terminated = 0;
      // Every backend of the gateway, whatever it is doing: statements running, transactions open,
      // idle pooled sessions (store, cluster) and the cluster's LISTEN session. Counted by kind.
      const killedByKind: Record<string, number> = {};
      const killer = (async () => {
        while (!stop) {
          await new Promise((r) => setTimeout(r, 300 + Math.random() * 1_200));
          const { rows } = await admin.query<{ kind: string }>(
            // The targets are chosen first (MATERIALIZED): no other backend is ever handed to pg_terminate_backend.
            `WITH gateway AS MATERIALIZED (
               SELECT pid, CASE WHEN state = 'idle' AND query ILIKE 'LISTEN%' THEN 'listen' ELSE coalesce(state, 'starting') END AS kind
               FROM pg_stat_activity WHERE application_name = $1
             )
             SELECT kind FROM gateway WHERE pg_terminate_backend(pid)`,
            [appName],
          );
          for (const { kind } of rows) killedByKind[kind] = (killedByKind[kind] ?? 0) + 1;
          terminated += rows.length;
        }
      })();

      const tracked: Tracked[] = [];
      const statuses: Record<string, number> = {};
      const unnamed: unknown[] = [];
      const inFlight = new Set<Promise<void>>();
      const started = Date.now();
      for (let i = 0; Date.now() - started < LOAD_MS; i++) {
        const marker = `m${i}`;
        const request = (async () => {
          const response = await fetch(`${server!.base}/api/projects/${project.id}/actions`, {
            method: 'POST',
            // The upstream service proposes for its agents (the admin token only provisions, issue 12).
            headers: {
              authorization: `Bearer ${await serviceTokenOf(server!.base)}`,
              'content-type': 'application/json',
            },
            body: JSON.stringify({
              agentId: 'agent-dev',
              actionType: 'terminal',
              payload: { command: `sh mark.sh ${marker}`, cwd: root, timeoutMs: 20_000 },
            }),
          });
          const body = (await response.json()) as { id?: string; error?: string };
          statuses[response.status] = (statuses[response.status] ?? 0) + 1;
          if (response.status === 201 && body.id) tracked.push({ actionId: body.id, marker });
          else if (
            response.status !== 503 ||
            !['store_busy', 'store_unavailable'].includes(String(body.error)) ||
            !response.headers.get('retry-after')
          )
            unnamed.push({ status: response.status, body });
        })();
        inFlight.add(request);
        void request.finally(() => inFlight.delete(request));
        if (inFlight.size >= 16) await Promise.race(inFlight);
        await new Promise((r) => setTimeout(r, 150));
      }
      await Promise.all(inFlight);
      stop = true;
      await killer;

      expect(unnamed).toEqual([]);
      expect(terminated).toBeGreaterThan(5);
      for (const kind of ['active', 'idle', 'listen']) expect(killedByKind[kind] ?? 0, kind).toBeGreaterThan(0);
      // The cluster listens again (reconnect with backoff) once the killing stops.
      await waitUntil(
        async () =>
          (
            await admin.query(
              "SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND state = 'idle' AND query ILIKE 'LISTEN%'",
              [appName],
            )
          ).rowCount === 1,
        'the LISTEN session to come back',
      );
      expect(tracked.length).toBeGreaterThan(LOAD_MS / 1000);
      const counts = await verdict(server, project.id, tracked, runs, 120_000);
      console.info(
        `chaos postgres-terminate: ${tracked.length} actions, ${terminated} backends terminated`,
        killedByKind,
        'HTTP',
        statuses,
        counts,
      );
      await runner.stop();
    },
    LOAD_MS + 240_000,
  );
});
