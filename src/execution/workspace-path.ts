// The host root -> /work rewrite for container projects, done only just before the broker call
// (decide() always saw host paths). A cwd outside the root cannot be rewritten: the broker would
// refuse it anyway, so it is the broker's own named failure.
import { chown, stat } from 'node:fs/promises';
import path from 'node:path';
import { WORKSPACE_MOUNT } from '../../broker/index.ts';
import { failedOutcome, type FailedOutcome } from './outcome.ts';

export function toContainerCwd(hostRoot: string, hostCwd: string): string | FailedOutcome {
  const root = path.resolve(hostRoot);
  const cwd = path.resolve(hostCwd);
  const relative = path.relative(root, cwd);
  if (relative === '') return WORKSPACE_MOUNT;
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) {
    return failedOutcome(
      'cwd_outside_workspace',
      `DiretorioForaDoEscopoError: the working directory "${hostCwd}" is outside the project folder, so it has no place under ${WORKSPACE_MOUNT} in the container. ` +
        'Propose the command with a cwd inside the project folder.',
      { cwd: hostCwd },
    );
  }
  return path.posix.join(WORKSPACE_MOUNT, relative.split(path.sep).join('/'));
}

/**
 * Makes a project folder the container user's (BRABO_CONTAINER_USER, `uid:gid`), so commands in
 * the container can edit it (issue 11.5). Only root can give a file away; a gateway running as
 * another user leaves the folder as it is, and container_start's write probe then names the fix.
 */
export async function giveToContainerUser(folder: string, containerUser: string | undefined): Promise<void> {
  const match = /^([0-9]+):([0-9]+)$/.exec(containerUser ?? '1000:1000');
  if (match === null || process.getuid?.() !== 0) return;
  const uid = Number(match[1]);
  const gid = Number(match[2]);
  const current = await stat(folder);
  if (current.uid !== uid || current.gid !== gid) await chown(folder, uid, gid);
}
