// Wire-level behaviour checked frame by frame with a raw `ws` client: what a phoenix client relies
// on but cannot easily provoke (duplicate joins, stale join_refs, malformed and oversized frames).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGateway } from '../../gateway/index.ts';
import {
  ADMIN_TOKEN,
  answer,
  cleanupClients,
  CLIENTS,
  closed,
  frames,
  opened,
  phoenixClient,
  rawClient,
  startGateway,
  upgradeStatus,
  waitFor,
  delay,
  type TestGateway,
} from './helpers.ts';

describe('raw Phoenix v2 protocol', () => {
  let gw: TestGateway;
  let wsUrl: string;
  beforeEach(async () => {
    gw = await startGateway();
    wsUrl = `${gw.url}/websocket?vsn=2.0.0&token=${ADMIN_TOKEN}`;
  });
  afterEach(async () => {
    await cleanupClients();
    await gw.close();
  });

  const connectRaw = async () => {
    const ws = rawClient(wsUrl);
    const received = frames(ws);
    await opened(ws);
    return { ws, received, send: (frame: unknown[]) => ws.send(JSON.stringify(frame)) };
  };

  it('heartbeat on topic "phoenix" is answered with an ok reply echoing the ref and a null join_ref', async () => {
    const { received, send } = await connectRaw();
    send([null, '7', 'phoenix', 'heartbeat', {}]);
    await waitFor(() => received.length === 1, 'heartbeat reply');
    expect(received[0]).toEqual([null, '7', 'phoenix', 'phx_reply', { status: 'ok', response: {} }]);
  });

  it('join/reply echo ref and join_ref; a push to a topic not joined gets "unmatched topic" with a null join_ref', async () => {
    const { received, send } = await connectRaw();
    send(['1', '1', 'test:x', 'phx_join', {}]);
    send(['9', '2', 'test:y', 'echo', {}]);
    await waitFor(() => received.length === 2, 'two replies');
    expect(received).toContainEqual([
      '1',
      '1',
      'test:x',
      'phx_reply',
      { status: 'ok', response: { joined: 'test:x' } },
    ]);
    expect(received).toContainEqual([
      null,
      '2',
      'test:y',
      'phx_reply',
      { status: 'error', response: { reason: 'unmatched topic' } },
    ]);
  });

  it('a duplicate join closes the old channel (phx_close with the old join_ref) and serves the new one; stale join_refs are dropped', async () => {
    const { received, send } = await connectRaw();
    send(['1', '1', 'test:dup', 'phx_join', {}]);
    await waitFor(() => received.length === 1, 'first join');
    send(['3', '3', 'test:dup', 'phx_join', {}]);
    await waitFor(() => received.length === 3, 'close + second join');
    expect(received[1]).toEqual(['1', '1', 'test:dup', 'phx_close', {}]);
    expect(received[2]).toEqual([
      '3',
      '3',
      'test:dup',
      'phx_reply',
      { status: 'ok', response: { joined: 'test:dup' } },
    ]);
    expect(gw.recorder.terminations).toEqual([{ topic: 'test:dup', reason: 'duplicate_join' }]);
    send(['1', '4', 'test:dup', 'echo', { stale: true }]);
    send(['3', '5', 'test:dup', 'echo', { fresh: true }]);
    await waitFor(() => received.length === 4, 'reply to the fresh push');
    await delay(50);
    expect(received.slice(3)).toEqual([
      ['3', '5', 'test:dup', 'phx_reply', { status: 'ok', response: { fresh: true } }],
    ]);
  });

  it('a leave is answered ok and confirmed with phx_close; pushes queued behind it get "unmatched topic"', async () => {
    const { received, send } = await connectRaw();
    send(['1', '1', 'test:l', 'phx_join', {}]);
    send(['1', '2', 'test:l', 'phx_leave', {}]);
    send(['1', '3', 'test:l', 'echo', {}]);
    await waitFor(() => received.length === 4, 'join, leave reply, close, unmatched');
    expect(received[1]).toEqual(['1', '2', 'test:l', 'phx_reply', { status: 'ok', response: {} }]);
    expect(received[2]).toEqual(['1', '1', 'test:l', 'phx_close', {}]);
    expect(received[3]).toEqual([
      null,
      '3',
      'test:l',
      'phx_reply',
      { status: 'error', response: { reason: 'unmatched topic' } },
    ]);
  });

  it('malformed frames close only their own socket (1007) and are logged; other sockets keep working', async () => {
    const bystander = phoenixClient(CLIENTS[0], gw.url);
    bystander.connect();
    const channel = bystander.channel('test:bystander');
    await answer(channel.join());
    const badFrames: Array<string | Buffer> = [
      'not json',
      '{"an":"object"}',
      '[1,2,3]',
      '[null,"1",42,"phx_join",{}]',
      '["1",2,"t","e",{}]',
      Buffer.from([1, 0, 0, 0, 0]), // a reply kind from a client
      Buffer.from([0, 200, 0, 0, 0, 1]), // field sizes beyond the frame
    ];
    for (const bad of badFrames) {
      const ws = rawClient(wsUrl);
      await opened(ws);
      const closing = closed(ws);
      ws.send(bad);
      expect((await closing).code).toBe(1007);
    }
    expect(gw.logs.filter((line) => line.code === 'malformed_frame')).toHaveLength(badFrames.length);
    expect(await answer(channel.push('echo', { fine: true }))).toEqual({ status: 'ok', response: { fine: true } });
  });

  it('a frame over the size limit closes that socket with 1009; other sockets keep working', async () => {
    const bystander = await connectRaw();
    const big = await connectRaw();
    const closing = closed(big.ws);
    big.send(['1', '1', 'test:big', 'phx_join', { blob: 'x'.repeat(100 * 1024) }]);
    expect((await closing).code).toBe(1009);
    bystander.send([null, '1', 'phoenix', 'heartbeat', {}]);
    await waitFor(() => bystander.received.length === 1, 'bystander heartbeat reply');
  });

  it('a socket that sends nothing for the idle timeout is closed with 1001', async () => {
    const { ws } = await connectRaw();
    const started = Date.now();
    const { code } = await closed(ws);
    expect(code).toBe(1001);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    expect(gw.logs.some((line) => line.code === 'idle_timeout')).toBe(true);
  });

  it('upgrade refusals happen before the upgrade: vsn missing/unknown 403, bad token 403, unknown path 404', async () => {
    const base = `${gw.url}/websocket`;
    expect(await upgradeStatus(`${base}?token=${ADMIN_TOKEN}`)).toBe(403);
    expect(await upgradeStatus(`${base}?vsn=3.0.0&token=${ADMIN_TOKEN}`)).toBe(403);
    expect(await upgradeStatus(`${base}?vsn=2.0.0&token=nope`)).toBe(403);
    expect(await upgradeStatus(`${base}?vsn=2.0.0`)).toBe(403);
    expect(await upgradeStatus(`${gw.url}/elsewhere?vsn=2.0.0&token=${ADMIN_TOKEN}`)).toBe(404);
    expect(await upgradeStatus(`${base}?vsn=2.0.0&token=${ADMIN_TOKEN}`)).toBe('open');
    expect(gw.wired.gateway.socketCount).toBeLessThanOrEqual(1);
  });

  it('origin check: a listed origin is accepted, any other refused with 403', async () => {
    await gw.close();
    gw = await startGateway({ checkOrigin: ['https://console.example'] });
    const url = `${gw.url}/websocket?vsn=2.0.0&token=${ADMIN_TOKEN}`;
    expect(await upgradeStatus(url, { origin: 'https://evil.example' })).toBe(403);
    expect(await upgradeStatus(url)).toBe(403);
    expect(await upgradeStatus(url, { origin: 'https://console.example' })).toBe('open');
  });

  it('disconnect(predicate) closes exactly the matching live sockets', async () => {
    const { token, tokenId } = gw.tokens.issue('p9');
    const runner = rawClient(`${gw.url}/websocket?vsn=2.0.0&token=${token}`);
    await opened(runner);
    const admin = await connectRaw();
    const closing = closed(runner);
    expect(
      gw.wired.gateway.disconnect((identity) => identity.kind === 'runner' && identity.tokenId === tokenId, {
        reason: 'token revoked',
      }),
    ).toBe(1);
    expect(await closing).toEqual({ code: 1008, reason: 'token revoked' });
    admin.send([null, '1', 'phoenix', 'heartbeat', {}]);
    await waitFor(() => admin.received.length === 1, 'admin still served');
  });

  it('an authenticator that throws (token store down) refuses with 503, and the server stays up', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const logs: Array<{ code?: string }> = [];
    let calls = 0;
    const gateway = createGateway({
      server,
      channels: [],
      logger: pino({}, { write: (line: string) => void logs.push(JSON.parse(line) as { code?: string }) }),
      authenticate: {
        authenticate: () => {
          calls++;
          if (calls === 1) throw new Error('sync failure');
          return Promise.reject(new Error('connection refused'));
        },
      },
    });
    try {
      const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/socket/websocket?vsn=2.0.0&token=x`;
      expect(await upgradeStatus(url)).toBe(503);
      expect(await upgradeStatus(url)).toBe(503);
      expect(logs.filter((line) => line.code === 'authenticator_failed')).toHaveLength(2);
    } finally {
      await gateway.close();
      server.close();
    }
  });
});
