// The gateway's internal pub/sub topics (runner delivery, its replies, live output relay, presence
// replication, wake-ups, forwarding) are not channels: a socket cannot join them, whatever its
// token, so no client can read an `execute` meant for a runner or forge an ack, a chunk or a
// wake-up. And a watcher joined on `runner:<projectId>` never sees the runner's `execute`.
import { afterEach, describe, expect, it } from 'vitest';
import { RUNNER_PROTOCOL_VERSION, type Execute } from '../../runner-protocol/index.ts';
import { answer, cleanupClients, CLIENTS, delay, phoenixClient, startGateway, type TestGateway } from './helpers.ts';

const client = CLIENTS[0];
let gw: TestGateway;
afterEach(async () => {
  await cleanupClients();
  await gw.close();
});

const INTERNAL = [
  'runner_delivery:p1',
  'runner_delivery:',
  'runner_delivery:*',
  'RUNNER_DELIVERY:p1',
  'runner_deliveryp1',
  'runner_replies:abc',
  'runner_replies:',
  'live_output',
  'live_output:a1',
  'phx_tracker',
  'cluster:settled',
  'node:some-node',
  'agent_of_project:p1:a1',
  'agent_of_project:p1:*',
  'AGENT_OF_PROJECT:p1:a1',
];

describe('internal topics', () => {
  it(`no token joins an internal topic (${INTERNAL.length} variants, admin and runner tokens)`, async () => {
    gw = await startGateway();
    const { token } = gw.tokens.issue('p1');
    for (const params of [{}, { params: { token } }]) {
      const socket = phoenixClient(client, gw.url, params);
      socket.connect();
      for (const topic of INTERNAL) {
        const joined = await answer(socket.channel(topic, { protocolVersion: RUNNER_PROTOCOL_VERSION }).join());
        expect({ topic, status: joined.status }).toEqual({ topic, status: 'error' });
      }
    }
  });

  it('a watcher on runner:<projectId> does not receive the execute pushed to that runner', async () => {
    gw = await startGateway({ sink: { onResult: async () => ({ ok: true }) } });
    const { token } = gw.tokens.issue('p1');
    const runnerSocket = phoenixClient(client, gw.url, { params: { token } });
    runnerSocket.connect();
    const runner = runnerSocket.channel('runner:p1', { protocolVersion: RUNNER_PROTOCOL_VERSION });
    const toRunner: unknown[] = [];
    runner.on('execute', (payload) => {
      toRunner.push(payload);
      void runner.push('ack', { dispatchId: (payload as Execute).dispatchId, attempt: 1 });
    });
    expect((await answer(runner.join())).status).toBe('ok');
    const watcherSocket = phoenixClient(client, gw.url); // the admin token: a watcher
    watcherSocket.connect();
    const watcher = watcherSocket.channel('runner:p1', { protocolVersion: RUNNER_PROTOCOL_VERSION });
    const toWatcher: unknown[] = [];
    watcher.on('execute', (payload) => toWatcher.push(payload));
    expect((await answer(watcher.join())).status).toBe('ok');
    const execute: Execute = { dispatchId: 'd1', attempt: 1, action: { type: 'terminal', command: 'true', cwd: '/x' } };
    expect(await gw.wired.runners.execute('p1', execute)).toEqual({ ok: true });
    await delay(100);
    expect(toRunner).toEqual([execute]);
    expect(toWatcher).toEqual([]);
  });
});
