// RN-075 / issue 9 A.3 (found by the scope.ts mutation work of this stop): a path that starts with
// `-` was read as an option glued to its value. `-x/../permissions.json` became
// `/../permissions.json` (the system's /permissions.json), so in auto mode `echo x >
// -x/../permissions.json` and `cp -- a -x/../permissions.json` were auto-approved, and the shell
// wrote the root's permissions.json once a folder named `-x` existed (`mkdir -- -x` is in scope).
// A redirection's target is never an option, and a writer's operand after `--` is a file name as it
// stands: both are read literally now (the option reading is kept for operands as well).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decide } from '../../src/policy/index.ts';
import { AUTO, MANUAL, ask, auto, c, runCases, terminalInput } from './adversarial-harness.ts';

const AUTO_ALL = { ...AUTO, label: 'auto mode', permissions: { allow: ['*'], deny: [], ask: [] } };
const WRITERS = {
  allow: ['echo', 'cp', 'tee', 'mv', 'touch', 'rm', 'ln', 'mkdir', 'sed'].map((t) => `Terminal(${t}:*)`),
  deny: [],
  ask: [],
};
const MANUAL_WRITERS = { ...MANUAL, label: 'writers allowed', permissions: WRITERS };
const PROTECTED = ask('protected_file_write');

const ROWS = [
  c('echo x > -x/../permissions.json', PROTECTED),
  c('echo x >> -x/../.git/hooks/pre-commit', PROTECTED),
  c('echo x 2> -q/../.git/config', PROTECTED),
  c('echo x &> -x/../permissions.json', PROTECTED),
  c('echo x >| -x/../permissions.json', PROTECTED),
  c('echo x > "-x/../permissions.json"', PROTECTED),
  c('echo x > -x/./../.git/config', PROTECTED),
  c('cp -- a -x/../permissions.json', PROTECTED),
  c('cp -- a -x/../.git/hooks/post-checkout', PROTECTED),
  c('tee -- -x/../permissions.json', PROTECTED),
  c('mv -- b -y/../.git/config', PROTECTED),
  c('touch -- -x/../.git/config', PROTECTED),
  c('rm -- -x/../permissions.json', PROTECTED),
  c('ln -s /tmp/x -- -x/../permissions.json', PROTECTED),
  c('sed -i s/a/b/ -- -x/../permissions.json', PROTECTED),
  c('echo x > -x/y', auto('agent_autonomy_auto_approve'), { note: 'a file inside a folder named -x' }),
  c('echo x > -x', auto('agent_autonomy_auto_approve')),
];

runCases('RN-075 auto mode: a path starting with - is a file name in a redirection or after --', AUTO_ALL, ROWS);
runCases('RN-075 writers allowed: the same paths', MANUAL_WRITERS, [
  ...ROWS.slice(0, 15),
  c('echo x > -x/y', auto('permissions_allow')),
  c('mkdir -- -x', auto('permissions_allow')),
]);

describe('RN-075 property: a dash-named folder never hides a protected write', () => {
  it('any -name/.. prefix before a protected path, in a redirection or after --', () => {
    const target = fc.constantFrom('permissions.json', '.git/config', '.git/hooks/pre-commit', '.git/hooks');
    const prefix = fc.stringMatching(/^-[a-zA-Z]{1,4}$/);
    const form = fc.constantFrom('echo x > P', 'echo x >> P', 'cp -- a P', 'tee -- P', 'touch -- P', 'mv -- a P');
    fc.assert(
      fc.property(form, prefix, fc.integer({ min: 0, max: 2 }), target, (shape, dash, dots, file) => {
        const path = `${dash}/${'x/../'.repeat(dots)}../${file}`;
        const command = shape.replace('P', path);
        expect(decide(terminalInput(AUTO_ALL, { command })).policy, command).not.toBe('auto_approve');
      }),
    );
  });
});
