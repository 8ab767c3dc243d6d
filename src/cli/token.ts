// `brabo token mint|list|revoke|whoami`: manages credentials through the gateway's HTTP API
// (POST/GET/DELETE /api/credentials, GET /api/me). `mint` prints the secret alone on stdout, so
// `TOKEN=$(brabo token mint ...)` works; everything else a person reads goes to stderr or is a table.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

export const TOKEN_USAGE = `usage:
  brabo token mint --kind admin [--name NAME] [options]   (provisioning; needs an admin token)
  brabo token mint --kind agent --project ID --agent AGENT_ID [options]
  brabo token mint --kind human --member USER_ID [options]
  brabo token mint --kind service --name NAME [options]
  brabo token mint --kind runner --project ID [options]
  brabo token mint --kind executor --name NAME [--project ID] [options]
  brabo token list [--kind KIND] [--project ID] [--subject ID] [--all]
  brabo token revoke CREDENTIAL_ID
  brabo token whoami

options:
  --label TEXT        a note shown by \`list\` (where the token is used)
  --expires-in N[smhd] the token stops working after this long (e.g. 3600s, 12h, 90d)
  --json              print the API's JSON answer instead
  --url URL           the gateway (default $BRABO_URL or http://127.0.0.1:4000)
  --token TOKEN       the credential to call with (default $BRABO_TOKEN, else $BRABO_ADMIN_TOKEN,
                      else <data-dir>/admin-token); minting, listing and revoking need an admin token
  --data-dir DIR      where the first, generated admin token was written (default $BRABO_DATA_DIR or ./.brabo)

Rotating the admin token: mint a new one (--kind admin), switch to it, then revoke the old one
(the last live admin credential cannot be revoked: last_admin_credential).
`;

const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

class UsageError extends Error {}

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

export function parseDuration(text: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(text.trim());
  if (!match) throw new UsageError(`--expires-in ${JSON.stringify(text)} is not a duration (N, Ns, Nm, Nh or Nd)`);
  const seconds = Number(match[1]) * (UNITS[match[2] || 's'] ?? 1);
  if (seconds <= 0) throw new UsageError('--expires-in must be positive');
  return seconds;
}

function bearer(
  values: { token?: string | undefined; 'data-dir'?: string | undefined },
  env: NodeJS.ProcessEnv,
): string {
  const given = values.token ?? env.BRABO_TOKEN ?? env.BRABO_ADMIN_TOKEN;
  if (given) return given;
  const file = join(resolve(values['data-dir'] ?? env.BRABO_DATA_DIR ?? './.brabo'), 'admin-token');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    throw new UsageError(`no token: pass --token, set BRABO_TOKEN or BRABO_ADMIN_TOKEN, or run where ${file} exists`);
  }
}

interface Io {
  out(text: string): void;
  err(text: string): void;
}

const table = (rows: string[][]): string => {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return (
    rows
      .map((r) =>
        r
          .map((cell, i) => cell.padEnd(widths[i] ?? 0))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
};

export async function run(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: Io = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) },
): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    if (!(error instanceof UsageError) && !(error instanceof TypeError)) throw error;
    io.err(`brabo token: ${(error as Error).message}\n\n${TOKEN_USAGE}`);
    return EXIT.usage;
  }
  if (parsed === 'help') {
    io.out(TOKEN_USAGE);
    return EXIT.ok;
  }
  const { action, values, positionals } = parsed;
  let token: string;
  let request: { method: string; path: string; body?: unknown };
  try {
    token = bearer(values, env);
    request = requestOf(action, values, positionals);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`brabo token: ${error.message}\n\n${TOKEN_USAGE}`);
    return EXIT.usage;
  }
  const base = (values.url ?? env.BRABO_URL ?? 'http://127.0.0.1:4000').replace(/\/+$/, '');
  let response: Response;
  try {
    response = await fetch(`${base}${request.path}`, {
      method: request.method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    });
  } catch (error) {
    io.err(
      `brabo token: cannot reach the gateway at ${base} (${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message}); is \`brabo serve\` running there? (--url / BRABO_URL)\n`,
    );
    return EXIT.failed;
  }
  const text = await response.text();
  let body: any = null;
  try {
    body = text.length > 0 ? JSON.parse(text) : null;
  } catch {
    body = { error: 'unexpected_answer', message: text.slice(0, 200) };
  }
  if (!response.ok) {
    io.err(`brabo token ${action}: ${body?.error ?? response.status}: ${body?.message ?? ''}\n`);
    return EXIT.failed;
  }
  if (values.json) {
    io.out(`${JSON.stringify(body, null, 2)}\n`);
    return EXIT.ok;
  }
  switch (action) {
    case 'mint':
      io.err(
        `minted ${body.kind} token ${body.id}${body.expiresAt ? ` (expires ${body.expiresAt})` : ''}; it is shown once, keep it secret:\n`,
      );
      io.out(`${body.token}\n`);
      break;
    case 'list': {
      const rows = [['ID', 'KIND', 'PROJECT', 'SUBJECT', 'LABEL', 'EXPIRES', 'LAST USED', 'REVOKED']];
      for (const c of body.credentials)
        rows.push([
          c.id,
          c.kind,
          c.projectId ?? '-',
          c.agentId ?? c.memberId ?? c.name ?? '-',
          c.label ?? '-',
          c.expiresAt ?? 'never',
          c.lastUsedAt ?? 'never',
          c.revokedAt ?? '-',
        ]);
      io.out(table(rows));
      break;
    }
    case 'revoke':
      io.out(
        `revoked ${body.credential.kind} token ${body.credential.id}${body.socketsClosed > 0 ? `; ${body.socketsClosed} live socket(s) closed` : ''}\n`,
      );
      break;
    case 'whoami':
      io.out(
        `${body.kind} ${body.memberId ?? body.agentId ?? body.name ?? ''} (credential ${body.credentialId}${body.expiresAt ? `, expires ${body.expiresAt}` : ''})\n`,
      );
      for (const p of body.projects) io.out(`  ${p.projectId}  ${p.projectName}${p.role ? `  ${p.role}` : ''}\n`);
      if (body.allProjects) io.out('  (every project)\n');
      break;
  }
  return EXIT.ok;
}

function parse(argv: string[]) {
  const [action, ...rest] = argv;
  if (action === undefined || action === '--help' || action === '-h' || action === 'help') return 'help' as const;
  if (!['mint', 'list', 'revoke', 'whoami'].includes(action))
    throw new UsageError(`unknown subcommand ${JSON.stringify(action)}`);
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    strict: true,
    options: {
      kind: { type: 'string' },
      project: { type: 'string' },
      agent: { type: 'string' },
      member: { type: 'string' },
      name: { type: 'string' },
      subject: { type: 'string' },
      label: { type: 'string' },
      'expires-in': { type: 'string' },
      all: { type: 'boolean' },
      json: { type: 'boolean' },
      url: { type: 'string' },
      token: { type: 'string' },
      'data-dir': { type: 'string' },
    },
  });
  return { action: action as 'mint' | 'list' | 'revoke' | 'whoami', values, positionals };
}

type Values = Exclude<ReturnType<typeof parse>, 'help'>['values'];

function requestOf(
  action: 'mint' | 'list' | 'revoke' | 'whoami',
  values: Values,
  positionals: string[],
): { method: string; path: string; body?: unknown } {
  switch (action) {
    case 'mint': {
      if (!values.kind) throw new UsageError('mint needs --kind admin|agent|human|service|runner|executor');
      return {
        method: 'POST',
        path: '/api/credentials',
        body: {
          kind: values.kind,
          ...(values.project ? { projectId: values.project } : {}),
          ...(values.agent ? { agentId: values.agent } : {}),
          ...(values.member ? { memberId: values.member } : {}),
          ...(values.name ? { name: values.name } : {}),
          ...(values.label ? { label: values.label } : {}),
          ...(values['expires-in'] ? { expiresInSeconds: parseDuration(values['expires-in']) } : {}),
        },
      };
    }
    case 'list': {
      const query = new URLSearchParams();
      if (values.kind) query.set('kind', values.kind);
      if (values.project) query.set('projectId', values.project);
      if (values.subject) query.set('subject', values.subject);
      if (values.all) query.set('includeRevoked', 'true');
      const q = query.toString();
      return { method: 'GET', path: `/api/credentials${q ? `?${q}` : ''}` };
    }
    case 'revoke': {
      const [id, ...extra] = positionals;
      if (!id || extra.length > 0)
        throw new UsageError('revoke takes exactly one credential id (see `brabo token list`)');
      return { method: 'DELETE', path: `/api/credentials/${encodeURIComponent(id)}` };
    }
    case 'whoami':
      return { method: 'GET', path: '/api/me' };
  }
}
