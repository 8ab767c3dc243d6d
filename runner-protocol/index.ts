// The one contract the gateway and the local runner both import: topic names, the messages
// exchanged on `runner:<projectId>` and `agent:<agentId>`, and the error codes. zod schemas, no I/O.
import { z } from 'zod';

/** Bumped on any incompatible change; a runner joining with another value is refused. */
export const RUNNER_PROTOCOL_VERSION = 1;

export const runnerTopic = (projectId: string): string => `runner:${projectId}`;
export const agentTopic = (agentId: string): string => `agent:${agentId}`;

/** `{code, message}`: every refusal or failure carries a machine code and an operator sentence. */
export const Refusal = z.object({ code: z.string().min(1).max(100), message: z.string().max(4000) });
export type Refusal = z.infer<typeof Refusal>;

// ---- runner:<projectId> -------------------------------------------------------------------

/** A runner's sandbox as it reports it when joining (see src/runner/sandbox/policy.ts). */
export const RunnerSandbox = z.object({
  /** --sandbox: auto (default), required, all, off. */
  mode: z.enum(['auto', 'required', 'all', 'off']),
  /** Whether this machine has a working sandbox (bwrap on Linux, sandbox-exec on macOS). */
  available: z.boolean(),
  backend: z.enum(['bwrap', 'seatbelt']).nullable(),
  /** --sandbox-network: outbound network inside the sandbox. */
  network: z.boolean(),
  /** --sandbox-git: the root's git directory read-only (default) or writable; absent from older runners. */
  git: z.enum(['read-only', 'writable']).optional(),
  /** True when auto-approved commands never run unsandboxed on this runner (sandboxed, or refused). */
  enforced: z.boolean(),
  /** Why no sandbox is available, when none is. */
  reason: z.string().max(500).nullable(),
});
export type RunnerSandbox = z.infer<typeof RunnerSandbox>;

/** Join payload a runner sends. */
export const RunnerJoin = z.object({
  protocolVersion: z.number().int(),
  runnerVersion: z.string().max(100).optional(),
  hostname: z.string().max(255).optional(),
  /** Dispatch ids the runner has in its journal with a final result (answers re-deliveries). */
  journal: z.array(z.string().max(100)).max(10_000).optional(),
  /** How this runner contains the commands it runs (issue 9 B.3); absent from older runners. */
  sandbox: RunnerSandbox.optional(),
});
export type RunnerJoin = z.infer<typeof RunnerJoin>;

export const TerminalAction = z.object({
  type: z.literal('terminal'),
  command: z.string().max(1_000_000),
  /** Absolute path on the runner's machine, inside the root the runner serves. */
  cwd: z.string().max(4096),
  timeoutMs: z.number().int().positive().optional(),
  /**
   * Who let it run: `auto` (decide() auto-approved it) or `human`. The runner sandboxes `auto`
   * commands; a missing value is treated as `auto`, the safe side.
   */
  approval: z.enum(['auto', 'human']).optional(),
});
export const ContainerAction = z.object({
  type: z.enum(['container_start', 'container_stop', 'container_remove']),
  resources: z
    .object({ cpus: z.number().positive(), memoryMb: z.number().int().positive(), pids: z.number().int().positive() })
    .partial()
    .optional(),
  image: z.string().max(500).optional(),
});
export const RunnerAction = z.discriminatedUnion('type', [TerminalAction, ContainerAction]);
export type RunnerAction = z.infer<typeof RunnerAction>;

/** Server -> runner: run this. `attempt` fences stale results. */
export const Execute = z.object({
  dispatchId: z.string().min(1).max(100),
  attempt: z.number().int().min(1),
  action: RunnerAction,
});
export type Execute = z.infer<typeof Execute>;

/** Runner -> server: a chunk of output while the command runs. */
export const Output = z.object({
  dispatchId: z.string().min(1).max(100),
  attempt: z.number().int().min(1),
  stream: z.enum(['stdout', 'stderr']),
  seq: z.number().int().min(0),
  data: z.string().max(1_048_576),
});
export type Output = z.infer<typeof Output>;

/** Runner -> server: the final outcome of one dispatch attempt. */
export const Result = z.object({
  dispatchId: z.string().min(1).max(100),
  attempt: z.number().int().min(1),
  status: z.enum(['executed', 'failed', 'refused']),
  exitCode: z.number().int().nullable().optional(),
  stdout: z.string().optional(),
  stderr: z.string().optional(),
  truncated: z.boolean().optional(),
  reason: Refusal.optional(),
  /** True when the runner answered from its journal instead of running again. */
  fromJournal: z.boolean().optional(),
});
export type Result = z.infer<typeof Result>;

/**
 * Runner -> server, right after receiving `execute`: "I have it". Phoenix has no server-to-client
 * request/reply, so delivery is confirmed by this push (an `output` or `result` for the same
 * dispatchId/attempt also counts). Without it the dispatcher sees `delivery_timeout`.
 */
export const ExecuteAck = z.object({
  dispatchId: z.string().min(1).max(100),
  attempt: z.number().int().min(1),
});
export type ExecuteAck = z.infer<typeof ExecuteAck>;

/** Server -> runner: the `ok` response to a successful join. */
export const RunnerJoinReply = z.object({ protocolVersion: z.number().int() });
export type RunnerJoinReply = z.infer<typeof RunnerJoinReply>;

export const RUNNER_EVENTS = { execute: 'execute', ack: 'ack', output: 'output', result: 'result' } as const;

// ---- agent:<agentId> ----------------------------------------------------------------------

/** Server -> agent: the decision on the action the agent's turn is waiting for. */
export const ActionSettled = z.object({
  actionId: z.string(),
  status: z.enum(['executed', 'failed', 'denied']),
  /** The command's real result, or the denial reason, in place of the tool's answer. */
  result: z
    .object({
      exitCode: z.number().int().nullable().optional(),
      stdout: z.string().optional(),
      stderr: z.string().optional(),
    })
    .optional(),
  reason: Refusal.optional(),
});
export type ActionSettled = z.infer<typeof ActionSettled>;
/**
 * Server -> agent (and console): a chunk of a running action's output, in order (`seq` counts
 * both streams of one action from 0). Ends with the action's settlement; at most the outcome cap
 * per stream is streamed.
 */
export const ActionOutput = z.object({
  actionId: z.string(),
  seq: z.number().int().min(0),
  stream: z.enum(['stdout', 'stderr']),
  data: z.string(),
});
export type ActionOutput = z.infer<typeof ActionOutput>;
export const AGENT_EVENTS = { actionSettled: 'task.action_settled', actionOutput: 'action.output' } as const;

/** Schema of each server -> agent event, checked before it is sent. */
export const AGENT_EVENT_SCHEMAS = {
  [AGENT_EVENTS.actionSettled]: ActionSettled,
  [AGENT_EVENTS.actionOutput]: ActionOutput,
} as const;

/** Topic an admin socket joins to receive every agent's events, as `{agentId, payload}`. */
export const ALL_AGENTS_TOPIC = 'agent:*';
export const AgentRelay = z.object({ agentId: z.string(), payload: z.unknown() });
export type AgentRelay = z.infer<typeof AgentRelay>;

// ---- error codes --------------------------------------------------------------------------

/**
 * Reasons a join or push on a runner/agent topic is refused: the reply has status "error" and its
 * response is a `Refusal` `{code, message}` with one of these codes.
 */
export const JOIN_ERRORS = {
  protocolVersionMismatch: 'protocol_version_mismatch',
  forbiddenTopic: 'forbidden_topic',
  invalidPayload: 'invalid_payload',
  /** Another runner holds the project's topic: approved commands must not be diverted to a newcomer. */
  runnerAlreadyConnected: 'runner_already_connected',
} as const;

/** Error replies to a runner's pushes (`ack`, `output`, `result`): response is a `Refusal`. */
export const PUSH_ERRORS = {
  invalidPayload: 'invalid_payload',
  unknownEvent: 'unknown_event',
  /** No dispatcher is attached to the gateway yet; retry later. */
  sinkUnavailable: 'sink_unavailable',
  /** The dispatcher failed while recording the push; retry. */
  sinkFailed: 'sink_failed',
  /** Only runners push on `runner:*`; an admin watcher cannot. */
  notARunner: 'not_a_runner',
  /** `ack`, `output` or `result` for a dispatch of another project: refused, nothing recorded. */
  forbiddenDispatch: 'forbidden_dispatch',
  /** The result's frame is over the socket's limit: the gateway recorded it failed with the output cut to fit. */
  resultTooLarge: 'result_too_large',
} as const;

/** Why `RunnerHub.execute` could not hand a dispatch to a runner. */
export const DELIVERY_ERRORS = {
  runnerNotConnected: 'runner_not_connected',
  deliveryTimeout: 'delivery_timeout',
} as const;

/**
 * Codes a runner puts in `reason.code` of a `failed` result: the command was accepted but did not
 * run to an exit code. Container actions pass the broker's own failure code through unchanged.
 */
export const RUNNER_FAILURES = {
  commandTimeout: 'command_timeout',
  commandSignalled: 'command_signalled',
  spawnFailed: 'spawn_failed',
  runnerShutdown: 'runner_shutdown',
  cwdMissing: 'cwd_missing',
  rootMissing: 'root_missing',
  runnerError: 'runner_error',
  /** The runner died while the command ran; on restart it is answered with this, never re-run. */
  runnerInterrupted: 'runner_interrupted',
  /** The `started` line could not be written, so the command was not spawned. */
  journalUnwritable: 'journal_unwritable',
  /** A protected file in the root is a symlink, so the sandbox could not keep it read-only. */
  sandboxUnprotectable: 'sandbox_unprotectable',
  /** The sandbox itself failed to start (bwrap exit 1 before the command, with its message). */
  sandboxFailed: 'sandbox_failed',
} as const;

/** Codes a runner uses when it refuses a dispatch (status 'refused'). */
export const RUNNER_REFUSALS = {
  cwdOutsideRoot: 'cwd_outside_root',
  unsupportedAction: 'unsupported_action',
  invalidExecute: 'invalid_execute',
  busy: 'runner_busy',
  /** --sandbox required|all and no sandbox on this machine: the command was not run. */
  sandboxUnavailable: 'sandbox_unavailable',
} as const;
