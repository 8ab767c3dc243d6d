// `brabo <command> [...]`: the command-line entry (bin/brabo runs this file). A tiny dispatcher:
// each subcommand lives in ./cli/<name>.ts and exports `run(argv): Promise<number>` (the exit
// code). Modules are imported only when their command is asked for, so `brabo check` never loads
// the server, and a build without a module says so instead of crashing.
import { existsSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isDebug } from './cli/startup-failure.ts';
import { MODULE_EXT, VERSION } from './package-info.ts';

interface CommandEntry {
  module: string;
  summary: string;
}

const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  serve: {
    module: `./cli/serve${MODULE_EXT}`,
    summary: 'run the console, the HTTP API and the Phoenix socket for runners',
  },
  runner: { module: `./cli/runner${MODULE_EXT}`, summary: 'run the local runner for one project on this machine' },
  check: {
    module: `./cli/check${MODULE_EXT}`,
    summary: 'explain the policy decision for a command (or --jsonl batches)',
  },
  token: {
    module: `./cli/token${MODULE_EXT}`,
    summary: 'mint, list and revoke credentials (agent, human, service, runner tokens)',
  },
};

/** Exit codes shared by every subcommand: 0 done, 2 usage or input error. */
export const EXIT_USAGE = 2;

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, entry]) => `  ${name.padEnd(width)}  ${entry.summary}`);
  return (
    `usage: brabo <command> [options]\n\ncommands:\n${lines.join('\n')}\n\n` +
    `options:\n  -V, --version  print the version and exit\n  -h, --help     this text\n\n` +
    `environment:\n  BRABO_DEBUG=1  print stack traces of failures\n\n` +
    `Run \`brabo <command> --help\` for the options and variables of one command.\n`
  );
}

type CommandModule = { run: (argv: string[]) => Promise<number> };

function isCommandModule(x: unknown): x is CommandModule {
  return typeof x === 'object' && x !== null && typeof (x as { run?: unknown }).run === 'function';
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    process.stderr.write(usage());
    return EXIT_USAGE;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    process.stdout.write(`brabo ${VERSION} (node ${process.versions.node})\n`);
    return 0;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return 0;
  }
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (entry === undefined) {
    process.stderr.write(`brabo: unknown command "${name}"\n\n${usage()}`);
    return EXIT_USAGE;
  }
  const url = new URL(entry.module, import.meta.url);
  // Checked up front so that a module missing from this build is told apart from a module that
  // exists but fails to load (the latter is a bug and must surface with its stack).
  if (!existsSync(fileURLToPath(url))) {
    process.stderr.write(`brabo ${name}: not available in this build (${entry.module} is missing)\n`);
    return EXIT_USAGE;
  }
  const loaded: unknown = await import(url.href);
  if (!isCommandModule(loaded)) {
    process.stderr.write(`brabo ${name}: not available in this build (${entry.module} exports no run())\n`);
    return EXIT_USAGE;
  }
  return loaded.run(rest);
}

// Run only as the entry point (tests import main() directly).
function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

/**
 * Runs the command line as the process: the exit code becomes the process's. exitCode, not
 * exit(): a long-running command (serve, runner) keeps its handles, and stdout pipes are flushed
 * before the process ends. Used by this file as the entry point and by the package's bin/brabo.js.
 */
export function runCli(argv: string[]): void {
  // A reader that goes away (`brabo check … | head`) is not a failure: a short command stops
  // quietly; a long-running one (serve, runner) keeps running without its stdout.
  const shortLived = argv[0] !== 'serve' && argv[0] !== 'runner';
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    if (shortLived) process.exit(process.exitCode ?? 0);
  });
  main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      // One line for the user; the stack when debugging (BRABO_DEBUG=1).
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(
        `brabo: unexpected_failure: ${message}; run again with BRABO_DEBUG=1 for the stack trace and report it\n`,
      );
      if (isDebug() && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
      process.exitCode = 1;
    },
  );
}

if (isEntryPoint()) runCli(process.argv.slice(2));
