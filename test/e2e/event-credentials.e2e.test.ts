// Issue 12.3 for the events written after the request that caused them: every event records the
// credential that acted (id and kind, never a secret). A runner's reports (action.executed, the
// journal's report that replaces outcome_unknown) record its runner token; what the gateway
// decides on its own (outcome_unknown when the runner vanished) records the system actor. Real
// gateway, real `brabo runner`; the Postgres project runs it on Postgres.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markingRoot } from '../chaos/support.ts';
import {
  ADMIN_TOKEN,
  allowCommands,
  createProject,
  events,
  killAllChildren,
  type RunnerProcess,
  type Server,
  serviceTokenOf,
  settled,
  startRunner,
  startServer,
  tempDir,
  waitUntil,
} from './support.ts';

let server: Server;
beforeAll(async () => {
  server = await startServer({ limits: { runnerGraceMs: 1_000, deliveryTimeoutMs: 3_000 } });
});
afterAll(async () => {
  await killAllChildren();
  await server?.close();
});

const KINDS = ['admin', 'agent', 'human', 'runner', 'service', 'executor', 'system'];

async function runnerProject(name: string) {
  const root = tempDir(`${name}-root`);
  const home = tempDir(`${name}-home`);
  markingRoot(root);
  const project = await createProject(server, { executionMode: 'runner', root, name });
  await allowCommands(server, project.id, ['Terminal(sh mark.sh)']);
  const minted = (await server.call('POST', `/api/projects/${project.id}/runner-tokens`)).body as {
    token: string;
    tokenId: string;
  };
  const options = { url: server.wsUrl, token: minted.token, root, projectId: project.id, journal: join(home, 'j') };
  const runner = (fault: string | null): RunnerProcess => startRunner({ ...options, ...(fault ? { fault } : {}) });
  const joined = () =>
    waitUntil(() => server.app.execution?.gateway.runners.isConnected(project.id), `the runner of ${name} to join`);
  const propose = async (marker: string): Promise<string> => {
    const posted = await server.call('POST', `/api/projects/${project.id}/actions`, {
      agentId: 'agent-dev',
      actionType: 'terminal',
      payload: { command: `sh mark.sh ${marker}`, cwd: root, timeoutMs: 20_000 },
    });
    expect(posted.status).toBe(201);
    return posted.body.id as string;
  };
  /** Every event of the project has a stamp of a known kind, and no secret appears anywhere in the log. */
  const log = async () => {
    const all = await events(server, project.id);
    for (const e of all) {
      expect(e.payload.credential, `${e.type} has a credential`).toEqual({
        id: expect.any(String),
        kind: expect.any(String),
      });
      expect(KINDS, `${e.type} kind`).toContain(e.payload.credential.kind);
    }
    const text = JSON.stringify(all);
    for (const secret of [minted.token, ADMIN_TOKEN, await serviceTokenOf(server.base)])
      expect(text).not.toContain(secret);
    return all;
  };
  return { project, minted, runner, joined, propose, log };
}

describe('events written after the request record the credential that acted (issue 12.3)', () => {
  it("a runner's result records its runner token; the proposal its service token; nothing records a secret", async () => {
    const t = await runnerProject('stamp-result');
    const runner = t.runner(null);
    await t.joined();
    const actionId = await t.propose('a');
    expect((await settled(server, actionId)).settlement).toMatchObject({ status: 'executed' });
    const log = (await t.log()).filter((e) => e.actionId === actionId);
    const executed = log.filter((e) => e.type === 'action.executed');
    expect(executed).toHaveLength(1);
    expect(executed[0]!.payload.credential).toEqual({ id: t.minted.tokenId, kind: 'runner' });
    const created = log.find((e) => e.type === 'proposed_action.created');
    expect(created?.payload.credential.kind).toBe('service');
    expect(created?.payload.via).toBe('service:e2e-upstream');
    await runner.stop();
  });

  it("outcome_unknown after the runner vanished records the system actor; the restarted runner's journal report records its runner token", async () => {
    const t = await runnerProject('stamp-journal');
    const doomed = t.runner('kill_after_spawn:1');
    const exited = new Promise((resolve) => doomed.child.once('exit', resolve));
    await t.joined();
    const actionId = await t.propose('b');
    await exited;
    const unknown = await waitUntil(
      async () =>
        (await t.log()).find(
          (e) => e.actionId === actionId && e.type === 'action.failed' && e.payload.code === 'outcome_unknown',
        ),
      'outcome_unknown to be recorded',
      20_000,
    );
    expect(unknown.payload.credential).toEqual({ id: 'system', kind: 'system' });
    const restarted = t.runner(null);
    const resolved = await waitUntil(
      async () => (await t.log()).find((e) => e.actionId === actionId && e.payload?.resolves === 'outcome_unknown'),
      "the journal's report to replace outcome_unknown",
      20_000,
    );
    expect(resolved.payload.code).toBe('runner_interrupted');
    expect(resolved.payload.credential).toEqual({ id: t.minted.tokenId, kind: 'runner' });
    await restarted.stop();
  });
});
