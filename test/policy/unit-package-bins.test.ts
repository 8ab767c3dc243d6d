// packageBinReading (issue 9 A.4): which words after pnpm, yarn or bun are one more reading. pnpm
// hands npm's own commands to npm (`pnpm whoami`), so for pnpm those are not binaries; yarn and
// bun run a binary of that name.
import { describe, expect, it } from 'vitest';
import { packageBinReading } from '../../src/policy/package-bins.ts';

const reading = (line: string): readonly string[] | null => {
  const view = line.split(' ');
  return packageBinReading(view[0]!, view);
};

describe('packageBinReading', () => {
  it.each(['pnpm', 'yarn', 'bun'])('%s BINARY ARGS reads BINARY ARGS', (manager) => {
    expect(reading(`${manager} git push`)).toEqual(['git', 'push']);
    expect(reading(`${manager} eslint .`)).toEqual(['eslint', '.']);
    expect(reading(`${manager} kubectl`)).toEqual(['kubectl']);
  });

  it.each([
    'pnpm install',
    'pnpm i',
    'pnpm dlx x',
    'pnpm catalog',
    'yarn add x',
    'yarn workspaces',
    'yarn npm publish',
    'bun x y',
    'bun feedback',
    'bun run build',
  ])('%s is the manager’s own command', (line) => {
    expect(reading(line)).toBeNull();
  });

  it('an npm command is pnpm’s own (pnpm hands it to npm), not yarn’s or bun’s', () => {
    for (const word of ['whoami', 'view', 'show', 'token', 'dist-tag', 'deprecate']) {
      expect(reading(`pnpm ${word} x`)).toBeNull();
      expect(reading(`yarn ${word} x`)).toEqual([word, 'x']);
      expect(reading(`bun ${word} x`)).toEqual([word, 'x']);
    }
  });

  it('another verb, an option first, or no word after the manager reads nothing more', () => {
    expect(reading('npm git push')).toBeNull();
    expect(reading('npx git push')).toBeNull();
    expect(reading('pnpm')).toBeNull();
    expect(reading('yarn -s git')).toBeNull();
    expect(reading('bun --bun vite')).toBeNull();
  });
});
