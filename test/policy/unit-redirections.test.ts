// What a redirection does with its target (redirections.ts), for the path scope and the scripts a
// command writes and runs: bash's rules for `>&word` (a descriptor when word is a number or -,
// else `&>word`), here-documents (no path), and which redirections read standard input or take
// standard output. Decisions on the same shapes: adversarial-numeric-redirect-targets and
// adversarial-written-scripts*.
import { describe, expect, it } from 'vitest';
import { printsInto, readsInputFrom, targetIsPath, writesTarget } from '../../src/policy/redirections.ts';
import type { Redirect } from '../../src/policy/tokenizer.ts';

const r = (op: string, target: string | null, fd?: string): Redirect =>
  fd === undefined ? { op, target } : { op, fd, target };

describe('targetIsPath', () => {
  it.each([
    [r('>', 'out'), true],
    [r('>', '2'), true], // `> 2` writes a file named 2
    [r('<', '-'), true],
    [r('>&', 'out'), true], // bash: `&>out`
    [r('>&', 'x2'), true],
    [r('>&', '2x'), true],
    [r('>&', '../..'), true],
    [r('>&', '-x'), true],
    [r('>&', ''), true], // an empty word is no descriptor
    [r('<&', 'in'), true],
    [r('>&', '2'), false],
    [r('>&', '12'), false],
    [r('>&', '-'), false], // closes the descriptor
    [r('<&', '3'), false],
    [r('<&', '-'), false],
    [r('<<', 'EOF'), false],
    [r('<<-', 'EOF'), false],
    [r('<<<', 'word'), false],
    [r('>', null), false],
  ])('%j: %s', (redirect, expected) => {
    expect(targetIsPath(redirect)).toBe(expected);
  });
});

describe('writesTarget', () => {
  it.each(['>', '>>', '>|', '&>', '&>>', '<>', '>&'])('%s writes its target', (op) => {
    expect(writesTarget(r(op, 'f'))).toBe(true);
  });
  it.each(['<', '<&', '<<', '<<<', '<<-'])('%s writes nothing', (op) => {
    expect(writesTarget(r(op, 'f'))).toBe(false);
  });
});

describe('readsInputFrom', () => {
  it.each([
    [r('<', 'f'), true],
    [r('<', 'f', '0'), true],
    [r('<>', 'f'), true],
    [r('<>', 'f', '0'), true],
    [r('<', 'f', '3'), false],
    [r('<>', 'f', '1'), false],
    [r('>', 'f'), false],
    [r('<&', 'f'), false],
    [r('<<<', 'f'), false],
  ])('%j: %s', (redirect, expected) => {
    expect(readsInputFrom(redirect)).toBe(expected);
  });
});

describe('printsInto', () => {
  it.each(['>', '>>', '>|', '&>', '&>>'])('%s takes standard output', (op) => {
    expect(printsInto(r(op, 'f'))).toBe(true);
    expect(printsInto(r(op, 'f', '1'))).toBe(true);
    expect(printsInto(r(op, 'f', '2'))).toBe(false);
  });
  it.each(['<', '<>', '>&', '<&', '<<'])('%s does not', (op) => {
    expect(printsInto(r(op, 'f'))).toBe(false);
    expect(printsInto(r(op, 'f', '1'))).toBe(false);
  });
});
