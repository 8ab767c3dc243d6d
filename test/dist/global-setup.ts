// test:dist: `npm run build` and both .tgz files in build/packages, once per run, handed to every
// test file (freshPackages in support.ts): a build takes most of a minute.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { packRunner } from '../../scripts/pack-runner.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

export default function setup(project: TestProject): void {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  const out = path.join(ROOT, 'build', 'packages');
  mkdirSync(out, { recursive: true });
  const runner = packRunner(out);
  const packed = execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', out], { cwd: ROOT, encoding: 'utf8' });
  project.provide('packages', { server: path.join(out, packed.trim().split('\n').pop() ?? ''), runner });
}
