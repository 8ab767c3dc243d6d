// Signals a whole process group. Commands are spawned detached (their own group, led by the
// shell), so signalling `-pid` reaches the shell and everything it started in the background.

export type GroupSignal = 'SIGTERM' | 'SIGKILL';

/** Sends `signal` to the group; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: GroupSignal): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    // EPERM means it exists but belongs to someone else: treat as alive, never as gone.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * SIGTERM the group now and SIGKILL whatever is left after `graceMs`. Returns a function that
 * cancels the pending SIGKILL (used on runner shutdown, where we kill at once anyway).
 */
export function terminateGroup(pgid: number, graceMs: number): () => void {
  if (!signalGroup(pgid, 'SIGTERM')) return () => {};
  const timer = setTimeout(() => {
    if (groupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
  }, graceMs);
  timer.unref();
  return () => clearTimeout(timer);
}
