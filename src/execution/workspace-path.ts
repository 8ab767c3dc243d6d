// The host root -> /work rewrite for container projects, done only just before the broker call
// (decide() always saw host paths). A cwd outside the root cannot be rewritten: the broker would
// refuse it anyway, so it is the broker's own named failure.
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
