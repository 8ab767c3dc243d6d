// Codes the runner puts in `reason.code` of a `failed` result (refusals live in
// runner-protocol's RUNNER_REFUSALS). Broker failures pass their own code through unchanged.
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
} as const;
