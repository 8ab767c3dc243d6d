// `brabo runner`: parses the flags, sets up the terminal UI and the structured log, and runs the
// local runner until it is stopped or has to give up. Returns the process exit code.
import type { Logger } from 'pino';
import { parseRunnerArgs, RUNNER_USAGE, UsageError } from '../runner/config.ts';
import type { RunnerConfig } from '../runner/config.ts';
import { EXIT, runRunner } from '../runner/runner-app.ts';
import { createJsonLog, type JsonLogDestination } from '../runner/json-log.ts';
import { TerminalUi } from '../runner/terminal-ui.ts';

const RUNNER_ENVIRONMENT = `
Environment:
  BRABO_RUNNER_TOKEN     the runner token (instead of --token; kept out of the process list and
                         removed from the environment of the commands the runner starts)
  XDG_STATE_HOME         where the default journal goes (default ~/.local/state)
  DOCKER_HOST            the Docker engine for container actions; they need dockerode, which the
                         runner package does not install: npx -p <runner .tgz> -p dockerode brabo-runner …
  NO_COLOR               plain output even on a terminal
  BRABO_DEBUG=1          print the stack trace of an unexpected failure

Exit codes: 0 stopped (Ctrl-C, SIGTERM), 1 failure, 2 usage or a --url that is not a brabo socket,
3 token refused, 4 join refused.
`;

export async function run(argv: string[]): Promise<number> {
  const ui = TerminalUi.forStdout();
  let config: RunnerConfig | 'help';
  try {
    config = parseRunnerArgs(argv, process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`brabo runner: usage: ${error.message}; see brabo runner --help\n`);
    return EXIT.usage;
  }
  if (config === 'help') {
    process.stdout.write(`${RUNNER_USAGE}${RUNNER_ENVIRONMENT}`);
    return EXIT.ok;
  }

  // Warnings are printed once: as a human line by the terminal UI, and as JSON only into
  // --log-file (or on stderr when --log-level is asked for explicitly without a file).
  const explicitLevel = argv.some((arg) => arg === '--log-level' || arg.startsWith('--log-level='));
  const destination: JsonLogDestination =
    config.logFile !== null
      ? { kind: 'file', path: config.logFile }
      : explicitLevel
        ? { kind: 'fd', fd: 2 }
        : { kind: 'none' };
  const logger: Logger & { close(): void } = createJsonLog({
    name: 'brabo-runner',
    level: config.logLevel,
    destination,
  });
  const logTarget =
    destination.kind === 'file'
      ? `${config.logFile} (JSON, level ${config.logLevel})`
      : destination.kind === 'fd'
        ? `stderr (JSON, level ${config.logLevel})`
        : 'off (pass --log-file FILE for JSON logs)';

  // A runner must outlive a bug in a callback (a malformed frame, a library throwing in an event
  // handler): log it and keep serving instead of dropping every running command.
  const onUncaught = (error: unknown): void => {
    logger.error({ event: 'uncaught', err: error }, 'unexpected error; the runner keeps going');
    ui.warning('unexpected_error', (error as Error)?.message ?? String(error));
  };
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);

  const stopRequested = new Promise<void>((resolve) => {
    let asked = false;
    const onSignal = (signal: NodeJS.Signals): void => {
      if (asked) process.exit(130); // a second Ctrl-C does not wait any longer
      asked = true;
      logger.info({ event: 'signal', signal }, 'stop requested');
      resolve();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });

  let code: number = EXIT.failure;
  try {
    code = await runRunner(config, { ui, logger, logTarget, stopRequested });
    return code;
  } finally {
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUncaught);
    logger.close();
    // The runner is done: a handle left behind (a half-open TCP connection, a library timer) must
    // not keep the process alive. Unref'd, so a clean exit happens first whenever it can.
    setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
  }
}

const EXIT_GRACE_MS = 2_000;

/** The runner as the whole process (the runner package's bin): its exit code is the process's. */
export async function runAsProcess(argv: string[]): Promise<void> {
  process.exitCode = await run(argv);
}

// Lets the runner start without the top-level CLI: `node src/cli/runner.ts --url ...`.
if (import.meta.main) await runAsProcess(process.argv.slice(2));
