// `brabo runner` flags -> a checked RunnerConfig. Every problem is a UsageError with a sentence
// that says what to change; nothing is started until the whole configuration is valid.
import { realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isInside } from './cwd-guard.ts';
import { SANDBOX_GIT_MODES, SANDBOX_MODES } from './sandbox/policy.ts';
import type { SandboxGit, SandboxMode } from './sandbox/policy.ts';

export class UsageError extends Error {
  override name = 'UsageError';
}

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface RunnerConfig {
  url: string;
  token: string;
  projectId: string;
  /** Real path of --root. */
  root: string;
  journalFile: string;
  logLevel: LogLevel;
  logFile: string | null;
  defaultTimeoutMs: number;
  killGraceMs: number;
  maxOutputBytes: number;
  maxConcurrent: number;
  reconnectBaseMs: number;
  reconnectMaxMs: number;
  /** Image for container_start when the action names none. */
  containerImage: string;
  /** --sandbox: which commands run in the sandbox, and what happens without one. */
  sandbox: SandboxMode;
  /** --sandbox-network on|off: outbound network inside the sandbox. */
  sandboxNetwork: boolean;
  /** --sandbox-git read-only|writable: the root's git directory inside the sandbox. */
  sandboxGit: SandboxGit;
}

export const DEFAULT_CONTAINER_IMAGE = 'brabo-dev:latest';

export const RUNNER_USAGE = `Usage: brabo runner --url ws://HOST:PORT/socket --token TOKEN --root DIR --project ID [options]

Connects to a brabo gateway and runs the commands approved for one project on this machine,
with your permissions, only inside --root.

  --url URL              the gateway's socket mount (ws:// or wss://, ending in /socket)
  --token TOKEN          a runner token for the project (or set BRABO_RUNNER_TOKEN, which keeps it
                         out of the process list); create one with POST /api/projects/:id/runner-tokens
  --project ID           the project the token belongs to (joins runner:<ID>)
  --root DIR             the project folder on this machine; commands only run inside it
  --journal FILE         where final results are kept (default:
                         $XDG_STATE_HOME/brabo/runner-<ID>.jsonl, never inside --root)
  --timeout-ms N         timeout for commands that do not set one (default 600000)
  --kill-grace-ms N      time between SIGTERM and SIGKILL of a command's process group (default 5000)
  --max-output-bytes N   stdout/stderr kept per command in the result (default 1048576)
  --max-concurrent N     commands running at once; more are refused as runner_busy (default 4)
  --container-image IMG  image for container_start when the action names none (default
                         ${DEFAULT_CONTAINER_IMAGE}; it must exist locally, nothing is pulled)
  --sandbox MODE         auto|required|all|off (default auto). Auto-approved commands run in a
                         sandbox (bubblewrap on Linux, sandbox-exec on macOS): the host read-only,
                         the root writable except its git directory (.git), permissions.json and
                         what git's config points at (core.hooksPath, include.path), a private
                         /tmp, no view of other processes, no unix sockets.
                         auto: without a sandbox they run anyway, and start-up says the host is
                         unprotected; required: without one they are refused
                         (sandbox_unavailable); all: human-approved commands are sandboxed too;
                         off: nothing is sandboxed. Human-approved commands otherwise run as
                         approved.
  --sandbox-network on|off  outbound network inside the sandbox (default on)
  --sandbox-git read-only|writable  the root's git directory inside the sandbox (default
                         read-only: git status, log, diff work, git add and commit fail).
                         writable: index, refs and objects writable (auto-approved git add and
                         git commit work); .git/config and .git/hooks stay read-only
  --reconnect-max-ms N   longest wait between reconnect attempts (default 30000)
  --log-level LEVEL      ${LOG_LEVELS.join('|')} (default: info with --log-file, warn on stderr)
  --log-file FILE        structured JSON logs go here instead of stderr
  -h, --help             this text
`;

export function parseRunnerArgs(argv: string[], env: NodeJS.ProcessEnv): RunnerConfig | 'help' {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        url: { type: 'string' },
        token: { type: 'string' },
        project: { type: 'string' },
        root: { type: 'string' },
        journal: { type: 'string' },
        'timeout-ms': { type: 'string' },
        'kill-grace-ms': { type: 'string' },
        'max-output-bytes': { type: 'string' },
        'max-concurrent': { type: 'string' },
        'reconnect-base-ms': { type: 'string' },
        'reconnect-max-ms': { type: 'string' },
        'log-level': { type: 'string' },
        'log-file': { type: 'string' },
        'container-image': { type: 'string' },
        sandbox: { type: 'string' },
        'sandbox-network': { type: 'string' },
        'sandbox-git': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help === true) return 'help';
  const text = (name: string): string | undefined =>
    typeof values[name] === 'string' ? (values[name] as string) : undefined;

  const url = required(text('url'), '--url');
  if (!/^wss?:\/\/[^/]/.test(url))
    throw new UsageError(`--url must be a ws:// or wss:// URL such as ws://127.0.0.1:4000/socket, got "${url}"`);
  const token = text('token') ?? env.BRABO_RUNNER_TOKEN;
  if (token === undefined || token.length === 0)
    throw new UsageError(
      'a token is required: pass --token TOKEN or set BRABO_RUNNER_TOKEN (create one with POST /api/projects/:id/runner-tokens)',
    );
  if (/\s/.test(token))
    throw new UsageError('the token contains whitespace; copy it again without spaces or line breaks');
  const projectId = required(text('project'), '--project');
  if (!/^[^\s]{1,100}$/.test(projectId))
    throw new UsageError(`--project must be 1 to 100 characters without whitespace, got "${projectId}"`);

  const root = resolveRoot(required(text('root'), '--root'));
  const journalFile = path.resolve(text('journal') ?? defaultJournalFile(projectId, env));
  if (isInside(root, journalFile) || isInside(root, realParentOf(journalFile))) {
    throw new UsageError(
      `the journal ${journalFile} is inside --root; commands run there could rewrite it. Pass --journal with a path outside ${root}`,
    );
  }

  const logFile = text('log-file') === undefined ? null : path.resolve(text('log-file') as string);
  const levelText = text('log-level') ?? (logFile === null ? 'warn' : 'info');
  if (!(LOG_LEVELS as readonly string[]).includes(levelText))
    throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got "${levelText}"`);

  const sandbox = text('sandbox') ?? 'auto';
  if (!(SANDBOX_MODES as readonly string[]).includes(sandbox))
    throw new UsageError(`--sandbox must be one of ${SANDBOX_MODES.join(', ')}, got "${sandbox}"`);
  const network = text('sandbox-network') ?? 'on';
  if (network !== 'on' && network !== 'off')
    throw new UsageError(`--sandbox-network must be on or off, got "${network}"`);
  const git = text('sandbox-git') ?? 'read-only';
  if (!(SANDBOX_GIT_MODES as readonly string[]).includes(git))
    throw new UsageError(`--sandbox-git must be read-only or writable, got "${git}"`);

  return {
    url: url.replace(/\/+$/, ''),
    token,
    projectId,
    root,
    journalFile,
    logLevel: levelText as LogLevel,
    logFile,
    defaultTimeoutMs: integer(text('timeout-ms'), '--timeout-ms', 600_000, 1, 7 * 24 * 3_600_000),
    killGraceMs: integer(text('kill-grace-ms'), '--kill-grace-ms', 5_000, 0, 600_000),
    maxOutputBytes: integer(text('max-output-bytes'), '--max-output-bytes', 1_048_576, 1, 64 * 1_048_576),
    maxConcurrent: integer(text('max-concurrent'), '--max-concurrent', 4, 1, 256),
    reconnectBaseMs: integer(text('reconnect-base-ms'), '--reconnect-base-ms', 500, 10, 60_000),
    reconnectMaxMs: integer(text('reconnect-max-ms'), '--reconnect-max-ms', 30_000, 100, 3_600_000),
    containerImage: text('container-image') ?? DEFAULT_CONTAINER_IMAGE,
    sandbox: sandbox as SandboxMode,
    sandboxNetwork: network === 'on',
    sandboxGit: git as SandboxGit,
  };
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value.length === 0) throw new UsageError(`${flag} is required (see brabo runner --help)`);
  return value;
}

function integer(value: string | undefined, flag: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max)
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got "${value}"`);
  return parsed;
}

function resolveRoot(given: string): string {
  const absolute = path.resolve(given);
  let real: string;
  try {
    real = realpathSync(absolute);
  } catch {
    throw new UsageError(`--root ${absolute} does not exist; create the project folder first`);
  }
  if (!statSync(real).isDirectory()) throw new UsageError(`--root ${real} is not a directory`);
  if (real === path.parse(real).root)
    throw new UsageError('--root cannot be the file system root; give the project folder');
  return real;
}

/** The journal may not exist yet; compare its folder's real path (a symlink could point into root). */
function realParentOf(file: string): string {
  let dir = path.dirname(file);
  for (;;) {
    try {
      return path.join(realpathSync(dir), path.relative(dir, file));
    } catch {
      const up = path.dirname(dir);
      if (up === dir) return file;
      dir = up;
    }
  }
}

function defaultJournalFile(projectId: string, env: NodeJS.ProcessEnv): string {
  const state = env.XDG_STATE_HOME ?? path.join(os.homedir(), '.local', 'state');
  return path.join(state, 'brabo', `runner-${projectId.replace(/[^A-Za-z0-9._-]/g, '_')}.jsonl`);
}
