// The slice of the `phoenix` JS client the runner uses, typed here because the package ships no
// type declarations. Only the runner imports phoenix through this file.
// @ts-ignore -- phoenix 1.8 has no bundled .d.ts; the interfaces below describe what we call.
import { Socket as PhoenixSocket } from 'phoenix';
import type { ReplyStatus } from './reply.ts';

export interface PhoenixPush {
  receive(status: ReplyStatus, callback: (response: unknown) => void): PhoenixPush;
}

export interface PhoenixChannel {
  join(timeout?: number): PhoenixPush;
  leave(timeout?: number): PhoenixPush;
  push(event: string, payload: object, timeout?: number): PhoenixPush;
  on(event: string, callback: (payload: unknown) => void): number;
  onError(callback: (reason: unknown) => void): number;
  onClose(callback: (reason: unknown) => void): number;
  isJoined(): boolean;
}

export interface PhoenixSocketOptions {
  transport: unknown;
  params: () => Record<string, string>;
  reconnectAfterMs: (tries: number) => number;
  rejoinAfterMs: (tries: number) => number;
  heartbeatIntervalMs?: number;
  timeout?: number;
  logger?: (kind: string, message: string, data: unknown) => void;
}

export interface PhoenixSocketLike {
  connect(): void;
  disconnect(callback?: () => void, code?: number, reason?: string): void;
  channel(topic: string, params: () => object): PhoenixChannel;
  onOpen(callback: () => void): string;
  onClose(callback: (event: unknown) => void): string;
  onError(callback: (error: unknown) => void): string;
  isConnected(): boolean;
  endPointURL(): string;
}

export function createPhoenixSocket(endPoint: string, options: PhoenixSocketOptions): PhoenixSocketLike {
  return new PhoenixSocket(endPoint, options) as PhoenixSocketLike;
}
