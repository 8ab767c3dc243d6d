// The published packages, as a user gets them: `npm run build`, both .tgz files, then on a plain
// Node 22 with nothing from this checkout on PATH:
//   npx ./brabo-gateway-<v>.tgz serve        -> answers /healthz and /readyz
//   npx ./brabo-runner-<v>.tgz --url … --project … --root …  -> runs an approved command
// plus what goes into each tarball and what the runner costs on disk once installed.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient, runApprovedCommand, runnerFlags, servedAt } from './gateway-client.ts';
import { freshPackages, type Child, cleanEnv, diskBytes, type Packages, spawnIn, tempDir } from './support.ts';

const ADMIN = 'dist-admin-token-0123456789abcdef';
const RUNNER_TARGET_BYTES = 15 * 1024 * 1024;

let packages: Packages;
let serve: Child;
let gateway: GatewayClient;
const children: Child[] = [];

// Asynchronous on purpose: a synchronous npm install blocks the event loop for a minute, and the
// next fetch then reuses a keep-alive socket whose close it never saw ("other side closed").
const run = promisify(execFile);

function rootPackage(): { version: string; dependencies: Record<string, string> } {
  return JSON.parse(readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string; dependencies: Record<string, string> };
}

/**
 * container_start then container_remove, run on plain Node by the installed package's own code
 * (the runner's lazy broker and its container action, as the runner wires them) on this machine's
 * Docker with the test image. Returns the two results the runner would send to the gateway.
 */
async function containerActions(nodeModules: string, root: string, projectId: string): Promise<Array<{ dispatchId: string; status: string; reason: { code: string; message: string } }>> {
  const dist = path.join(nodeModules, 'brabo-runner', 'dist', 'src', 'runner');
  const script = `
    const [{ lazyBroker }, { executeContainer }, { createJsonLog }] = await Promise.all(
      ['broker-loader.js', 'container-action.js', 'json-log.js'].map((file) => import(${JSON.stringify(pathToFileURL(dist).href)} + '/' + file)),
    );
    const logger = createJsonLog({ name: 'dist-test', level: 'silent', destination: { kind: 'none' } });
    const context = { projectId: ${JSON.stringify(projectId)}, root: ${JSON.stringify(root)}, broker: lazyBroker({ projectId: ${JSON.stringify(projectId)}, defaultImage: 'brabo-test-busybox:latest', logger }) };
    const results = [];
    results.push(await executeContainer({ dispatchId: 'container_start', attempt: 1, action: { type: 'container_start', resources: { cpus: 0.25, memoryMb: 64, pids: 64 } } }, context));
    results.push(await executeContainer({ dispatchId: 'container_remove', attempt: 1, action: { type: 'container_remove' } }, context));
    process.stdout.write(JSON.stringify(results));
  `;
  const file = path.join(tempDir('container-script'), 'container-actions.mjs');
  writeFileSync(file, script);
  return JSON.parse((await run('node', [file], { env: cleanEnv(), encoding: 'utf8' })).stdout);
}

function tarList(tgz: string): string[] {
  return execFileSync('tar', ['tzf', tgz], { encoding: 'utf8' }).trim().split('\n');
}

beforeAll(async () => {
  packages = freshPackages();
  const cwd = tempDir('serve');
  serve = spawnIn(path.dirname(packages.server), 'npx', ['--yes', `./${path.basename(packages.server)}`, 'serve', '--port', '0', '--data-dir', path.join(cwd, 'data')], cleanEnv({ BRABO_ADMIN_TOKEN: ADMIN }));
  children.push(serve);
  gateway = await new GatewayClient(await servedAt(serve, 240_000), ADMIN).start();
}, 600_000);

afterAll(async () => {
  await Promise.all(children.map((child) => child.stop()));
});

describe('brabo-gateway package', () => {
  it('carries the built JavaScript, the bin and the docs, and no sources, tests or benchmarks', () => {
    const files = tarList(packages.server);
    expect(files).toContain('package/bin/brabo.js');
    expect(files).toContain('package/dist/src/cli.js');
    expect(files).toContain('package/README.md');
    expect(files.filter((f) => /^package\/(test|bench|src|gateway|broker|runner-protocol|scripts|\.ci)\//.test(f))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.ts'))).toEqual([]);
  });

  it('npx brabo-gateway serve runs on plain Node 22: /healthz answers, the console is at /, --version names the package version', async () => {
    expect((await fetch(`${gateway.base}/healthz`)).status).toBe(200);
    expect(tarList(packages.server)).toContain('package/dist/console/index.html');
    expect((await fetch(`${gateway.base}/`)).status).toBe(401); // the login page (issue 12.2)
    const minted = await fetch(`${gateway.base}/api/credentials`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'human', memberId: 'olivia' }),
    });
    const { token } = (await minted.json()) as { token: string };
    const page = await fetch(`${gateway.base}/`, { headers: { authorization: `Bearer ${token}` } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>brabo console</title>');
    const { version } = rootPackage();
    const out = execFileSync('npx', ['--yes', `./${path.basename(packages.server)}`, '--version'], { env: cleanEnv(), cwd: path.dirname(packages.server), encoding: 'utf8' });
    expect(out).toContain(`brabo ${version} (node 22.`);
  });
});

describe('brabo-runner package', () => {
  it('holds only its own files and depends only on phoenix, ws, zod, with dockerode an optional peer', () => {
    const files = tarList(packages.runner);
    expect(files.filter((f) => !/^package\/(bin\/|dist\/|README\.md$|package\.json$)/.test(f))).toEqual([]);
    expect(files.filter((f) => /^package\/dist\/src\/(http|store|actions|policy|execution|agents)\//.test(f))).toEqual([]);
    const manifest = JSON.parse(execFileSync('tar', ['xzOf', packages.runner, 'package/package.json'], { encoding: 'utf8' })) as Record<string, Record<string, unknown>>;
    expect(Object.keys(manifest.dependencies ?? {}).sort()).toEqual(['phoenix', 'ws', 'zod']);
    // npm installs optionalDependencies by default; an optional peer only when asked for.
    expect(manifest.optionalDependencies).toBeUndefined();
    expect(manifest.peerDependencies).toEqual({ dockerode: `^${rootPackage().dependencies.dockerode}` });
    expect(manifest.peerDependenciesMeta).toEqual({ dockerode: { optional: true } });
  });

  it('installed as npx installs it: printed, within 15 MB, no dockerode; container actions name how to add it, and run with it', async () => {
    // What `npx ./brabo-runner-<v>.tgz` (or `npx -p … -p dockerode`) puts into its cache folder.
    const install = async (...alongside: string[]): Promise<string> => {
      const prefix = tempDir('size');
      await run('npm', ['install', '--silent', '--no-audit', '--no-fund', '--prefix', prefix, packages.runner, ...alongside], { env: cleanEnv() });
      return path.join(prefix, 'node_modules');
    };
    const plain = await install();
    const withDocker = await install('dockerode'); // as README says: npx -p <tgz> -p dockerode
    const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
    process.stdout.write(`brabo-runner installed size: ${mb(diskBytes(plain))} MB as installed by default (phoenix, ws, zod); ${mb(diskBytes(withDocker))} MB with dockerode added for container actions; target <= 15 MB\n`);
    expect(existsSync(path.join(plain, 'dockerode'))).toBe(false);
    expect(diskBytes(plain)).toBeLessThanOrEqual(RUNNER_TARGET_BYTES);

    const root = realpathSync(tempDir('container-root'));
    const projectId = `dist-${process.pid}`;
    try {
      const without = await containerActions(plain, root, projectId);
      expect(without).toHaveLength(2);
      for (const result of without) {
        expect(result).toMatchObject({ status: 'failed', reason: { code: 'broker_unavailable' } });
        expect(result.reason.message).toContain('-p dockerode');
      }
      expect(await containerActions(withDocker, root, projectId)).toMatchObject([
        { dispatchId: 'container_start', status: 'executed' },
        { dispatchId: 'container_remove', status: 'executed' },
      ]);
    } finally {
      execFileSync('sh', ['-c', `docker ps -aq --filter label=brabo.runner.project=${projectId} | xargs -r docker rm -f`], { stdio: 'ignore' });
    }
  }, 300_000);

  it('npx ./brabo-runner-<v>.tgz --url … --project … --root … runs an approved command from a real gateway', async () => {
    await runApprovedCommand(gateway, (url, projectId, root, token) => {
      const state = tempDir('state');
      const runner = spawnIn(
        path.dirname(packages.runner),
        'npx',
        ['--yes', `./${path.basename(packages.runner)}`, ...runnerFlags(url, projectId, root, state)],
        cleanEnv({ BRABO_RUNNER_TOKEN: token, XDG_STATE_HOME: state }),
      );
      children.push(runner);
      return runner;
    });
  }, 300_000);
});

