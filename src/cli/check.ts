// `brabo check`: explains what decide() says about a command, for a person (one command, fragment
// by fragment) or for a program (`--jsonl`: one JSON request per stdin line, one JSON answer per
// stdout line, same order, streamed with bounded memory).
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  EMPTY_PERMISSIONS,
  decide,
  isActionType,
  isRole,
  parsePermissions,
  parsePermissionsText,
} from '../policy/index.ts';
import type {
  ActionType,
  Decision,
  DecisionInput,
  Permissions,
  Policy,
  ResolvedAutonomy,
  Role,
} from '../policy/index.ts';
import { describeVerdict } from '../live/fragment-words.ts';

const EXIT_OK = 0;
const EXIT_USAGE = 2;

export const CHECK_USAGE = `usage: brabo check [options] -- COMMAND
       brabo check --jsonl < requests.jsonl

Explains the policy decision for one terminal command, fragment by fragment.

options:
  --permissions FILE     permissions.json to use (default: ROOT/permissions.json when it exists)
  --root DIR             the project's scope root (default: the current directory)
  --cwd DIR              where the command runs (default: ROOT; relative to ROOT)
  --role ROLE            developer | maintainer | owner (default: maintainer)
  --autonomy MODE[:ORIGIN]
                         agent_autonomy: auto_approve | require_approval | deny, origin
                         especifica (default) | curinga (auto mode)
  --container-running    the project's container is running (container floor)
  --jsonl                read JSON requests from stdin, write one JSON answer per line
  -h, --help             this text

Exit code: 0 whatever the decision; 2 on a usage error or an unusable permissions file (a broken
file still shows the decision the server would make with it: nothing auto-approved).
`;

/** A usage or input problem; its message is shown to the person as is. */
export class CheckUsageError extends Error {
  override name = 'CheckUsageError';
}

const POLICIES: readonly Policy[] = ['auto_approve', 'require_approval', 'deny'];
const ORIGINS = ['especifica', 'curinga'] as const;

export function parseAutonomy(value: unknown): ResolvedAutonomy | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    const [mode, origin = 'especifica', extra] = value.split(':');
    return parseAutonomy(extra === undefined ? { mode, origin } : { mode: value, origin: '' });
  }
  if (typeof value !== 'object') throw new CheckUsageError('autonomy must be null or {"mode", "origin"}');
  const { mode, origin } = value as Record<string, unknown>;
  if (!POLICIES.includes(mode as Policy)) {
    throw new CheckUsageError(`autonomy mode must be one of ${POLICIES.join(', ')} (got ${JSON.stringify(mode)})`);
  }
  if (!(ORIGINS as readonly unknown[]).includes(origin)) {
    throw new CheckUsageError(`autonomy origin must be one of ${ORIGINS.join(', ')} (got ${JSON.stringify(origin)})`);
  }
  return { mode: mode as Policy, origin: origin as ResolvedAutonomy['origin'] };
}

const DECISION_WORDS: Record<Policy, string> = {
  auto_approve: 'auto_approve (runs without asking anyone)',
  require_approval: 'require_approval (waits for a person to approve it)',
  deny: 'deny (refused; nothing can reverse it)',
};

export function renderHuman(
  command: string,
  input: DecisionInput,
  decision: Decision,
  permissionsSource: string,
): string {
  const lines = [
    `decision:    ${DECISION_WORDS[decision.policy]}`,
    `rule:        ${decision.reasonCode}: ${decision.reason}`,
    `command:     ${command}`,
    `root:        ${input.scopeRoot}`,
    `cwd:         ${String(input.payload['cwd'])}`,
    `role:        ${input.role}`,
    `autonomy:    ${input.autonomy ? `${input.autonomy.mode} (${input.autonomy.origin})` : 'none'}`,
    `container:   ${input.containerRunning ? 'running (container floor applies)' : 'not running'}`,
    `permissions: ${permissionsSource}`,
  ];
  const fragments = decision.fragments ?? [];
  if (fragments.length > 0) {
    lines.push('fragments:');
    const width = Math.min(48, Math.max(...fragments.map((f) => f.text.length)));
    fragments.forEach((fragment, i) => {
      lines.push(`  ${String(i + 1).padStart(2)}. ${fragment.text.padEnd(width)}  ${describeVerdict(fragment)}`);
    });
  }
  return `${lines.join('\n')}\n`;
}

interface LoadedPermissions {
  permissions: Permissions;
  source: string;
  /** The file exists but is broken: the sentence naming the PermissionsError (the server then auto-approves nothing). */
  broken: string | null;
}

async function loadPermissions(file: string | undefined, root: string): Promise<LoadedPermissions> {
  const path = resolve(file ?? resolve(root, 'permissions.json'));
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (file === undefined && code === 'ENOENT') {
      return {
        permissions: EMPTY_PERMISSIONS,
        source: `none (${path} does not exist: every list is empty)`,
        broken: null,
      };
    }
    throw new CheckUsageError(`cannot read permissions file ${path}: ${code ?? (error as Error).message}`);
  }
  const parsed = parsePermissionsText(text);
  if (!parsed.ok) {
    // Decided as the server decides on a broken file: with the salvaged deny/ask only, and never
    // auto-approved. The error is shown with it.
    const { deny, ask } = parsed.salvaged;
    return {
      permissions: parsed.salvaged,
      source: `${path} is BROKEN: only its ${deny.length} deny and ${ask.length} ask entries count, and nothing is auto-approved until it is fixed`,
      broken: `${parsed.error.name} (${parsed.error.code}) in ${path}: ${parsed.error.message}`,
    };
  }
  const { allow, deny, ask } = parsed.value;
  return {
    permissions: parsed.value,
    source: `${path} (${allow.length} allow, ${deny.length} deny, ${ask.length} ask)`,
    broken: null,
  };
}

type CheckValues = ReturnType<typeof parseCheckArgs>['values'];

async function checkOne(values: CheckValues, words: string[]): Promise<number> {
  const command = words.join(' ');
  if (command.trim() === '') throw new CheckUsageError('no command given: brabo check [options] -- COMMAND');
  const role: unknown = values.role ?? 'maintainer';
  if (!isRole(role)) throw new CheckUsageError(`--role must be developer, maintainer or owner (got "${String(role)}")`);
  const root = resolve(values.root ?? process.cwd());
  const cwd = values.cwd === undefined ? root : resolve(root, values.cwd);
  const autonomy = parseAutonomy(values.autonomy);
  const { permissions, source, broken } = await loadPermissions(values.permissions, root);
  const input: DecisionInput = {
    actionType: 'terminal',
    payload: { command, cwd },
    role: role as Role,
    autonomy,
    permissions,
    scopeRoot: root,
    containerRunning: values['container-running'] === true,
    ...(broken !== null ? { permissionsBroken: true } : {}),
  };
  process.stdout.write(renderHuman(command, input, decide(input), source));
  if (broken !== null) {
    process.stderr.write(`brabo check: ${broken}\n`);
    return EXIT_USAGE;
  }
  return EXIT_OK;
}

export async function run(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseCheckArgs>;
  try {
    parsed = parseCheckArgs(argv);
  } catch (error) {
    process.stderr.write(`brabo check: ${(error as Error).message}\n\n${CHECK_USAGE}`);
    return EXIT_USAGE;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(CHECK_USAGE);
    return EXIT_OK;
  }
  if (values.jsonl) {
    const extra = Object.entries(values)
      .filter(([k, v]) => k !== 'jsonl' && v !== undefined)
      .map(([k]) => k);
    if (extra.length > 0 || positionals.length > 0) {
      process.stderr.write(
        `brabo check: --jsonl takes its requests from stdin only (drop ${[...extra.map((k) => `--${k}`), ...positionals].join(' ')})\n`,
      );
      return EXIT_USAGE;
    }
    const { runJsonl } = await import('./check-jsonl.ts');
    return runJsonl(process.stdin, process.stdout);
  }
  try {
    return await checkOne(values, positionals);
  } catch (error) {
    if (!(error instanceof CheckUsageError)) throw error;
    process.stderr.write(`brabo check: ${error.message}\n`);
    return EXIT_USAGE;
  }
}

function parseCheckArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      permissions: { type: 'string' },
      root: { type: 'string' },
      cwd: { type: 'string' },
      role: { type: 'string' },
      autonomy: { type: 'string' },
      'container-running': { type: 'boolean' },
      jsonl: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: true,
  });
}

/** One `--jsonl` request turned into a DecisionInput; throws CheckUsageError naming the field. */
export function requestToInput(request: unknown, defaultRoot: string): DecisionInput {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    throw new CheckUsageError('a request must be a JSON object');
  }
  const r = request as Record<string, unknown>;
  const actionType: unknown = r['actionType'] ?? 'terminal';
  if (!isActionType(actionType)) throw new CheckUsageError(`unknown actionType ${JSON.stringify(actionType)}`);
  const role: unknown = r['role'] ?? 'maintainer';
  if (!isRole(role))
    throw new CheckUsageError(`role must be developer, maintainer or owner (got ${JSON.stringify(role)})`);
  const root = r['root'] ?? defaultRoot;
  if (typeof root !== 'string') throw new CheckUsageError('root must be a string');
  const cwd = r['cwd'] ?? root;
  if (typeof cwd !== 'string') throw new CheckUsageError('cwd must be a string');
  const rawPayload = r['payload'] ?? {};
  if (typeof rawPayload !== 'object' || rawPayload === null || Array.isArray(rawPayload)) {
    throw new CheckUsageError('payload must be a JSON object');
  }
  const payload = rawPayload as Record<string, unknown>;
  const containerRunning = r['containerRunning'] ?? false;
  if (typeof containerRunning !== 'boolean') throw new CheckUsageError('containerRunning must be true or false');
  let command: unknown;
  if (actionType === 'terminal') {
    command = r['command'] ?? payload['command'];
    if (typeof command !== 'string') throw new CheckUsageError('command must be a string (terminal requests need one)');
  }
  const parsedPermissions = r['permissions'] === undefined ? null : parsePermissions(r['permissions']);
  if (parsedPermissions && !parsedPermissions.ok) {
    throw new CheckUsageError(
      `permissions: ${parsedPermissions.error.name} (${parsedPermissions.error.code}): ${parsedPermissions.error.message}`,
    );
  }
  return {
    actionType: actionType as ActionType,
    payload: actionType === 'terminal' ? { ...payload, command, cwd } : payload,
    role: role as Role,
    autonomy: parseAutonomy(r['autonomy']),
    permissions: parsedPermissions ? parsedPermissions.value : EMPTY_PERMISSIONS,
    scopeRoot: root,
    containerRunning,
  };
}
