// The phoenix package ships no types; the console uses this much of its client.
declare module 'phoenix' {
  export interface Push {
    receive(status: 'ok' | 'error' | 'timeout', callback: (response: any) => void): Push;
  }
  export class Channel {
    state: string;
    join(timeout?: number): Push;
    leave(timeout?: number): Push;
    on(event: string, callback: (payload: any) => void): number;
    onError(callback: (reason: unknown) => void): number;
  }
  export class Socket {
    constructor(endPoint: string, opts?: Record<string, unknown>);
    connect(): void;
    disconnect(callback?: () => void, code?: number, reason?: string): void;
    channel(topic: string, params?: object): Channel;
    isConnected(): boolean;
    onOpen(callback: () => void): string;
    onClose(callback: (event: unknown) => void): string;
    onError(callback: (error: unknown) => void): string;
  }
}
