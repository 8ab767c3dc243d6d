// scripts/npm-env.sh keeps the console's build in step with console/ for `./bin/brabo serve`:
// built on a fresh clone, not again while nothing changed, again after a change under console/
// (a pull), never inside a test run, and a failed build leaves the server starting. Run for real
// with a fake `npm` that records what it was asked and writes dist/console/index.html.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SCRIPTS = resolve(import.meta.dirname, '../../scripts');

/** A checkout with current node_modules and a console/ folder; `npm` fakes `npm run build:console`. */
function fakeCheckout(buildFails = false): { root: string; builds(): number } {
  const dir = mkdtempSync(join(tmpdir(), 'brabo-npm-env-'));
  const root = join(dir, 'checkout');
  const bin = join(dir, 'bin');
  const log = join(dir, 'npm.log');
  mkdirSync(join(root, 'node_modules'), { recursive: true });
  mkdirSync(join(root, 'console', 'src'), { recursive: true });
  mkdirSync(bin);
  writeFileSync(join(root, 'package-lock.json'), '{}');
  writeFileSync(join(root, 'node_modules', '.package-lock.json'), '{}');
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(join(root, 'package-lock.json'), hourAgo, hourAgo);
  writeFileSync(join(root, 'console', 'src', 'main.ts'), 'export {};\n');
  utimesSync(join(root, 'console', 'src', 'main.ts'), hourAgo, hourAgo);
  writeFileSync(
    join(bin, 'npm'),
    `#!/bin/sh
echo "$*" >> "${log}"
${buildFails ? 'echo "vite: build failed" >&2; exit 1' : 'mkdir -p dist/console && echo "<title>brabo console</title>" > dist/console/index.html'}
`,
  );
  chmodSync(join(bin, 'npm'), 0o755);
  return {
    root,
    builds: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').length : 0),
  };
}

function source(root: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolvePromise) => {
    // node-env.sh finds this machine's Node (>= 22.18: nothing to install) and defines the lock;
    // the checkout is then pointed at the fake one.
    const script = `. "${SCRIPTS}/node-env.sh" && _brabo_root="${root}" && _brabo_toolchain="${root}/.toolchain" && . "${SCRIPTS}/npm-env.sh" && echo sourced`;
    const child = spawn('bash', ['-c', script], {
      env: { PATH: `${join(dirname(root), 'bin')}:${dirname(process.execPath)}:/usr/bin:/bin`, HOME: tmpdir(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => resolvePromise({ code, out }));
  });
}

describe('scripts/npm-env.sh: the console build follows console/', () => {
  it('builds it on a fresh clone with a progress line, then not again while console/ is unchanged', async () => {
    const checkout = fakeCheckout();
    const first = await source(checkout.root);
    expect(first.out).toContain('brabo: building the console (npm run build:console');
    expect(first.out).toContain('sourced');
    expect(checkout.builds()).toBe(1);
    expect(existsSync(join(checkout.root, 'dist', 'console', 'index.html'))).toBe(true);

    const second = await source(checkout.root);
    expect(second.out).toBe('sourced\n');
    expect(checkout.builds()).toBe(1);
  });

  it('builds it again once a file under console/ is newer than the build (a pull), and only once', async () => {
    const checkout = fakeCheckout();
    await source(checkout.root);
    const index = join(checkout.root, 'dist', 'console', 'index.html');
    const twoHoursAgo = new Date(Date.now() - 7_200_000);
    utimesSync(index, twoHoursAgo, twoHoursAgo); // console/src/main.ts (an hour ago) is now newer
    await source(checkout.root);
    expect(checkout.builds()).toBe(2);
    await source(checkout.root);
    expect(checkout.builds()).toBe(2);
  });

  it('never builds inside a test run (VITEST set): the suites build their own', async () => {
    const checkout = fakeCheckout();
    const run = await source(checkout.root, { VITEST: 'true' });
    expect(run.out).toBe('sourced\n');
    expect(checkout.builds()).toBe(0);
  });

  it('a failed build is one sentence and the start goes on (/ then answers 503 saying what to run)', async () => {
    const checkout = fakeCheckout(true);
    const run = await source(checkout.root);
    expect(run.code).toBe(0);
    expect(run.out).toContain('vite: build failed');
    expect(run.out).toContain('brabo: the console could not be built (see above)');
    expect(run.out).toContain('sourced');
    expect(existsSync(join(checkout.root, '.toolchain', '.lock'))).toBe(false);
  });
});
