// Builds the runner package (brabo-runner) from dist/ (run `npm run build` first): the compiled
// files the runner's entry reaches through relative imports, its bin and README, and a
// package.json whose dependencies are exactly phoenix, ws, zod at the versions the gateway pins,
// with dockerode an optional peer: npm installs it only when asked (`npx -p <tgz> -p dockerode`),
// since it is 18 MB of the 27 and only container actions load it (on first use). Fails when the
// runner imports any other package, so a new import cannot silently grow the runner. Prints the
// path of the packed .tgz.
//   node scripts/pack-runner.ts [--out build/packages]
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '..');
const ENTRY = 'dist/src/cli/runner.js';
const RUNTIME = ['phoenix', 'ws', 'zod'];
/** Loaded on first use by container actions only; never installed by default (an optional peer). */
const OPTIONAL_PEERS = ['dockerode'];

interface RootPackage {
  version: string;
  license?: string;
  dependencies: Record<string, string>;
}

/**
 * Every file reached from `entry` through relative static or dynamic imports, and the packages it
 * names; with `staticOnly`, through static imports only (what loads when the entry starts).
 */
export function importClosure(
  root: string,
  entry: string,
  { staticOnly = false }: { staticOnly?: boolean } = {},
): { files: string[]; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [path.join(root, entry)];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (files.has(file)) continue;
    if (!existsSync(file)) throw new Error(`${path.relative(root, file)} is imported but missing; run npm run build`);
    files.add(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(
      /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s*['"]([^'"]+)['"]/gm,
    )) {
      if (staticOnly && match[2] !== undefined) continue;
      const spec = match[1] ?? match[2] ?? match[3] ?? '';
      if (spec.startsWith('.')) pending.push(path.resolve(path.dirname(file), spec));
      else if (!spec.startsWith('node:'))
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec));
    }
  }
  return { files: [...files].sort(), packages };
}

export function packRunner(outDir: string): string {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as RootPackage;
  const { files, packages } = importClosure(ROOT, ENTRY);
  const allowed = new Set([...RUNTIME, ...OPTIONAL_PEERS]);
  const extra = [...packages].filter((name) => !allowed.has(name));
  if (extra.length > 0)
    throw new Error(
      `the runner imports ${extra.join(', ')}; the runner package may depend only on ${[...allowed].join(', ')}`,
    );
  // An optional peer is absent from a default install: the runner must start without it.
  const eager = OPTIONAL_PEERS.filter((name) => importClosure(ROOT, ENTRY, { staticOnly: true }).packages.has(name));
  if (eager.length > 0)
    throw new Error(
      `the runner imports ${eager.join(', ')} at start-up; an optional peer may only be loaded with import() on first use`,
    );

  const stage = path.join(ROOT, 'build', 'runner-package');
  rmSync(stage, { recursive: true, force: true });
  for (const file of files) {
    const target = path.join(stage, path.relative(ROOT, file));
    mkdirSync(path.dirname(target), { recursive: true });
    cpSync(file, target);
  }
  cpSync(path.join(ROOT, 'packaging/runner/bin'), path.join(stage, 'bin'), { recursive: true });
  cpSync(path.join(ROOT, 'packaging/runner/README.md'), path.join(stage, 'README.md'));
  const pin = (name: string): string => {
    const version = pkg.dependencies[name];
    if (version === undefined) throw new Error(`package.json does not pin ${name}`);
    return version;
  };
  const manifest = {
    name: 'brabo-runner',
    version: pkg.version,
    description: 'The local runner of brabo-gateway: runs the commands approved for one project on this machine.',
    type: 'module',
    license: pkg.license ?? 'UNLICENSED',
    engines: { node: '>=22' },
    os: ['linux', 'darwin'],
    bin: { 'brabo-runner': 'bin/brabo-runner.js' },
    files: ['bin/', 'dist/', 'README.md'],
    dependencies: Object.fromEntries(RUNTIME.map((name) => [name, pin(name)])),
    // Not optionalDependencies: npm installs those by default. An optional peer it leaves out
    // unless the user installs it alongside (`npx -p <tgz> -p dockerode`); a caret range of the
    // pinned version, so a plain `-p dockerode` resolves while its major stays the tested one.
    peerDependencies: Object.fromEntries(OPTIONAL_PEERS.map((name) => [name, `^${pin(name)}`])),
    peerDependenciesMeta: Object.fromEntries(OPTIONAL_PEERS.map((name) => [name, { optional: true }])),
  };
  writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  mkdirSync(outDir, { recursive: true });
  const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', outDir], { cwd: stage, encoding: 'utf8' });
  const name = out.trim().split('\n').pop() ?? '';
  return path.join(outDir, name);
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  process.stdout.write(`${packRunner(path.resolve(values.out ?? path.join(ROOT, 'build', 'packages')))}\n`);
}
