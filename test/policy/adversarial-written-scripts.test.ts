// RN-075, RN-418 and the built-in denies, for a script the command writes and then runs (found at
// stop 24): `echo 'rm -rf /' > x.sh; sh x.sh` hid the deny inside a file, and with echo and sh
// allowed `echo 'cat /etc/passwd' > x.sh && sh x.sh` read outside the project unseen. A first fix
// read what echo and printf print into the file; an attacker then wrote it with tee, cp, `cat >`,
// other redirections, printf conversions nobody renders, two writes, another spelling of the path,
// and ran it through standard input, a pipe, --rcfile or a nested `sh -c`. What such a file holds
// is only known when it runs, so a command that may write a script it runs asks
// (unsafe_shell_construct, script_written_and_run); what echo and printf print into it is still
// read, so a deny inside is a deny.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decide } from '../../src/policy/index.ts';
import { MANUAL, ask, auto, c, deny, runCases, terminalInput } from './adversarial-harness.ts';

const TOOLS = 'echo printf sh bash dash zsh busybox source . tee cat yes head cp cd env sort uniq';
const PERMS = { allow: TOOLS.split(' ').map((t) => `Terminal(${t}:*)`), deny: [], ask: [] };
const SETUP = { ...MANUAL, label: 'echo, printf and the shells allowed', permissions: PERMS };
const ALLOWED = auto('permissions_allow');

const WRITTEN_AND_RUN = ask('unsafe_shell_construct');

runCases('RN-075 a deny inside a written script is a deny', SETUP, [
  c("echo 'rm -rf /' > x.sh; sh x.sh", deny('builtin_deny')),
  c("echo 'rm -rf /' > x.sh && bash x.sh", deny('builtin_deny')),
  c("printf 'rm -rf /\\n' > x.sh; . ./x.sh", deny('builtin_deny')),
]);

runCases('RN-075 a script the command may write and then runs asks', SETUP, [
  ...[
    "echo 'echo hi' > x.sh && sh x.sh",
    "echo 'cat /etc/passwd' > x.sh && sh x.sh",
    "echo 'cat ~/.ssh/id_rsa' > run; dash run",
    "echo 'cat ../secret' >> x.sh; sh ./x.sh",
    "echo 'cat /etc/passwd' >| ./x.sh; sh x.sh",
    "echo 'cat /etc/passwd' &> x.sh; sh -- x.sh",
    "echo 'cat /etc/passwd' 1> x.sh; bash -e x.sh",
    "echo -e 'ls\\ncat /etc/passwd' > x.sh; sh x.sh",
    "printf 'cat /etc/passwd\\n' > x.sh; zsh x.sh",
    "echo 'cat /etc/passwd' > x.sh; busybox sh x.sh",
    "echo 'cat /etc/passwd' > x.sh; . ./x.sh",
    "echo 'git push --force' > x.sh; bash -e x.sh",
    "echo 'git push' > x.sh; bash -o errexit x.sh",
    // Other writers, other redirections.
    "echo 'rm -rf ~' | tee x.sh; sh x.sh",
    "echo 'git push' | tee -a x.sh > /dev/null; sh x.sh",
    "echo 'git push' | cat > x.sh; sh x.sh",
    "yes 'git push' | head -n1 > x.sh; sh x.sh",
    "echo 'cat ../secret' > x.sh; cat x.sh > y.sh; sh y.sh",
    'cp x.sh y.sh; sh y.sh',
    "echo 'git push' >&x.sh; bash x.sh",
    "echo 'git push' 2>x.sh 1>&2; sh x.sh",
    "echo 'cat ../secret' 3>x.sh >&3; sh x.sh",
    "echo 'cat ../secret' 1<>x.sh; sh x.sh",
    "printf 'git push\\n%e\\n' 1 > x.sh; sh x.sh",
    "printf '%ls\\n' 'git push' > x.sh; sh x.sh",
    "printf 'git ' > x.sh; printf 'push\\n' >> x.sh; sh x.sh",
    // The same file under another name.
    "echo 'git push' > /projects/app/x.sh; sh x.sh",
    "echo 'git push' > x.sh; sh /projects/app/x.sh",
    "echo 'git push' > .//x.sh; sh x.sh",
    "echo 'git push' > x.sh; sh d/../x.sh",
    "echo 'git push' > x.sh; sh x.s?",
    "echo 'git push' > x.sh; sh x.s[h]",
    "echo 'cat ../secret' > d/x.sh; cd d; sh x.sh",
    // Read through standard input, a descriptor, a pipe, an option.
    "echo 'git push' > x.sh; sh < x.sh",
    "echo 'git push' > x.sh; sh -s < x.sh",
    "echo 'git push' > x.sh; < x.sh sh",
    "echo 'git push' > x.sh; sh /dev/stdin < x.sh",
    "echo 'git push' > x.sh; cat x.sh | sh",
    "echo 'git push' > x.sh; cat < x.sh | sh",
    "echo 'git push' > x.sh; bash --rcfile x.sh -i",
    "echo 'git push' > x.sh; env BASH_ENV=x.sh bash -c ls",
    // Nested: the write or the run inside sh -c, a script that runs another.
    "echo 'git push' > x.sh; sh -c 'sh x.sh'",
    "echo 'git push' > x.sh; sh -ec 'sh x.sh'",
    "echo 'git push' > x.sh; sh -c ./x.sh",
    'sh -c "echo \'cat ../secret\' > x.sh"; sh x.sh',
    "echo 'git push' > y.sh; echo 'sh y.sh' > x.sh; sh x.sh",
    // Found by a reviewer: a number or - as the file, input through <>, longer pipelines, a glob
    // in the written name, another letter case (macOS).
    "printf 'git push\\n%e\\n' 1 > 2; sh 2",
    "echo 'git push' > -; sh ./-",
    "echo 'git push' > x.sh; sh <> x.sh",
    "echo 'git push' > x.sh; sh 0<>x.sh",
    "echo 'git push' > x.sh; cat x.sh | cat | sh",
    "echo 'git push' > y; sort y | uniq | sh",
    "printf 'git push' > buil[d].sh; sh build.sh",
    "echo 'git push' > X.SH; sh x.sh",
  ].map((command) => c(command, WRITTEN_AND_RUN)),
]);

runCases('RN-075 what writes no script it runs stays as it was', SETUP, [
  c("echo 'rm -rf /' > a.sh; sh b.sh", ALLOWED),
  // -c runs its argument; x.sh is $0.
  c("echo 'cat /etc/passwd' > x.sh; sh -c 'echo ok' x.sh", ALLOWED),
  c('sh x.sh', ALLOWED),
  c('sh x.sh > out.log', ALLOWED),
  c("echo 'ls' | sh", ALLOWED),
  c('echo done > status.txt; sh build.sh', ALLOWED),
  c('sh build.sh < input.txt', ALLOWED),
  c("echo 'git status' | cat | sh", ALLOWED),
]);

describe('RN-075 property: a written script that reads outside never auto-approves', () => {
  it('any writer, redirection, shell and spelling of the file', () => {
    const writer = fc.constantFrom("echo 'cat /etc/passwd'", "printf 'cat /etc/passwd\\n'", "echo -n 'cat ../x'");
    const op = fc.constantFrom('>', '>>', '>|', '&>', '1>');
    const shell = fc.constantFrom('sh', 'bash', 'dash', 'zsh', 'bash -e', 'sh --', '.');
    const file = fc.constantFrom('x.sh', 'run', 'a.b');
    const dotted = fc.boolean();
    const sep = fc.constantFrom('; ', ' && ');
    fc.assert(
      fc.property(writer, op, shell, file, dotted, sep, (w, o, sh, f, dot, s) => {
        const command = `${w} ${o} ${f}${s}${sh} ${dot ? `./${f}` : f}`;
        expect(decide(terminalInput(SETUP, { command })).policy, command).not.toBe('auto_approve');
      }),
    );
  });
});
