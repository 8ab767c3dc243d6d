// Issue 9 A.5, second round: a grep pattern, a sed script, an awk program or field separator and
// echo's or printf's arguments are data, not paths. `grep -rn '../lib' src` and `echo '../x'`
// read nothing outside the project and stay auto-approved when their verb is allowed. The real
// file operands of these commands stay judged (`grep x ../secret`, `grep -f ../pats f`, `sed -i …
// ../x`, redirections), and data that is piped on into a command that may open it (`echo ../x |
// xargs cat`) counts as a path again.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decide } from '../../src/policy/index.ts';
import type { Permissions } from '../../src/policy/index.ts';
import { MANUAL, ask, auto, c, runCases, terminalInput } from './adversarial-harness.ts';

const TOOLS: Permissions = {
  allow: [
    'Terminal(grep)',
    'Terminal(egrep)',
    'Terminal(awk)',
    'Terminal(sed)',
    'Terminal(echo)',
    'Terminal(printf)',
    'Terminal(head)',
    'Terminal(xargs cat)',
    'Terminal(sort)',
  ],
  deny: [],
  ask: [],
};
const SETUP = { ...MANUAL, label: 'text tools allowed', permissions: TOOLS };
const ALLOWED = auto('permissions_allow');
const SCOPE = ask('ceiling_path_scope');

runCases('issue 9 A.5 grep patterns are not paths', SETUP, [
  c("grep -rn '../lib' src", ALLOWED),
  c('grep "/etc/hosts" f', ALLOWED),
  c("grep -E '/usr/(lib|bin)' src/a.ts", ALLOWED),
  c('grep -e ../x f', ALLOWED),
  c('grep --regexp=../x f', ALLOWED),
  c('grep -rne ../x src', ALLOWED, { note: '-e at the end of a cluster takes the next word' }),
  c('grep -A 3 ../x f', ALLOWED, { note: '-A takes a number, the pattern follows' }),
  c('grep -- ../x f', ALLOWED),
  c("grep --include='*.ts' -rn '/api/' src", ALLOWED),
  c("egrep '^/' src/a.ts", ALLOWED),
  c("grep -c '/' f", ALLOWED),
  c('grep -rn /home/ src | head', ALLOWED, { note: 'head opens nothing it reads' }),
]);

runCases('issue 9 A.5 sed scripts and awk programs are not paths', SETUP, [
  c("sed -n '/^$/d' f", ALLOWED),
  c("sed 's#/usr#/opt#' f", ALLOWED),
  c("sed -e 's/..\\/x//' f", ALLOWED),
  c("sed -n -e '/\\/etc/p' src/a.ts", ALLOWED),
  c("sed --expression='/../d' f", ALLOWED),
  c("awk -F/ '{print $NF}' f", ALLOWED),
  c("awk -F '/' '{print $2}' f", ALLOWED),
  c("awk '/\\/etc/ {print}' f", ALLOWED),
  c("awk -v dir=/etc '{print dir}' f", ALLOWED),
  c('awk \'{print "../x"}\' f | sort', ALLOWED),
]);

runCases('issue 9 A.5 echo and printf arguments are not paths', SETUP, [
  c("echo '../x'", ALLOWED),
  c('echo ../x', ALLOWED),
  c('echo /etc/passwd', ALLOWED),
  c('echo $((1+2))', ALLOWED),
  c('echo "$(( (1 + 2) * 3 ))"', ALLOWED),
  c('echo $(( 1 << 4 ))', ALLOWED),
  c("printf '%s\\n' /etc/passwd ../x", ALLOWED),
  c('printf "%d\\n" $((7*6))', ALLOWED),
  c('echo ../a ../../b /c', ALLOWED),
  c('echo ../x | head', ALLOWED),
]);

runCases('issue 9 A.5 the real file operands stay judged', SETUP, [
  c('grep x ../secret', SCOPE),
  c('grep -rn x /etc', SCOPE),
  c('grep -i ../x ../y', SCOPE, { note: 'the pattern is data, the file is not' }),
  c('grep -f ../pats f', SCOPE, { note: 'a pattern file is read' }),
  c('grep --file=../pats f', SCOPE),
  c('grep -e x -- ../secret', SCOPE, { note: 'with -e every positional is a file' }),
  c('grep --exclude-from=../list x f', SCOPE),
  c("sed -i 's/a/b/' ../x", SCOPE),
  c('sed -e s/a/b/ ../x', SCOPE),
  c('sed -i../bak s/a/b/ f', SCOPE, { note: 'a backup suffix is a path' }),
  c("awk '{print}' ../f", SCOPE),
  c("egrep '^/' ../f", SCOPE),
  c('echo x > ../y', SCOPE),
  c("grep x f > '../out'", SCOPE),
  c('echo ~/x', SCOPE, { note: 'an unquoted ~ names the home folder' }),
  c('echo ../secret | xargs cat', SCOPE, { note: 'the words become xargs cat paths' }),
  c('echo ../secret | head | xargs cat', SCOPE),
  c("awk -v p=../s 'BEGIN{print p}' | xargs cat", SCOPE),
  c('printf ../s | xargs cat', SCOPE),
  c('sh -c "echo ../x"', ask(), { note: 'nested fragments are not exempted' }),
]);

describe('issue 9 A.5 data-word properties', () => {
  const policy = (command: string) => decide(terminalInput(SETUP, { command })).policy;
  const outsideWord = fc.constantFrom('../x', '../../etc', '/etc/passwd', '/root/.ssh/id_rsa', '..', '../a/b.txt');
  it('a grep/sed/awk/echo of any outside-looking data word is auto-approved when the files are inside', () => {
    const shape = fc.constantFrom(
      (w: string) => `grep -rn '${w}' src`,
      (w: string) => `grep -e '${w}' src/a.ts`,
      (w: string) => `sed -n '\\#${w}#p' f`,
      (w: string) => `awk -v p='${w}' '{print p}' f`,
      (w: string) => `echo '${w}'`,
      (w: string) => `printf '%s' '${w}'`,
    );
    fc.assert(
      fc.property(outsideWord, shape, (w, make) => {
        const command = make(w);
        expect(policy(command), command).toBe('auto_approve');
      }),
      { numRuns: 200 },
    );
  });
  it('RN-075 the same commands with an outside file operand are never auto-approved', () => {
    const shape = fc.constantFrom(
      (w: string, f: string) => `grep -rn '${w}' ${f}`,
      (w: string, f: string) => `grep -e '${w}' -- ${f}`,
      (w: string, f: string) => `sed -n '\\#${w}#p' ${f}`,
      (w: string, f: string) => `awk -v p='${w}' '{print p}' ${f}`,
      (w: string, f: string) => `echo '${w}' > ${f}`,
      (w: string, f: string) => `grep -f ${f} '${w}'`,
      (w: string) => `echo '${w}' | xargs cat`,
    );
    fc.assert(
      fc.property(outsideWord, outsideWord, shape, (w, f, make) => {
        const command = make(w, f);
        expect(policy(command), command).not.toBe('auto_approve');
      }),
      { numRuns: 300 },
    );
  });
});
