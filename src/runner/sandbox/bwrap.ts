// Linux back-end: the rules as bubblewrap arguments. Order matters: later mounts cover earlier
// ones, so the host goes read-only first, then /tmp is replaced, then the root is made writable,
// then the protected entries inside it go read-only again.
import type { SandboxRules } from './rules.ts';

export const BWRAP = 'bwrap';

export interface BwrapOptions {
  /** The descriptor number bwrap reads the seccomp program from (see seccomp.ts); null: none. */
  seccompFd: number | null;
}

export function bwrapArgs(rules: SandboxRules, command: string, options: BwrapOptions): string[] {
  const args = [
    '--die-with-parent', // the whole tree goes when bwrap (and so the runner's supervision) goes
    '--new-session', // no controlling terminal: TIOCSTI cannot type into the user's shell
    '--unshare-pid', // own PID namespace: no /proc/<runner>/environ, no signals to the runner
    '--unshare-ipc', // no System V shared memory or semaphores of host processes
    '--cap-drop',
    'ALL', // even when the runner runs as root: no umount of the read-only binds
  ];
  if (!rules.network) args.push('--unshare-net');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  if (rules.privateTmp) args.push('--tmpfs', '/tmp');
  // Credentials: an empty folder or an empty file in their place.
  for (const entry of rules.hidden) {
    if (entry.kind === 'dir') args.push('--tmpfs', entry.path);
    else args.push('--ro-bind', '/dev/null', entry.path);
  }
  args.push('--bind', rules.root, rules.root);
  // A bind of a folder onto itself makes it a mount point: rename(2) and rmdir(2) fail with EBUSY.
  for (const folder of rules.pinned) args.push('--bind', folder, folder);
  for (const entry of rules.readOnly) args.push('--ro-bind', entry.path, entry.path);
  if (options.seccompFd !== null) args.push('--seccomp', String(options.seccompFd));
  args.push('--setenv', 'TMPDIR', '/tmp', '--chdir', rules.cwd, '--', '/bin/sh', '-c', command);
  return args;
}
