// RN-075 / issue 9 A.3 (found by the scope.ts mutation work at stop 24): a redirection whose
// target is a number was read as a file descriptor for every operator, so `echo x > 2` run inside
// `.git` (`cd .git && echo x > 2`) was auto-approved although it writes `.git/2`, and anything
// inside `.git` is protected. Only `>&` and `<&` take a descriptor (`>&2`, `<&0`, `>&-`); after
// `>`, `>>`, `2>`, `&>`, `&>>`, `<>` and `>|` a number is a file's name.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decide } from '../../src/policy/index.ts';
import { MANUAL, ROOT, ask, auto, c, runCases, terminalInput } from './adversarial-harness.ts';

const PERMS = { allow: ['echo', 'cat', 'ls', 'printf'].map((t) => `Terminal(${t}:*)`), deny: [], ask: [] };
const SETUP = { ...MANUAL, label: 'echo, cat, ls and printf allowed', permissions: PERMS };
const IN_GIT = `${ROOT}/.git`;
const PROTECTED = ask('protected_file_write');
const ALLOWED = auto('permissions_allow');

runCases('RN-075 a number after a file redirection is a file name', SETUP, [
  c('cd .git && echo x > 2', PROTECTED),
  c('cd .git && echo x >> 7', PROTECTED),
  c('cd .git && echo x 2> 1', PROTECTED),
  c('cd .git && echo x &> 3', PROTECTED),
  c('cd .git && echo x &>> 2', PROTECTED),
  c('cd .git && echo x >| 2', PROTECTED),
  c('cd .git && cat <> 2', PROTECTED),
  c('cd .git/hooks && printf x > 1', PROTECTED),
  c('cd .git && echo x 1> 0', PROTECTED),
  c('echo x > 2', PROTECTED, { cwd: IN_GIT }),
  c('echo x >> 10', PROTECTED, { cwd: IN_GIT }),
  c('echo x 2>> 9', PROTECTED, { cwd: IN_GIT }),
  c('echo x > 2', ALLOWED),
  c('echo x 2> 1', ALLOWED),
]);

runCases('RN-075 a descriptor after >& and <& is no file', SETUP, [
  c('cd .git && echo x >&2', ALLOWED),
  c('cd .git && echo x 1>&2', ALLOWED),
  c('cd .git && echo x >&-', ALLOWED),
  c('cd .git && echo x >& 2', ALLOWED),
  c('cd .git && cat <&0', ALLOWED),
  c('echo x >&2', ALLOWED, { cwd: IN_GIT }),
  c('echo x 2>&1', ALLOWED),
  c('cd .git && echo x >& config', PROTECTED),
]);

runCases('RN-075 a relative scope root is no root', SETUP, [
  c('ls', ask('ceiling_path_scope'), { root: 'projects/app' }),
  c('echo x', ask('ceiling_path_scope'), { root: 'app' }),
]);

describe('RN-075 property: inside .git, every file redirection to a number asks', () => {
  it('any file operator, any number', () => {
    const op = fc.constantFrom('>', '>>', '2>', '&>', '&>>', '>|', '1>', '2>>');
    fc.assert(
      fc.property(op, fc.nat({ max: 99 }), (redirect, n) => {
        const command = `cd .git && echo x ${redirect} ${n}`;
        expect(decide(terminalInput(SETUP, { command })).policy, command).not.toBe('auto_approve');
      }),
    );
  });
});
