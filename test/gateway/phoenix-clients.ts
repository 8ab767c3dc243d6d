// The official phoenix clients, typed locally: the package ships no .d.ts, and an ambient
// `declare module 'phoenix'` would leak into other folders' type checks (src/runner types its own).
// @ts-ignore -- untyped JS package
import { Presence as Presence18Untyped, Serializer as SerializerUntyped, Socket as Socket18Untyped } from 'phoenix';
// @ts-ignore -- untyped JS package (npm alias of phoenix 1.7.21)
import { Socket as Socket17Untyped } from 'phoenix17';

export interface PhoenixPush {
  receive(status: string, callback: (response: any) => void): PhoenixPush;
}
export interface PhoenixChannel {
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
export interface PhoenixSocket {
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
export type PhoenixSocketClass = new (endPoint: string, opts?: Record<string, unknown>) => PhoenixSocket;
export interface PhoenixPresence {
  onJoin(callback: (key: string, current: any, joined: any) => void): void;
  onLeave(callback: (key: string, current: any, left: any) => void): void;
  onSync(callback: () => void): void;
  list<T = any>(chooser?: (key: string, presence: any) => T): T[];
}
export type PhoenixPresenceClass = new (channel: PhoenixChannel, opts?: Record<string, unknown>) => PhoenixPresence;

export interface PhoenixSerializer {
  encode(message: unknown, callback: (out: any) => any): any;
  decode(raw: unknown, callback: (message: any) => any): any;
}

export const Socket18 = Socket18Untyped as PhoenixSocketClass;
export const Socket17 = Socket17Untyped as PhoenixSocketClass;
export const Presence18 = Presence18Untyped as PhoenixPresenceClass;
export const Serializer = SerializerUntyped as PhoenixSerializer;
