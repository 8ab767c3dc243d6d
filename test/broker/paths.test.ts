// Lexical cwd check (the first of the two checks before a command runs in /work).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCwdLexically } from '../../broker/paths.ts';

describe('checkCwdLexically (DiretorioForaDoEscopoError, RN-492 second boundary)', () => {
  it.each([
    ['/work', '/work'],
    ['/work/', '/work'],
    ['/work/src/./lib', '/work/src/lib'],
    ['//work//src', '/work/src'],
  ])('accepts %s as %s', (cwd, normalized) => {
    expect(checkCwdLexically(cwd)).toEqual({ ok: true, cwd: normalized });
  });

  it.each([
    ['', 'empty'],
    ['work/src', 'not an absolute path'],
    ['/work/../etc', '".." segment'],
    ['/work/src/../../etc', '".." segment'],
    ['/work/..', '".." segment'],
    ['/etc', 'not at or below /work'],
    ['/', 'not at or below /work'],
    ['/workspace', 'not at or below /work'],
    ['/work2/x', 'not at or below /work'],
    ['/proc/self/fd/3', 'not at or below /work'],
    ['/proc/self/cwd', 'not at or below /work'],
    ['/work/a\0b', 'NUL'],
  ])('refuses %j (%s)', (cwd, reason) => {
    const result = checkCwdLexically(cwd);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  it('property: whatever it accepts is a normalized path at or below /work without ".."', () => {
    const segment = fc.oneof(
      fc.constantFrom('work', '..', '.', '', 'src', 'proc', 'self', 'fd', '3'),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), fc.boolean(), (segments, absolute) => {
        const cwd = (absolute ? '/' : '') + segments.join('/');
        const result = checkCwdLexically(cwd);
        if (!result.ok) return;
        expect(result.cwd === '/work' || result.cwd.startsWith('/work/')).toBe(true);
        expect(result.cwd.split('/')).not.toContain('..');
        expect(result.cwd).not.toMatch(/\/\/|\/\.\/|\/$/);
      }),
      { numRuns: 2000 },
    );
  });

  it('property: any path with a ".." segment is refused', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z.]{0,4}$/), { maxLength: 4 }),
        fc.array(fc.stringMatching(/^[a-z.]{0,4}$/), { maxLength: 4 }),
        (before, after) => {
          const cwd = '/' + ['work', ...before, '..', ...after].join('/');
          expect(checkCwdLexically(cwd).ok).toBe(false);
        },
      ),
    );
  });
});
