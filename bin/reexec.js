// Runs this same command again on the same Node with extra flags (bin/brabo.js on Node 22.0 to
// 22.12, whose defaults lack what the server needs), and ends as the child ends: same exit code,
// or the same signal.
//
// The child gets its own process group (detached), and SIGINT, SIGTERM and SIGHUP reach it
// only through this process: in the shared group a Ctrl-C (or a `kill -- -PGID`) would hit it
// twice, and a second signal ends the server without its graceful shutdown. stdio is the
// terminal's, unchanged.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export function reexecWith(flags) {
  const entry = fileURLToPath(new URL('./brabo.js', import.meta.url));
  // The flags' own ExperimentalWarnings come before brabo.js can filter them: noise for a user.
  const quiet = '--disable-warning=ExperimentalWarning';
  const child = spawn(process.execPath, [...process.execArgv, ...flags, quiet, entry, ...process.argv.slice(2)], {
    stdio: 'inherit',
    detached: true,
  });
  const forward = (signal) => child.kill(signal);
  for (const signal of FORWARDED) process.on(signal, forward);
  // Should this process end first (an uncaught error), the server must not run on unowned.
  process.once('exit', () => child.kill('SIGTERM'));
  child.once('error', (error) => {
    process.stderr.write(
      `brabo: reexec_failed: could not start ${process.execPath} ${flags.join(' ')} (${error.message}); run it with those flags yourself\n`,
    );
    process.exit(1);
  });
  child.once('exit', (code, signal) => {
    for (const name of FORWARDED) process.off(name, forward);
    if (signal !== null) {
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code ?? 1);
  });
}
