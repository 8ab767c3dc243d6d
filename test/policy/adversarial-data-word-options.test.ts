// Issue 9 A.5 / A.3, attacked: the data-word exemption (4892cc8) read only exact option names, so
// a GNU long-option prefix (`grep --rege=x ../s`, `sed --expr=p ../s`) left the real file operand
// read as the pattern and exempt; `sed --in s/a/b/ .git/config` edited a protected file in place;
// `sed -nfprog`, `sed --fil=prog`, `awk --exec=prog` read a program from a file (one `echo` can
// write with a `w ../x` in it); `sed --e='w ../x'` and `awk --so='…'` hid a writing program in an
// option value; and awk read outside files with `getline var < "../s"` and `ARGV[1]="../s"`.
// Each of these must now ask; the everyday forms stay auto-approved.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decide } from '../../src/policy/index.ts';
import type { Permissions } from '../../src/policy/index.ts';
import { MANUAL, NEVER_AUTO, auto, c, runCases, terminalInput } from './adversarial-harness.ts';

const TOOLS: Permissions = {
  allow: ['Terminal(grep:*)', 'Terminal(sed:*)', 'Terminal(awk:*)', 'Terminal(echo:*)', 'Terminal(cat:*)'],
  deny: [],
  ask: [],
};
const SETUP = { ...MANUAL, label: 'text tools allowed', permissions: TOOLS };
const ALLOWED = auto('permissions_allow');

runCases('issue 9 A.5 a GNU long-option prefix of the pattern option leaves the file operand judged', SETUP, [
  c('grep --rege=x ../s', NEVER_AUTO),
  c('grep --reg=x ../s', NEVER_AUTO),
  c('grep --regexp=x ../s', NEVER_AUTO),
  c('grep --rege=x -- ../s', NEVER_AUTO),
  c('grep -i --rege=x /etc/passwd', NEVER_AUTO),
  c('sed --expr=p ../s', NEVER_AUTO),
  c('sed --e=p ../s', NEVER_AUTO),
  c('sed --expres=p /etc/passwd', NEVER_AUTO),
  c('sed -n --exp=p ../s', NEVER_AUTO),
  c("awk --so='{print}' ../s", NEVER_AUTO),
  c("awk --sourc='{print}' /etc/passwd", NEVER_AUTO),
  c('grep --rege=../x f', ALLOWED, { note: 'the prefix value is the pattern: data' }),
  c("sed --expr='/../d' f", ALLOWED),
]);

runCases('issue 9 A.3 sed in place through a --in-place prefix', SETUP, [
  c('sed --in s/a/b/ .git/config', NEVER_AUTO),
  c('sed --in-pl=bak s/a/b/ permissions.json', NEVER_AUTO),
  c('sed --i s/a/b/ .git/hooks/pre-commit', NEVER_AUTO),
  c('sed -n --in-p s/a/b/ ../x', NEVER_AUTO),
]);

runCases('issue 9 A.3 sed and awk programs read from a file, in any spelling', SETUP, [
  c('sed -nfprog f', NEVER_AUTO),
  c('sed -nf prog f', NEVER_AUTO),
  c('sed --fil=prog f', NEVER_AUTO),
  c('sed --fil prog f', NEVER_AUTO),
  c('sed --fi=prog f', NEVER_AUTO),
  c('awk --fil=prog f', NEVER_AUTO),
  c('awk --exe=prog f', NEVER_AUTO),
  c('awk --exec prog f', NEVER_AUTO),
  c('awk -vx=1 -fprog f', NEVER_AUTO),
  c('awk --incl=lib.awk 1 f', NEVER_AUTO),
]);

runCases('issue 9 A.3 a writing program inside an option value', SETUP, [
  c("sed --e='w ../x' f", NEVER_AUTO),
  c("sed --expression='w .git/config' f", NEVER_AUTO),
  c("sed -e'w ../x' f", NEVER_AUTO),
  c("sed -ne'w ../x' f", NEVER_AUTO),
  c("sed -n -e p -e'1r /etc/passwd' f", NEVER_AUTO),
  c('awk --so=\'BEGIN{system("id")}\'', NEVER_AUTO),
  c('awk --source=\'{print > "../x"}\' f', NEVER_AUTO),
  c('awk -e\'BEGIN{system("id")}\'', NEVER_AUTO),
  c('awk -e \'-1{system("id")}\' f', NEVER_AUTO, { note: 'a program starting with - is still the program' }),
  c("awk -F'|' '{print $1}' f", ALLOWED, { note: 'a field separator is not a program' }),
  c("awk -i inplace '{print}' src/a.ts", NEVER_AUTO, {
    note: "gawk finds the inplace library in AWKPATH, which starts with the working directory: a project's ./inplace.awk runs",
  }),
  c("gawk --include=inplace '{print}' src/a.ts", NEVER_AUTO),
  c("gawk -iinplace '{print}' src/a.ts", NEVER_AUTO),
]);

runCases('issue 9 A.3 awk reads other files with getline VAR < FILE and ARGV', SETUP, [
  c('awk \'{getline l < "../s"; print l}\' f', NEVER_AUTO),
  c('awk \'{getline $0 < "/etc/passwd"; print}\' f', NEVER_AUTO),
  c('awk \'BEGIN{getline x<"../s";print x}\'', NEVER_AUTO),
  c('awk \'BEGIN{ RS="^$"; getline t <"../s"; print t }\'', NEVER_AUTO),
  c('awk \'{ n = getline line < "../s" }\' f', NEVER_AUTO),
  c('awk \'BEGIN{ARGV[1]="../s";ARGC=2}{print}\'', NEVER_AUTO),
  c('awk \'BEGIN{ARGV[ARGC++]="/etc/passwd"}{print}\'', NEVER_AUTO),
  c('awk -e \'BEGIN{ARGV[1]=".git/config"}1\'', NEVER_AUTO),
  c("awk '{getline l; print l}' f", ALLOWED, { note: 'getline from the input itself reads nothing else' }),
  c("awk 'NR < 3' f", ALLOWED),
]);

describe('issue 9 A.5 option-spelling property', () => {
  const policy = (command: string) => decide(terminalInput(SETUP, { command })).policy;
  const prefixOf = (full: string) => fc.integer({ min: 3, max: full.length }).map((n) => full.slice(0, n));
  it('RN-075 any prefix of the pattern option, glued or not, never exempts an outside file operand', () => {
    const shape = fc.oneof(
      fc.tuple(fc.constant('grep'), prefixOf('--regexp')),
      fc.tuple(fc.constant('sed'), prefixOf('--expression')),
      fc.tuple(fc.constant('awk'), prefixOf('--source')),
    );
    const outside = fc.constantFrom('../s', '/etc/passwd', '../../x', '..');
    fc.assert(
      fc.property(shape, outside, fc.boolean(), ([verb, option], file, glued) => {
        const program = verb === 'awk' ? "'{print}'" : 'p';
        const command = glued ? `${verb} ${option}=${program} ${file}` : `${verb} ${option} ${program} ${file}`;
        expect(policy(command), command).not.toBe('auto_approve');
      }),
      { numRuns: 200 },
    );
  });
});
