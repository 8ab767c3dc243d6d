// Tunables of the execution side (resolved from the environment in src/config.ts).
import { DEFAULT_RESOURCE_LIMITS, type ResourceLimits } from './resources.ts';

export interface ExecutionLimits {
  /** How long the runner has to acknowledge an `execute` (delivery_timeout). */
  deliveryTimeoutMs: number;
  /** After a runner disconnects mid-command, how long its result may still arrive (runner_lost). */
  runnerGraceMs: number;
  /** At start-up, how long queued runner dispatches wait for their runner to connect. */
  resumeWaitMs: number;
  /** Command timeout when the payload sets none (sent to the runner / broker explicitly). */
  commandTimeoutMs: number;
  /** stdout/stderr kept per stream in the recorded outcome and event. */
  outputCapBytes: number;
  /** POST /actions waits at most this long for an auto-approved action's outcome. */
  proposeWaitMs: number;
  /** How often the queue is swept for hand-offs whose notification was lost. */
  pollIntervalMs: number;
  resources: ResourceLimits;
}

export const DEFAULT_EXECUTION_LIMITS: ExecutionLimits = {
  deliveryTimeoutMs: 10_000,
  runnerGraceMs: 10_000,
  resumeWaitMs: 60_000,
  commandTimeoutMs: 600_000,
  outputCapBytes: 64 * 1024,
  proposeWaitMs: 30_000,
  pollIntervalMs: 5_000,
  resources: DEFAULT_RESOURCE_LIMITS,
};
