// Live updates over the gateway's own Phoenix socket (the phoenix client, authenticated with the
// 1.8 `authToken` subprotocol so the token never appears in a URL). One channel per project:
// `project:<projectId>` with `action.changed`, `action.output`, `runner.changed`,
// `container.changed`, `project.changed`. Pages subscribe to events; the socket reconnects and
// rejoins by itself, and pages reload their lists when it comes back (nothing missed).
import { type Channel, Socket } from 'phoenix';

export type LiveHandler = (event: string, payload: any, projectId: string) => void;
export const LIVE_EVENTS = [
  'action.changed',
  'action.output',
  'runner.changed',
  'container.changed',
  'project.changed',
] as const;

export class Live {
  readonly #socket: Socket;
  readonly #channels = new Map<string, Channel>();
  readonly #handlers = new Set<LiveHandler>();
  readonly #reconnect = new Set<() => void>();
  #wasOpen = false;
  connected = false;
  onStatus: (connected: boolean) => void = () => {};

  constructor(token: string) {
    this.#socket = new Socket('/socket', {
      authToken: token,
      reconnectAfterMs: (tries: number) => [200, 500, 1000, 2000][tries - 1] ?? 5000,
    });
    this.#socket.onOpen(() => {
      this.connected = true;
      this.onStatus(true);
      if (this.#wasOpen) for (const again of this.#reconnect) again();
      this.#wasOpen = true;
    });
    this.#socket.onClose(() => {
      this.connected = false;
      this.onStatus(false);
    });
    this.#socket.connect();
  }

  /** Joins `project:<id>` for each id not joined yet (and leaves the others). */
  watch(projectIds: string[]): void {
    const wanted = new Set(projectIds);
    for (const [id, channel] of this.#channels) {
      if (!wanted.has(id)) {
        channel.leave();
        this.#channels.delete(id);
      }
    }
    for (const id of wanted) {
      if (this.#channels.has(id)) continue;
      const channel = this.#socket.channel(`project:${id}`, {});
      for (const event of LIVE_EVENTS) channel.on(event, (payload) => this.#emit(event, payload, id));
      channel.join().receive('error', (reason) => console.warn(`live updates refused for project ${id}`, reason));
      this.#channels.set(id, channel);
    }
  }

  on(handler: LiveHandler): () => void {
    this.#handlers.add(handler);
    return () => this.#handlers.delete(handler);
  }

  /** Called after the socket came back from a disconnect (reload what may have been missed). */
  onReconnect(callback: () => void): () => void {
    this.#reconnect.add(callback);
    return () => this.#reconnect.delete(callback);
  }

  close(): void {
    this.#socket.disconnect();
  }

  #emit(event: string, payload: unknown, projectId: string): void {
    for (const handler of [...this.#handlers]) handler(event, payload, projectId);
  }
}
