// RN-006 / issue 15.7: a protected merge target stays protected under every spelling git accepts
// for it (remote prefix, refs/ namespaces, letter case, blanks, revision suffixes), and a name
// whose last segment is not protected is never made protected by a prefix.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isProtectedBranch, PROTECTED_BRANCHES } from '../../src/policy/index.ts';

const segment = fc.stringMatching(/^[a-z][a-z0-9._-]{0,11}$/);
const prefix = fc.oneof(
  fc.constant(''),
  fc.constant('refs/heads/'),
  segment.map((remote) => `${remote}/`),
  segment.map((remote) => `remotes/${remote}/`),
  segment.map((remote) => `refs/remotes/${remote}/`),
);
const suffix = fc.constantFrom('', '^{}', '~0', '~1', '^', '@{u}', '@{upstream}');
const blanks = fc.constantFrom('', ' ', '\t', '  ');
const recase = (text: string, mask: boolean[]): string =>
  [...text].map((c, i) => (mask[i % mask.length] ? c.toUpperCase() : c)).join('');

describe('RN-006 isProtectedBranch properties', () => {
  it('RN-006 every remote/ref/case/suffix spelling of a protected branch is protected', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PROTECTED_BRANCHES),
        prefix,
        suffix,
        blanks,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
        (branch, before, after, blank, mask) => {
          expect(isProtectedBranch(`${blank}${recase(`${before}${branch}`, mask)}${after}${blank}`)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('RN-006 a prefix never makes an unprotected last segment protected', () => {
    fc.assert(
      fc.property(prefix, segment, (before, name) => {
        fc.pre(!PROTECTED_BRANCHES.includes(name));
        expect(isProtectedBranch(`${before}${name}`)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});
