// Clients of the live output, shared by the single-node and cluster tests: an SSE reader of
// `GET /api/actions/:id/output` and a phoenix client joined on a topic, both with a service token.
import WebSocket from 'ws';
import { expect } from 'vitest';
import { serviceTokenOf } from '../e2e/support.ts';
import { type PhoenixSocket, Socket18 } from '../gateway/phoenix-clients.ts';

export interface SseEvent {
  id: string | null;
  event: string;
  data: any;
}

/** Reads an SSE response into events as they arrive; `done` resolves when the server ends it. */
export function readSse(base: string, actionId: string, headers: Record<string, string> = {}, query = '') {
  const events: SseEvent[] = [];
  const controller = new AbortController();
  const done = (async () => {
    const response = await fetch(`${base}/api/actions/${actionId}/output${query}`, {
      headers: { authorization: `Bearer ${await serviceTokenOf(base)}`, ...headers },
      signal: controller.signal,
    });
    if (response.status !== 200) throw new Error(`SSE answered ${response.status}: ${await response.text()}`);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const decoder = new TextDecoder();
    let text = '';
    for await (const part of response.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(part, { stream: true });
      let cut: number;
      while ((cut = text.indexOf('\n\n')) >= 0) {
        const block = text.slice(0, cut);
        text = text.slice(cut + 2);
        const fields = Object.fromEntries(
          block
            .split('\n')
            .filter((l) => !l.startsWith(':'))
            .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
        );
        if (fields['event'])
          events.push({ id: fields['id'] ?? null, event: fields['event'], data: JSON.parse(fields['data'] ?? 'null') });
      }
    }
    return events;
  })();
  return { events, done, abort: () => controller.abort() };
}

/** A phoenix client joined on `topic` (kept in `sockets` for the caller to disconnect), collecting `events`. */
export async function joinTopic(
  base: string,
  wsUrl: string,
  topic: string,
  events: string[],
  sockets: PhoenixSocket[],
): Promise<Array<{ event: string; payload: any }>> {
  const socket = new Socket18(wsUrl, {
    transport: WebSocket,
    params: { token: await serviceTokenOf(base) },
    timeout: 10_000,
    reconnectAfterMs: () => 100,
  });
  sockets.push(socket);
  socket.connect();
  const channel = socket.channel(topic, {});
  const received: Array<{ event: string; payload: any }> = [];
  for (const event of events) channel.on(event, (payload) => received.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    channel
      .join()
      .receive('ok', () => resolve())
      .receive('error', (e) => reject(new Error(JSON.stringify(e))))
      .receive('timeout', () => reject(new Error('join timed out')));
  });
  return received;
}
