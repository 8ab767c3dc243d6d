// Command lines a shell reads from a pipe (issue 9 A.4 and A.1/RN-075 through stdin, found after
// stop 20): with echo and the shell allowed, `echo 'git push' | sh` ran past deny
// Terminal(git push), `echo 'rm -rf /' | sh` past the built-in deny, `echo 'cat ../s' | sh` past
// the path scope, and `echo 'git push' | at now` scheduled what was denied. `sh -c 'git push'` was
// always read. When the text is on the command line (echo, printf, yes with literal words, past
// `cat` and `tee`), it is read like `sh -c TEXT`. A script nobody can read here (`cat x.sh | sh`)
// stays as `sh x.sh` is.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/index.ts';
import { AUTO, MANUAL, ask, auto, c, deny, runCases, terminalInput } from './adversarial-harness.ts';

const CONSUMERS = [
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'mksh',
  'busybox sh',
  'sh -s',
  'bash -s -- a b',
  'sh -',
  'bash -e',
  'sh -eu',
  'bash --norc',
  'bash -o pipefail',
  'sh -x',
  '/bin/sh',
  '/usr/bin/bash',
  'at now',
  'at now + 1 minute',
  'at -m noon',
  'batch',
  'nice sh',
  'timeout 5 bash',
  'env A=1 sh',
  'sudo -u app sh',
];
const PRODUCERS = [
  "echo 'CMD'",
  'echo CMD',
  "echo -n 'CMD'",
  "echo -e 'CMD'",
  "printf 'CMD'",
  "printf '%s\\n' 'CMD'",
  "printf -- '%s' 'CMD'",
  "yes 'CMD'",
  "echo 'ls; CMD'",
  "echo 'ls\\nCMD'",
  "printf 'ls\\nCMD\\n'",
  "echo 'CMD' | cat",
  "echo 'CMD' | tee log.txt",
  "echo 'CMD' | cat - | tee -a log.txt",
  "nice echo 'CMD'",
];
const everyShell = [
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'mksh',
  'busybox',
  'at',
  'batch',
  'nice',
  'timeout',
  'env',
  'sudo',
  'printf',
  'yes',
  'tee',
].map((v) => `Terminal(${v}:*)`);
const PERMS = {
  allow: [
    'Terminal(echo:*)',
    'Terminal(cat:*)',
    'Terminal(ls:*)',
    'Terminal(/bin/sh:*)',
    'Terminal(/usr/bin/bash:*)',
    ...everyShell,
  ],
  deny: ['Terminal(git push)', 'Terminal(npm publish)'],
  ask: [],
};
const SETUP = { ...MANUAL, label: 'echo, printf and the shells allowed; git push denied', permissions: PERMS };
const SETUP_AUTO = { ...AUTO, label: 'auto mode; git push denied', permissions: PERMS };

const pipe = (producer: string, command: string, consumer: string): string =>
  `${producer.replace('CMD', command)} | ${consumer}`;

describe('RN-418 deny through a command line piped into a shell', () => {
  const rows = PRODUCERS.flatMap((p) => CONSUMERS.map((s) => c(pipe(p, 'git push', s), deny('permissions_deny'))));
  runCases('deny Terminal(git push) holds for the line a shell reads from a pipe', SETUP, rows);
  runCases(
    'and in auto mode',
    SETUP_AUTO,
    rows.filter((_, k) => k % 7 === 0),
  );
  runCases('the built-in deny holds', SETUP, [
    c("echo 'rm -rf /' | sh", deny('builtin_deny')),
    c("printf 'rm -rf /\\n' | bash", deny('builtin_deny')),
    c("echo 'ls; rm -rf /' | at now", deny('builtin_deny')),
    c("yes 'rm -rf /' | sh", deny('builtin_deny')),
  ]);
  runCases('spellings the shell reads as the denied command', SETUP, [
    c("echo 'git\\040push' | sh", deny('permissions_deny'), { note: "dash's echo reads \\040 as a space" }),
    c("printf 'git\\x20push' | sh", deny('permissions_deny')),
    c("printf 'git %s\\n' push | sh", deny('permissions_deny')),
    c("printf '%s %s\\n' git push | bash", deny('permissions_deny')),
    c("printf '%-4s%s' git push | sh", deny('permissions_deny'), { note: 'the width pads git with a space' }),
    c("printf '%4s%s\\n' 'git' ' push' | sh", deny('permissions_deny')),
    c("printf '%.3s %s' gitx push | sh", deny('permissions_deny'), { note: 'the precision cuts gitx to git' }),
    c("printf '%-*s%s' 4 git push | sh", deny('permissions_deny')),
    c("printf '%*s%s' -4 git push | sh", deny('permissions_deny'), { note: 'a negative width left-justifies' }),
    c("printf '%c%c%c %s' g i t push | sh", deny('permissions_deny')),
    c('echo "\'git\' push" | sh', deny('permissions_deny')),
    c("echo 'g''it' push | sh", deny('permissions_deny')),
    c("echo 'env git push' | sh", deny('permissions_deny')),
    c('echo "sh -c \'git push\'" | sh', deny('permissions_deny')),
    c("echo 'npm publish' | sh", deny('permissions_deny')),
    c("echo 'cd src && git push' | sh", deny('permissions_deny')),
  ]);
});

describe('RN-075 the path scope and the protected paths through a piped command line', () => {
  runCases('a piped line is judged in the scope', SETUP, [
    c("echo 'cat ../secret.txt' | sh", ask('ceiling_path_scope')),
    c("echo 'cat /etc/passwd' | bash", ask('ceiling_path_scope')),
    c("echo 'ls ~' | sh", ask('ceiling_path_scope')),
    c("printf 'cat .?/s\\n' | sh", ask('ceiling_path_scope')),
    c("echo 'cd .. && ls' | sh", ask('ceiling_path_scope')),
    c("echo 'cat ../s' | at now", ask('ceiling_path_scope')),
    c("echo 'echo x > .git/config' | sh", ask()),
    c("echo 'echo x > permissions.json' | sh", ask()),
    c("echo 'echo x > .git/hooks/pre-commit' | bash", ask()),
    c("echo 'chmod +x .gi?/hooks/x' | sh", ask()),
  ]);
});

describe('what is not a piped command line stays as it was', () => {
  runCases('readings that are allowed or a script nobody can read here', SETUP, [
    c("echo 'ls -la' | sh", auto('permissions_allow')),
    c("echo 'git push' | sh script.sh", auto('permissions_allow'), { note: 'the script runs; the line is its data' }),
    c("echo 'git push' | bash -c 'cat'", auto('permissions_allow'), { note: '-c: the command is the argument' }),
    c("echo 'git push' | cat x.txt | sh", auto('permissions_allow'), { note: 'cat with a file prints the file' }),
    c('cat build.sh | sh', auto('permissions_allow')),
    c("echo 'git push' | at -f job.sh now", auto('permissions_allow'), { note: 'at -f reads the job from the file' }),
    c("echo 'git push'", auto('permissions_allow')),
    c("echo 'git push' > notes.txt", auto('permissions_allow')),
    c("echo 'git push' | cat", auto('permissions_allow')),
    c("echo 'git push'; sh", auto('permissions_allow'), { note: 'not a pipe: sh reads the terminal' }),
    c("echo 'git push' && sh", auto('permissions_allow')),
  ]);
});

describe('RN-418 property: a denied command printed into a shell is denied', () => {
  const denied = fc.constantFrom('git push', 'git push origin main', 'npm publish', 'rm -rf /');
  it('any producer, pass-through and consumer', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PRODUCERS),
        denied,
        fc.constantFrom(...CONSUMERS),
        fc.constantFrom('', 'ls; ', 'cd src && '),
        fc.boolean(),
        (producer, command, consumer, before, automatic) => {
          const setup = automatic ? SETUP_AUTO : SETUP;
          const d = decide(terminalInput(setup, { command: before + pipe(producer, command, consumer) }));
          expect(d.policy, `${before}${pipe(producer, command, consumer)}: ${d.reason}`).toBe('deny');
        },
      ),
      { numRuns: 400 },
    );
  });
});
