// Issue 11.5: a started container must be able to edit its project. container_start writes and
// removes a probe file in /work from inside the container, as the container user; if that fails
// the start fails as workspace_not_writable, naming the cause and the fix.
import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { ExecEnvironment, ExecTarget } from './exec.ts';
import { runExec } from './exec.ts';
import { failure } from './failures.ts';
import { WORKSPACE_MOUNT } from './paths.ts';
import type { BrokerFailure } from './port.ts';

const PROBE_TIMEOUT_MS = 15_000;

/** undefined when the container wrote and removed the probe; otherwise the failure to report. */
export async function probeWorkspaceWritable(
  target: ExecTarget,
  env: ExecEnvironment,
  context: { hostPath: string; user: string },
): Promise<BrokerFailure | undefined> {
  const name = `.brabo-write-probe-${randomBytes(6).toString('hex')}`;
  const result = await runExec(
    target,
    {
      command: `{ echo probe > ${name} && rm -f -- ${name}; } 2>&1`,
      cwd: WORKSPACE_MOUNT,
      timeoutMs: PROBE_TIMEOUT_MS,
      maxOutputBytes: 4096,
    },
    env,
  );
  if (result.ok && result.value.exitCode === 0) return undefined;
  if (!result.ok && result.failure.code !== 'command_timeout') return result.failure;
  const cause = result.ok ? result.value.stdout.trim() || `exit code ${result.value.exitCode}` : result.failure.message;
  const host = await stat(context.hostPath).then(
    (info) => `on the host it is owned by ${info.uid}:${info.gid} with mode ${(info.mode & 0o7777).toString(8)}`,
    () => 'its owner on the host could not be read',
  );
  return failure(
    'workspace_not_writable',
    `The container user ${context.user} cannot write the project folder ${context.hostPath} mounted at ${WORKSPACE_MOUNT} (${cause}); ${host}. ` +
      `Make the folder writable by that user (for example \`chown -R ${context.user} ${context.hostPath}\`) or set BRABO_CONTAINER_USER to the folder's owner, then start the container again.`,
    { hostPath: context.hostPath, user: context.user, cause },
  );
}
