// What the dispatcher needs from the runner gateway. The adapter over gateway/'s RunnerHub is
// runnerPortOf(); unit tests inject fakes (including ones that throw).
import type { Execute, Output, Result, RunnerSandbox } from '../../runner-protocol/index.ts';

export type Delivery = { ok: true } | { ok: false; code: string; message: string };

/** Where a project's runner is connected: this node, another node of the cluster, or nowhere (null). */
export type RunnerLocation = { at: 'here' } | { at: 'node'; nodeId: string };

export interface RunnerPort {
  /** Connected to any node of the cluster. */
  isConnected(projectId: string): boolean;
  /** Now while connected anywhere; null when the gateway has no record of it. */
  lastSeen(projectId: string): Date | null | Promise<Date | null>;
  /** Absent on a single node (connected means here). */
  locate?(projectId: string): RunnerLocation | null;
  /** Hands the action to the node holding the runner's socket, which claims and delivers it. */
  forward?(nodeId: string, actionId: string): void;
  /** Pushes `execute` to the project's runner and resolves when it acknowledged (or why not). */
  execute(projectId: string, execute: Execute): Promise<Delivery>;
  /** The sandbox state the runner connected here reported in its join (null: none reported). */
  sandboxOf?(projectId: string): RunnerSandbox | null;
  /** A runner joined, on any node. */
  onJoined(listener: (projectId: string) => void): () => void;
  /** A runner left this node. */
  onLeft(listener: (projectId: string, reason: string) => void): () => void;
}

export type SinkAnswer = { ok: true } | { ok: false; reason: { code: string; message: string } };

/**
 * Viewers of an execution (live output for the console, SSE and `agent:<id>`; settlement to end
 * those streams). Called after the fact; must not throw and never changes an outcome.
 */
export interface ExecutionObserver {
  /** Broker exec output of a running terminal action, raw bytes in arrival order. */
  output?(
    action: { id: string; projectId: string; proposerId: string },
    stream: 'stdout' | 'stderr',
    chunk: Buffer,
  ): void;
  /** The dispatch's outcome was recorded (after the commit); `code` is the failure code, null when executed. */
  settled?(actionId: string, status: 'executed' | 'failed', code?: string | null): void;
}

/** The gateway's sink: what the runner reports. The answer becomes the push's reply. */
export interface RunnerResultSink {
  onResult(projectId: string, result: Result): Promise<SinkAnswer>;
  /** A result over the frame limit: recorded failed result_too_large with its output cut; answered with that refusal. */
  onOversizedResult(projectId: string, result: Result, bytes: number): Promise<SinkAnswer>;
  /** Refuses output for another project's dispatch (forbidden_dispatch) or an unknown one. */
  onOutput(projectId: string, output: Output): Promise<SinkAnswer>;
}
