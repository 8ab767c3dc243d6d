// RN-075, RN-418 and the built-in denies, for a script the command writes and then runs (found at
// stop 24): `echo 'rm -rf /' > x.sh; sh x.sh` hid the deny inside a file, and with echo and sh
// allowed `echo 'cat /etc/passwd' > x.sh && sh x.sh` read outside the project unseen, although
// the same text piped (`echo … | sh`) or given to `sh -c` was read. What echo or printf write into
// a file that a later fragment runs (`sh x.sh`, `bash -e x.sh`, `. ./x.sh`, `source x.sh`) is read
// as a command line now. A file written some other way stays unread, as any `sh x.sh` is.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decide } from '../../src/policy/index.ts';
import { MANUAL, ask, auto, c, deny, runCases, terminalInput } from './adversarial-harness.ts';

const TOOLS = 'echo printf sh bash dash zsh busybox source .';
const PERMS = { allow: TOOLS.split(' ').map((t) => `Terminal(${t}:*)`), deny: [], ask: [] };
const SETUP = { ...MANUAL, label: 'echo, printf and the shells allowed', permissions: PERMS };
const SCOPE = ask('ceiling_path_scope');
const ALLOWED = auto('permissions_allow');

runCases('RN-075 a script written and run in one command is read', SETUP, [
  c("echo 'rm -rf /' > x.sh; sh x.sh", deny('builtin_deny')),
  c("echo 'rm -rf /' > x.sh && bash x.sh", deny('builtin_deny')),
  c("echo 'cat /etc/passwd' > x.sh && sh x.sh", SCOPE),
  c("echo 'cat ~/.ssh/id_rsa' > run; dash run", SCOPE),
  c("echo 'cat ../secret' >> x.sh; sh ./x.sh", SCOPE),
  c("echo 'cat /etc/passwd' >| ./x.sh; sh x.sh", SCOPE),
  c("echo 'cat /etc/passwd' &> x.sh; sh -- x.sh", SCOPE),
  c("echo 'cat /etc/passwd' 1> x.sh; bash -e x.sh", SCOPE),
  c("echo -e 'ls\\ncat /etc/passwd' > x.sh; sh x.sh", SCOPE),
  c("printf 'cat /etc/passwd\\n' > x.sh; zsh x.sh", SCOPE),
  c("printf '%s\\n' 'cat /etc/shadow' > x; dash x", SCOPE),
  c("echo 'cat /etc/passwd' > x.sh; busybox sh x.sh", SCOPE),
  c("echo 'cat /etc/passwd' > x.sh; . ./x.sh", SCOPE),
  c("echo 'git push --force' > x.sh; bash -e x.sh", ask('ceiling_external_effect')),
  c("echo 'git push' > x.sh; bash -o errexit x.sh", ask('ceiling_external_effect')),
]);

runCases('RN-075 what is not that script stays as it was', SETUP, [
  c("echo 'echo hi' > x.sh && sh x.sh", ALLOWED),
  c("echo 'rm -rf /' > a.sh; sh b.sh", ALLOWED),
  // Standard error is not what echo prints.
  c("echo 'cat /etc/passwd' 2> x.sh; sh x.sh", ALLOWED),
  // -c runs its argument; x.sh is $0.
  c("echo 'cat /etc/passwd' > x.sh; sh -c 'echo ok' x.sh", ALLOWED),
  c('sh x.sh', ALLOWED),
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
