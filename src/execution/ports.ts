// What the dispatcher needs from the runner gateway. The adapter over gateway/'s RunnerHub is
// runnerPortOf(); unit tests inject fakes (including ones that throw).
import type { Execute, Output, Result } from '../../runner-protocol/index.ts';

export type Delivery = { ok: true } | { ok: false; code: string; message: string };

export interface RunnerPort {
  isConnected(projectId: string): boolean;
  lastSeen(projectId: string): Date | null;
  /** Pushes `execute` to the project's runner and resolves when it acknowledged (or why not). */
  execute(projectId: string, execute: Execute): Promise<Delivery>;
  onJoined(listener: (projectId: string) => void): () => void;
  onLeft(listener: (projectId: string, reason: string) => void): () => void;
}

export type SinkAnswer = { ok: true } | { ok: false; reason: { code: string; message: string } };

/**
 * Viewers of an execution (live output for the console, SSE and `agent:<id>`; settlement to end
 * those streams). Called after the fact; must not throw and never changes an outcome.
 */
export interface ExecutionObserver {
  /** Broker exec output of a running terminal action, raw bytes in arrival order. */
  output?(action: { id: string; projectId: string; proposerId: string }, stream: 'stdout' | 'stderr', chunk: Buffer): void;
  /** The dispatch's outcome was recorded (after the commit). */
  settled?(actionId: string, status: 'executed' | 'failed'): void;
}

/** The gateway's sink: what the runner reports. The answer becomes the push's reply. */
export interface RunnerResultSink {
  onResult(projectId: string, result: Result): Promise<SinkAnswer>;
  /** Refuses output for another project's dispatch (forbidden_dispatch) or an unknown one. */
  onOutput(projectId: string, output: Output): Promise<SinkAnswer>;
}
