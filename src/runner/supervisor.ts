// Every command is started through a few lines of sh that stay behind as its supervisor: a
// background watcher in the command's process group blocks reading a pipe whose other end only
// the runner holds. When the runner dies, even by SIGKILL, the kernel closes that end, the read
// returns, and the watcher SIGKILLs the whole group. The command itself is exec'd in place, so its
// pid, exit code and signal are exactly what the runner sees (no wrapper in between).
// The watcher ignores SIGINT/SIGHUP (a terminal's signals are not the runner's decision) but not
// SIGTERM: the runner's group kill after the command exits takes the watcher with the leftovers.

/** The file descriptor the watcher reads; the runner keeps the other end open for the command's life. */
export const SUPERVISOR_FD = 3;

export const SUPERVISOR_SCRIPT = [
  `{ trap '' INT HUP; read -r _ <&${SUPERVISOR_FD}; kill -KILL 0; } </dev/null >/dev/null 2>&1 4<&- &`,
  `exec ${SUPERVISOR_FD}<&-`,
  'exec "$@"',
].join('\n');

/** `sh -c SCRIPT brabo-supervisor FILE ARGS...`: spawn this instead of FILE ARGS. */
export function supervised(file: string, args: readonly string[]): { file: string; args: string[] } {
  return { file: '/bin/sh', args: ['-c', SUPERVISOR_SCRIPT, 'brabo-supervisor', file, ...args] };
}
