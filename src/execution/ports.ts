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

/** The gateway's sink: what the runner reports. The answer becomes the push's reply. */
export interface RunnerResultSink {
  onResult(projectId: string, result: Result): Promise<SinkAnswer>;
  /** Refuses output for another project's dispatch (forbidden_dispatch) or an unknown one. */
  onOutput(projectId: string, output: Output): Promise<SinkAnswer>;
}
