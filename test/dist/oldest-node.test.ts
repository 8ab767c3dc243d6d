// The published packages on the oldest Node they accept, Node 22.0, on Node 22.5, whose
// node:sqlite answers a query that matches nothing with a row of NULLs, and on Node 22.6, the first
// whose node:sqlite (behind --experimental-sqlite until 22.13) the store can use; each from the
// npm registry as scripts/node-env.sh installs Node. Installed as npx installs them, then run
// through their bins with that Node first on PATH and nothing from this checkout:
//   22.0: serve on SQLite stops with sqlite_unavailable; serve on Postgres is ready, and the
//         runner joins it and runs an approved command
//   22.5: serve on SQLite stops with sqlite_unavailable, naming the bug
//   22.6: serve re-runs itself with the flag, its SQLite store is ready, the runner runs an
//         approved command through it, and a SIGTERM to its
//         process group (a Ctrl-C reaches the whole group too) stops it gracefully, exit 0
import { execFile, execFileSync } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSchemas } from '../store/contract-postgres.ts';
import { GatewayClient, runApprovedCommand, runnerFlags, servedAt } from './gateway-client.ts';
import { freshPackages, type Child, cleanEnv, registryNodeBin, spawnIn, tempDir } from './support.ts';

const OLDEST = '22.0.0';
const SQLITE_WRONG = '22.5.0';
const FIRST_SQLITE = '22.6.0';
const ADMIN = 'dist-admin-token-0123456789abcdef';

const run = promisify(execFile);
const children: Child[] = [];
const schemas = new TestSchemas();
let installed: string;

/** The installed package's bin, run as npx runs it: by its `#!/usr/bin/env node` on `nodeVersion`. */
function startBin(name: string, args: string[], nodeVersion: string, env: NodeJS.ProcessEnv = {}): Child {
  const child = spawnIn(tempDir('cwd'), path.join(installed, 'node_modules', '.bin', name), args, cleanEnv(env, registryNodeBin(nodeVersion)));
  children.push(child);
  return child;
}

function serve(nodeVersion: string, env: NodeJS.ProcessEnv = {}): { child: Child; dataDir: string } {
  const dataDir = path.join(tempDir('serve'), 'data');
  return { child: startBin('brabo-gateway', ['serve', '--port', '0', '--data-dir', dataDir], nodeVersion, { BRABO_ADMIN_TOKEN: ADMIN, ...env }), dataDir };
}

/** Processes whose command line names `needle` (the re-run server has its own pid and group). */
function processesNaming(needle: string): string[] {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n').filter((line) => line.includes(needle) && !line.startsWith('ps '));
}

beforeAll(async () => {
  const packages = freshPackages();
  installed = tempDir('installed');
  // Both Nodes first (from the registry, cached), then the packages as npx installs a .tgz, but
  // without dependency install scripts: neither package has any, and the one native build among
  // the dependencies (cpu-features, optional for ssh2 under dockerode) made this file take 181 s
  // on a loaded machine instead of 16 s. packages.test.ts installs with them.
  for (const version of [OLDEST, SQLITE_WRONG, FIRST_SQLITE]) registryNodeBin(version);
  await run('npm', ['install', '--silent', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', '--prefix', installed, packages.server, packages.runner], { env: cleanEnv() });
}, 600_000);

afterAll(async () => {
  await Promise.all(children.map((child) => child.stop()));
  await schemas.dropAll();
});

describe(`on Node ${OLDEST}, the oldest Node the packages accept`, () => {
  it('brabo-gateway serve on the default SQLite store stops at once with sqlite_unavailable, naming BRABO_DATABASE_URL and Node 22.13', async () => {
    const { child } = serve(OLDEST);
    expect(await child.exited).toBe(1);
    const lines = child.output().trim().split('\n');
    expect(lines).toEqual([
      `brabo serve: sqlite_unavailable: the embedded SQLite store cannot run on Node ${OLDEST}: it has no node:sqlite (that comes with Node 22.5, behind --experimental-sqlite until 22.13); set BRABO_DATABASE_URL to a Postgres database, or upgrade Node to 22.13 or later`,
    ]);
  }, 60_000);

  it('brabo-gateway serve on Postgres is ready, and brabo-runner on the same Node runs an approved command', async () => {
    const version = execFileSync(path.join(installed, 'node_modules', '.bin', 'brabo-gateway'), ['--version'], { env: cleanEnv({}, registryNodeBin(OLDEST)), encoding: 'utf8' });
    expect(version).toContain(`(node ${OLDEST})`);
    const { child } = serve(OLDEST, { BRABO_DATABASE_URL: (await schemas.create()).url });
    const gateway = await new GatewayClient(await servedAt(child, 60_000), ADMIN).start();
    expect(await gateway.call('GET', '/readyz')).toMatchObject({ status: 200, body: { status: 'ready' } });
    await runApprovedCommand(gateway, (url, projectId, root, token) => {
      const state = tempDir('state');
      return startBin('brabo-runner', runnerFlags(url, projectId, root, state), OLDEST, { BRABO_RUNNER_TOKEN: token, XDG_STATE_HOME: state });
    });
  }, 120_000);
});

describe(`on Node ${SQLITE_WRONG}, whose node:sqlite finds rows that do not exist`, () => {
  it('brabo-gateway serve on SQLite stops at once with sqlite_unavailable, naming the bug and BRABO_DATABASE_URL', async () => {
    const { child } = serve(SQLITE_WRONG);
    expect(await child.exited).toBe(1);
    expect(child.output().trim().split('\n')).toEqual([
      `brabo serve: sqlite_unavailable: the embedded SQLite store cannot run on Node ${SQLITE_WRONG}: its node:sqlite answers a query that matches nothing with a row of NULLs (Node 22.5; fixed in 22.6); set BRABO_DATABASE_URL to a Postgres database, or upgrade Node to 22.13 or later`,
    ]);
  }, 60_000);
});

describe(`on Node ${FIRST_SQLITE}, where node:sqlite needs --experimental-sqlite`, () => {
  it('brabo-gateway serve re-runs itself with the flag: the SQLite store is ready, the runner runs an approved command, and a SIGTERM to the server\'s process group stops it gracefully', async () => {
    const { child, dataDir } = serve(FIRST_SQLITE);
    const gateway = await new GatewayClient(await servedAt(child, 60_000), ADMIN).start();
    expect(await gateway.call('GET', '/readyz')).toMatchObject({ status: 200, body: { status: 'ready', checks: [{ name: 'store', ok: true }] } });
    await runApprovedCommand(gateway, (url, projectId, root, token) => {
      const state = tempDir('state');
      return startBin('brabo-runner', runnerFlags(url, projectId, root, state), FIRST_SQLITE, { BRABO_RUNNER_TOKEN: token, XDG_STATE_HOME: state });
    });
    expect(processesNaming(dataDir).some((line) => line.includes('--experimental-sqlite'))).toBe(true);
    expect(child.output()).not.toContain('ExperimentalWarning');
    expect(await child.stop('SIGTERM')).toBe(0);
    expect(child.output().match(/"msg":"shutting down"/g)).toHaveLength(1);
    expect(processesNaming(dataDir)).toEqual([]);
  }, 120_000);
});
