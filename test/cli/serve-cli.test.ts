// `brabo serve` and the top-level command as a user meets them: --version, --help that lists
// every flag and variable, start-up failures as one line with a code and a next step (exit 2
// for usage, 1 otherwise, no stack trace unless BRABO_DEBUG), deprecated variable names that
// still work with one warning.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RENAMED_VARIABLES } from '../../src/env-names.ts';

const BRABO = resolve(import.meta.dirname, '../../bin/brabo');
const TOKEN = 'serve-cli-admin-token-0123456789';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** This environment without any brabo variable (new or old name): what a user's shell has. */
function userEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(BRABO_|HOST$|PORT$|LOG_LEVEL$|DATABASE_URL$|PROJECT_WORKSPACES_ROOT$)/.test(name),
    ),
  );
}

/** Runs brabo until it exits, or until `until` matches its stdout (then SIGTERM). */
function brabo(args: string[], env: NodeJS.ProcessEnv = {}, until?: RegExp): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(BRABO, args, { env: { ...userEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (until?.test(stdout)) child.kill('SIGTERM');
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'brabo-serve-cli-'));
const version = (
  JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string }
).version;
const servers: Server[] = [];
afterAll(() => servers.forEach((server) => server.close()));

/** A TCP port something else already listens on. */
function busyPort(): Promise<number> {
  return new Promise((resolvePort) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      servers.push(server);
      const address = server.address();
      resolvePort(typeof address === 'object' && address ? address.port : 0);
    });
  });
}

function expectOneLine(run: Run, command: string, code: RegExp): void {
  const lines = run.stderr.trim().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^${command}: ${code.source}: \\S.*; `));
  expect(run.stderr).not.toMatch(/\n\s+at /); // no stack frames
}

describe('brabo --version / --help', () => {
  it.each([['--version'], ['-V'], ['version']])(
    '%s prints the package version and the Node version, exit 0',
    async (flag) => {
      const run = await brabo([flag]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`brabo ${version} (node ${process.versions.node})\n`);
    },
  );

  it("top-level help names the commands that exist (serve runs the console) and how to get each one's options", async () => {
    const run = await brabo(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/serve .*console.*\n.*runner.*\n.*check/);
    expect(run.stdout).toContain('--version');
  });

  it('serve says where the console is, and / answers as that line says (the page, or 503 naming the build)', async () => {
    const child = spawn(BRABO, ['serve', '--port', '0', '--data-dir', join(dir, 'console')], {
      env: { ...userEnv(), BRABO_ADMIN_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      let out = '';
      for await (const chunk of child.stdout) {
        out += String(chunk);
        if (out.includes('admin token in')) break;
      }
      const address = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      expect(address, out).toBeDefined();
      const built = out.includes(`brabo serve: console at ${address}/ (log in with a human token`);
      if (!built) expect(out).toContain('brabo serve: console not built: / answers 503 until `npm run build`');
      // Without a credential: the login page (issue 12.2); with a person's token: the console, or the 503.
      const anonymous = await fetch(`${address}/`);
      expect(anonymous.status).toBe(401);
      expect(await anonymous.text()).toContain('<form id="login"');
      const human = await fetch(`${address}/api/credentials`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'human', memberId: 'olivia' }),
      });
      const { token } = (await human.json()) as { token: string };
      const response = await fetch(`${address}/`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(built ? 200 : 503);
      expect(await response.text()).toContain(built ? '<title>brabo console</title>' : 'npm run build');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('serve --help lists every flag it accepts and the variables behind them', async () => {
    const run = await brabo(['serve', '--help']);
    expect(run.code).toBe(0);
    for (const flag of [
      '--port',
      '--host',
      '--data-dir',
      '--docker',
      '--container-image',
      '--runner-grace-ms',
      '--delivery-timeout-ms',
      '--help',
    ])
      expect(run.stdout).toContain(flag);
    for (const variable of [
      'BRABO_PORT',
      'BRABO_HOST',
      'BRABO_DATA_DIR',
      'BRABO_DOCKER',
      'BRABO_ADMIN_TOKEN',
      'BRABO_DATABASE_URL',
      'BRABO_LOG_LEVEL',
      'BRABO_DEBUG',
    ]) {
      expect(run.stdout).toContain(variable);
    }
    for (const old of Object.values(RENAMED_VARIABLES)) expect(run.stdout).toContain(old);
    // Every BRABO_ variable the server's code reads (the runner's and the token CLI's have their own help).
    const read = new Set<string>();
    for (const file of serverSources(join(import.meta.dirname, '../../src')))
      for (const match of readFileSync(file, 'utf8').matchAll(/BRABO_[A-Z][A-Z_]*[A-Z]/g)) read.add(match[0]);
    for (const hook of ['BRABO_TEST_FAULT', 'BRABO_RUNNER_FAULT']) read.delete(hook); // test fault hooks, not settings
    expect(read.size).toBeGreaterThan(25);
    for (const variable of read)
      expect({ variable, listed: run.stdout.includes(variable) }).toEqual({ variable, listed: true });
  });

  it('runner --help lists its variables too', async () => {
    const run = await brabo(['runner', '--help']);
    expect(run.code).toBe(0);
    for (const text of [
      '--url',
      '--token',
      '--project',
      '--root',
      '--log-file',
      'BRABO_RUNNER_TOKEN',
      'XDG_STATE_HOME',
      'NO_COLOR',
    ])
      expect(run.stdout).toContain(text);
  });
});

describe('brabo serve start-up failures: one line, a code, the next step', () => {
  const file = join(dir, 'a-file');
  writeFileSync(file, '');

  it.each([
    ['an unknown flag', ['serve', '--prot', '4000'], {}, /usage/],
    ['a log level that does not exist', ['serve', '--port', '0'], { BRABO_LOG_LEVEL: 'bogus' }, /config_invalid/],
    ['the old LOG_LEVEL name with a bad value', ['serve', '--port', '0'], { LOG_LEVEL: 'loud' }, /config_invalid/],
    ['a port that is not a number', ['serve', '--port', '40x'], {}, /config_invalid/],
    ['a port out of range in the environment', ['serve'], { BRABO_PORT: '70000' }, /config_invalid/],
    [
      'a database URL of another kind',
      ['serve', '--port', '0'],
      { BRABO_DATABASE_URL: 'mysql://u@h/db' },
      /config_invalid/,
    ],
    ['a short admin token', ['serve', '--port', '0'], { BRABO_ADMIN_TOKEN: 'short' }, /config_invalid/],
  ])('%s: exit 2 (usage)', async (_what, args, env, code) => {
    const run = await brabo(args, { BRABO_DATA_DIR: join(dir, 'usage'), ...env });
    expect(run.code).toBe(2);
    expectOneLine(run, 'brabo serve', code);
  });

  it('a data dir below a file: exit 1, data_dir_unusable names the dir and what to pass', async () => {
    const run = await brabo(['serve', '--port', '0', '--data-dir', join(file, 'data')], { BRABO_ADMIN_TOKEN: TOKEN });
    expect(run.code).toBe(1);
    expectOneLine(run, 'brabo serve', /data_dir_unusable/);
    expect(run.stderr).toContain(join(file, 'data'));
    expect(run.stderr).toContain('--data-dir');
  });

  it('a port in use: exit 1, port_in_use names the address and what to do', async () => {
    const port = await busyPort();
    const run = await brabo(['serve', '--port', String(port), '--data-dir', join(dir, 'busy')], {
      BRABO_ADMIN_TOKEN: TOKEN,
    });
    expect(run.code).toBe(1);
    expectOneLine(run, 'brabo serve', /port_in_use/);
    expect(run.stderr).toContain(`127.0.0.1:${port}`);
    expect(run.stdout).not.toMatch(/listening on/);
  });

  it('BRABO_DEBUG=1 adds the stack trace under the same line', async () => {
    const run = await brabo(['serve', '--port', '0', '--data-dir', join(file, 'data')], {
      BRABO_ADMIN_TOKEN: TOKEN,
      BRABO_DEBUG: '1',
    });
    expect(run.code).toBe(1);
    expect(run.stderr.split('\n')[0]).toMatch(/^brabo serve: data_dir_unusable: /);
    expect(run.stderr).toMatch(/\n\s+at /);
  });
});

describe('old variable names', () => {
  it('still work, with one warning each on stderr; stdout still says where it listens', async () => {
    const run = await brabo(
      ['serve', '--data-dir', join(dir, 'old-names')],
      { BRABO_ADMIN_TOKEN: TOKEN, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      /admin token in/,
    );
    expect(run.stdout).toMatch(/^brabo serve: listening on http:\/\/127\.0\.0\.1:\d+/m);
    const warnings = run.stderr.split('\n').filter((line) => line.includes('deprecated'));
    expect(warnings.sort()).toEqual([
      'brabo serve: warning: HOST is deprecated; rename it to BRABO_HOST (the old name still works for now)',
      'brabo serve: warning: LOG_LEVEL is deprecated; rename it to BRABO_LOG_LEVEL (the old name still works for now)',
      'brabo serve: warning: PORT is deprecated; rename it to BRABO_PORT (the old name still works for now)',
    ]);
  });

  it('the new name wins over the old one, and the warning says the old one is ignored', async () => {
    const run = await brabo(
      ['serve', '--data-dir', join(dir, 'both')],
      { BRABO_ADMIN_TOKEN: TOKEN, BRABO_PORT: '0', PORT: '1' },
      /admin token in/,
    );
    expect(run.stdout).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(run.stderr).toContain('PORT is deprecated and ignored because BRABO_PORT is also set');
  });
});

/** The server's sources: src/ without the runner and the token CLI, which have their own --help. */
function serverSources(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'runner') files.push(...serverSources(path));
    } else if (entry.name.endsWith('.ts') && !['runner.ts', 'token.ts'].includes(entry.name)) files.push(path);
  }
  return files;
}
