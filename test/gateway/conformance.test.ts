// Phoenix Channels conformance: the official phoenix clients (1.8.16 and 1.7.21), unmodified,
// over the `ws` transport against the gateway. Every scenario runs for both client versions.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Presence18 } from './phoenix-clients.ts';
import {
  ADMIN_TOKEN,
  answer,
  cleanupClients,
  CLIENTS,
  delay,
  phoenixClient,
  startGateway,
  startProxy,
  waitFor,
  type TestGateway,
} from './helpers.ts';

const toBytes = (buffer: ArrayBuffer): number[] => [...new Uint8Array(buffer)];

describe.each(CLIENTS)('conformance with $name', (client) => {
  let gw: TestGateway;
  beforeEach(async () => {
    gw = await startGateway();
  });
  afterEach(async () => {
    await cleanupClients();
    await gw.close();
  });

  const connect = (options: Record<string, unknown> = {}) => {
    const socket = phoenixClient(client, gw.url, options);
    socket.connect();
    return socket;
  };

  it('connects with params.token and joins a channel (reply carries the join response)', async () => {
    const socket = connect();
    const reply = await answer(socket.channel('test:a').join());
    expect(reply).toEqual({ status: 'ok', response: { joined: 'test:a' } });
    expect(gw.wired.gateway.socketCount).toBe(1);
  });

  it('a bad token is refused with HTTP 403 before the upgrade; the client sees the status', async () => {
    const errors: string[] = [];
    const socket = connect({ params: { token: 'wrong' } });
    socket.onError((event: { message?: string }) => errors.push(String(event?.message)));
    await waitFor(() => errors.length >= 2, 'two refused attempts');
    expect(errors[0]).toContain('403');
    expect(gw.wired.gateway.socketCount).toBe(0);
    expect(socket.isConnected()).toBe(false);
  });

  it('a missing token and an unsupported vsn are refused with 403', async () => {
    const missing: string[] = [];
    connect({ params: {} }).onError((event: { message?: string }) => missing.push(String(event?.message)));
    const oldVsn: string[] = [];
    connect({ vsn: '1.0.0' }).onError((event: { message?: string }) => oldVsn.push(String(event?.message)));
    await waitFor(() => missing.length > 0 && oldVsn.length > 0, 'refusals');
    expect(missing[0]).toContain('403');
    expect(oldVsn[0]).toContain('403');
  });

  it('a refused join is an error reply with the reason, and a crashing join says "join crashed"', async () => {
    const socket = connect();
    expect(await answer(socket.channel('test:no', { fail: true }).join())).toEqual({
      status: 'error',
      response: { reason: 'not allowed' },
    });
    expect(await answer(socket.channel('test:boom', { crash: true }).join())).toEqual({
      status: 'error',
      response: { reason: 'join crashed' },
    });
  });

  it('joining a topic no channel routes gets {reason: "unmatched topic"}', async () => {
    const socket = connect();
    expect(await answer(socket.channel('nowhere:1').join())).toEqual({
      status: 'error',
      response: { reason: 'unmatched topic' },
    });
  });

  it('push gets its reply; a push the server never answers times out on the client', async () => {
    const channel = connect().channel('test:a');
    await answer(channel.join());
    expect(await answer(channel.push('echo', { n: 1, s: 'é' }))).toEqual({ status: 'ok', response: { n: 1, s: 'é' } });
    expect(await answer(channel.push('unknown', {}))).toEqual({ status: 'error', response: { reason: 'no unknown' } });
    expect((await answer(channel.push('noreply', {}, 300))).status).toBe('timeout');
  });

  it('pushes made before the (slow) join completes are answered after it, in order', async () => {
    const channel = connect().channel('test:slow', { slowMs: 200 });
    const join = answer(channel.join());
    const first = answer(channel.push('echo', { n: 1 }));
    const second = answer(channel.push('echo', { n: 2 }));
    const order: number[] = [];
    void first.then(() => order.push(1));
    void second.then(() => order.push(2));
    expect((await join).status).toBe('ok');
    expect(await first).toEqual({ status: 'ok', response: { n: 1 } });
    expect(await second).toEqual({ status: 'ok', response: { n: 2 } });
    expect(order).toEqual([1, 2]);
  });

  it('server push reaches the channel', async () => {
    const channel = connect().channel('test:a');
    await answer(channel.join());
    const pushed = new Promise((resolve) => channel.on('pushed', resolve));
    await answer(channel.push('push_me', { hello: 'there' }));
    expect(await pushed).toEqual({ hello: 'there' });
  });

  it('broadcast reaches every socket joined to the topic, and only those', async () => {
    const channels = [connect(), connect(), connect()].map((socket) => socket.channel('test:room'));
    const other = connect().channel('test:other');
    await Promise.all([...channels, other].map((channel) => answer(channel.join())));
    const received: unknown[] = [];
    for (const channel of [...channels, other]) channel.on('shout', (payload) => received.push(payload));
    await answer(channels[0]!.push('broadcast', { all: true }));
    await waitFor(() => received.length >= 3, 'three deliveries');
    await delay(50);
    expect(received).toEqual([{ all: true }, { all: true }, { all: true }]);
    gw.wired.gateway.broadcast('test:other', 'shout', { only: 'other' });
    await waitFor(() => received.length === 4, 'endpoint broadcast');
    expect(received[3]).toEqual({ only: 'other' });
  });

  it('binary push, binary reply, binary server push and binary broadcast', async () => {
    const channel = connect().channel('test:bin');
    await answer(channel.join());
    const bytes = new Uint8Array([0, 1, 2, 250, 255]).buffer;
    const reply = await answer(channel.push('echo', bytes));
    expect(reply.status).toBe('ok');
    expect(toBytes(reply.response as ArrayBuffer)).toEqual([0, 1, 2, 250, 255]);
    const pushed = new Promise<ArrayBuffer>((resolve) => channel.on('pushed', resolve));
    await answer(channel.push('push_me', new Uint8Array([9, 8]).buffer));
    expect(toBytes(await pushed)).toEqual([9, 8]);
    const shouted = new Promise<ArrayBuffer>((resolve) => channel.on('shout', resolve));
    await answer(channel.push('broadcast', new Uint8Array([7]).buffer));
    expect(toBytes(await shouted)).toEqual([7]);
  });

  it('heartbeats keep a quiet socket open for several idle timeouts without a reconnect', async () => {
    const socket = connect({ heartbeatIntervalMs: 200 });
    let opens = 0;
    socket.onOpen(() => opens++);
    const channel = socket.channel('test:hb');
    await answer(channel.join());
    await delay(3_500); // idle timeout is 1.5 s
    expect(opens).toBe(1);
    expect(socket.isConnected()).toBe(true);
    expect(await answer(channel.push('echo', { still: 'here' }))).toEqual({
      status: 'ok',
      response: { still: 'here' },
    });
  });

  it('lost heartbeats: the client reconnects and rejoins; the server closes the dead socket', async () => {
    const proxy = await startProxy(gw.port);
    try {
      const socket = connect({ heartbeatIntervalMs: 200 });
      (socket as unknown as { endPoint: string }).endPoint = `ws://127.0.0.1:${proxy.port}/socket/websocket`;
      socket.disconnect();
      socket.connect();
      let opens = 0;
      socket.onOpen(() => opens++);
      const channel = socket.channel('test:hbloss');
      await answer(channel.join());
      proxy.blackhole();
      await waitFor(
        () => opens >= 2 && gw.recorder.joins.filter((t) => t === 'test:hbloss').length >= 2,
        'reconnect and rejoin',
      );
      await waitFor(
        () => gw.wired.gateway.socketCount === 1,
        'the black-holed socket closed by the idle timeout',
        5_000,
      );
      expect(gw.recorder.terminations).toContainEqual({ topic: 'test:hbloss', reason: 'closed' });
      await waitFor(() => channel.state === 'joined', 'rejoined');
      expect(await answer(channel.push('echo', { back: true }))).toEqual({ status: 'ok', response: { back: true } });
    } finally {
      await proxy.close();
    }
  });

  it('leave terminates the channel on the server; joining again works', async () => {
    const socket = connect();
    const first = socket.channel('test:lr');
    await answer(first.join());
    expect((await answer(first.leave())).status).toBe('ok');
    await waitFor(() => gw.recorder.terminations.some((t) => t.reason === 'leave'), 'terminate(leave)');
    const second = socket.channel('test:lr');
    expect((await answer(second.join())).status).toBe('ok');
    expect(await answer(second.push('echo', { again: 1 }))).toEqual({ status: 'ok', response: { again: 1 } });
  });

  it('a crashing handler sends phx_error; the client rejoins and the channel works again', async () => {
    const channel = connect().channel('test:crash');
    await answer(channel.join());
    const errored = new Promise((resolve) => channel.onError(resolve));
    void channel.push('crash', {});
    await errored;
    await waitFor(() => gw.recorder.joins.filter((t) => t === 'test:crash').length === 2, 'rejoin');
    await waitFor(() => channel.state === 'joined', 'joined again');
    expect(gw.recorder.terminations).toContainEqual({ topic: 'test:crash', reason: 'crash' });
    expect(await answer(channel.push('echo', { ok: 1 }))).toEqual({ status: 'ok', response: { ok: 1 } });
    expect(gw.logs.some((line) => line.code === 'channel_crash')).toBe(true);
  });

  it('a server kick (phx_close) closes the channel and the client does not rejoin', async () => {
    const channel = connect().channel('test:kick');
    await answer(channel.join());
    const closedOnClient = new Promise((resolve) => channel.onClose(resolve));
    void channel.push('kick', {});
    await closedOnClient;
    await delay(400); // rejoin interval is 50 ms
    expect(gw.recorder.joins.filter((t) => t === 'test:kick')).toHaveLength(1);
    expect(channel.state).toBe('closed');
  });

  it('draining closes sockets with 1001; clients reconnect to the next gateway and rejoin', async () => {
    const socket = connect();
    const codes: number[] = [];
    socket.onClose((event: { code: number }) => codes.push(event.code));
    const channel = socket.channel('test:drain');
    await answer(channel.join());
    await gw.wired.gateway.close();
    gw.wired = gw.attach(); // the next server on the same address
    await waitFor(() => gw.recorder.joins.filter((t) => t === 'test:drain').length === 2, 'rejoin on the new gateway');
    expect(codes[0]).toBe(1001);
    await waitFor(() => channel.state === 'joined', 'joined');
    expect(await answer(channel.push('echo', { n: 2 }))).toEqual({ status: 'ok', response: { n: 2 } });
  });

  it('presence: a watcher sees runners join and leave (presence_state / presence_diff)', async () => {
    const { token } = gw.tokens.issue('p1');
    const watcher = connect().channel('runner:p1');
    const presence = new Presence18(watcher);
    await answer(watcher.join());
    const runnerSocket = connect({ params: { token } });
    const runner = runnerSocket.channel('runner:p1', { protocolVersion: 1, hostname: 'laptop' });
    const joined = new Promise<string>((resolve) => presence.onJoin((key: string) => resolve(key)));
    await answer(runner.join());
    const key = await joined;
    expect(presence.list((_k: string, p: { metas: Array<{ hostname: string }> }) => p.metas[0]!.hostname)).toEqual([
      'laptop',
    ]);
    const left = new Promise<string>((resolve) => presence.onLeave((k: string) => resolve(k)));
    runnerSocket.disconnect();
    expect(await left).toBe(key);
    expect(presence.list()).toEqual([]);
  });

  it('at most N channels per socket: the next join is refused with "too many channels joined"', async () => {
    await gw.close();
    gw = await startGateway({ maxChannelsPerSocket: 3 });
    const socket = connect();
    for (const topic of ['test:1', 'test:2', 'test:3'])
      expect((await answer(socket.channel(topic).join())).status).toBe('ok');
    expect(await answer(socket.channel('test:4').join(500))).toEqual({
      status: 'error',
      response: { reason: 'too many channels joined' },
    });
  });
});

// The authToken option (Sec-WebSocket-Protocol) exists from phoenix 1.8 on.
describe('authToken subprotocol with phoenix 1.8.16', () => {
  let gw: TestGateway;
  beforeEach(async () => {
    gw = await startGateway();
  });
  afterEach(async () => {
    await cleanupClients();
    await gw.close();
  });
  const connect18 = (options: Record<string, unknown>) => {
    const socket = phoenixClient(CLIENTS[0], gw.url, options);
    socket.connect();
    return socket;
  };

  it('authToken subprotocol: accepted with a good token (answers "phoenix"), 403 with a bad one', async () => {
    const socket = connect18({ params: {}, authToken: ADMIN_TOKEN });
    expect((await answer(socket.channel('test:auth').join())).status).toBe('ok');
    expect(socket.conn.protocol).toBe('phoenix');
    const errors: string[] = [];
    connect18({ params: {}, authToken: 'wrong' }).onError((event: { message?: string }) =>
      errors.push(String(event?.message)),
    );
    await waitFor(() => errors.length > 0, 'refusal');
    expect(errors[0]).toContain('403');
  });
});
