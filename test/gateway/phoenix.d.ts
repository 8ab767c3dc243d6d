// The phoenix npm package ships no types; the conformance tests use this minimal surface.
declare module 'phoenix' {
  export const Socket: PhoenixSocketClass;
  export const Presence: PhoenixPresenceClass;
  export const Serializer: { encode(message: unknown, callback: (out: any) => any): any; decode(raw: unknown, callback: (message: any) => any): any };
}
declare module 'phoenix17' {
  export const Socket: PhoenixSocketClass;
  export const Presence: PhoenixPresenceClass;
}

interface PhoenixPush {
  receive(status: string, callback: (response: any) => void): PhoenixPush;
}
interface PhoenixChannel {
  state: string;
  topic: string;
  join(timeout?: number): PhoenixPush;
  leave(timeout?: number): PhoenixPush;
  push(event: string, payload?: unknown, timeout?: number): PhoenixPush;
  on(event: string, callback: (payload: any, ref?: string, joinRef?: string) => void): number;
  onClose(callback: (payload: any) => void): void;
  onError(callback: (reason: any) => void): number;
  joinRef(): string;
}
interface PhoenixSocket {
  connect(): void;
  disconnect(callback?: () => void, code?: number, reason?: string): void;
  channel(topic: string, params?: unknown): PhoenixChannel;
  isConnected(): boolean;
  onOpen(callback: () => void): string;
  onClose(callback: (event: any) => void): string;
  onError(callback: (error: any) => void): string;
  onMessage(callback: (message: any) => void): string;
  conn: any;
}
type PhoenixSocketClass = new (endPoint: string, opts?: Record<string, unknown>) => PhoenixSocket;
interface PhoenixPresence {
  onJoin(callback: (key: string, current: any, joined: any) => void): void;
  onLeave(callback: (key: string, current: any, left: any) => void): void;
  onSync(callback: () => void): void;
  list<T = any>(chooser?: (key: string, presence: any) => T): T[];
}
type PhoenixPresenceClass = new (channel: PhoenixChannel, opts?: Record<string, unknown>) => PhoenixPresence;
