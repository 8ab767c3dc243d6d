// Options and environment variables that make a tool run another program: under allow rules
// such as Terminal(go test:*), Terminal(tar:*) or Terminal(make:*), `go test -exec 'sh -c …'`,
// `tar --to-command=…` and `make --eval '$(shell …)'` ran programs no rule judged. Each asks,
// named (option_runs_program: which option runs what), in every mode and through wrappers; the
// same tools without such an option stay as allowed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/index.ts';
import { AUTO, FLOOR, MANUAL, ask, auto, c, runCases, terminalInput } from './adversarial-harness.ts';

const TOOLS = {
  ...MANUAL,
  label: 'build tools and archivers allowed',
  permissions: {
    allow: [
      ...['go test:*', 'go build:*', 'cargo build:*', 'cargo:*', 'make:*', 'find:*', 'tar:*', 'rsync:*'],
      ...['sort:*', 'zip:*', 'ssh:*', 'scp:*', 'man:*', 'less:*', 'npm test:*', 'git log:*', 'git:*', 'ls:*'],
      ...['timeout:*', 'env:*', 'nice:*', 'vim:*'],
    ].map((p) => `Terminal(${p})`),
    deny: [],
    ask: [],
  },
};
const RUNS = ask('option_runs_program');

const RUNNING = [
  c("go test -exec 'sh -c id' ./...", RUNS),
  c('go test -exec=id ./...', RUNS),
  c('go test --exec id ./...', RUNS),
  c('go build -toolexec x .', RUNS),
  c('go build -toolexec=x .', RUNS),
  c('go build --toolexec=x .', RUNS),
  c('cargo build --config \'build.rustc-wrapper="x"\'', RUNS),
  c("cargo --config target.x86_64-unknown-linux-gnu.runner='sh -c id' build", RUNS),
  c('cargo build --config=cfg.toml', RUNS),
  c("make --eval '$(shell id)'", RUNS),
  c("make --ev='$(shell id)'", RUNS, { note: 'GNU prefix' }),
  c("make -E '$(shell id)'", RUNS),
  c('make SHELL=/tmp/x', RUNS),
  c("make .SHELLFLAGS='-c id;'", RUNS),
  c('make CC=id', RUNS),
  c("make 'X!=id'", RUNS),
  c("make 'X:=$(shell id)'", RUNS),
  c("tar -xf a.tar --to-command='sh -c id'", RUNS),
  c('tar -cf a.tar --checkpoint=1 --checkpoint-action=exec=id .', RUNS),
  c('tar -I id -cf a.tar .', RUNS),
  c('tar -Iid -cf a.tar .', RUNS),
  c('tar --use-compress-program=id -cf a.tar .', RUNS),
  c('tar --use-compress=id -cf a.tar .', RUNS),
  c('tar -cf h:a.tar --rsh-command=id .', RUNS),
  c('tar -c -M -F id -f a.tar .', RUNS),
  c("rsync -e 'sh -c id' a b:", RUNS),
  c('rsync --rsh=id a b:', RUNS),
  c("rsync --rsync-path='id' a b:", RUNS),
  c('sort --compress-program=id f', RUNS),
  c('sort --compress-prog id f', RUNS),
  c("zip -TT 'id' -T a.zip f", RUNS),
  c("zip --unzip-command 'id' -T a.zip f", RUNS),
  c('ssh -o ProxyCommand=id h', RUNS),
  c("ssh -o 'ProxyCommand id' h", RUNS),
  c('ssh -oLocalCommand=id -oPermitLocalCommand=yes h', RUNS),
  c('ssh -o knownhostscommand=id h', RUNS),
  c('scp -S id a h:b', RUNS),
  c('man -P id ls', RUNS),
  c('man --pager=id ls', RUNS),
  c('man -Hid ls', RUNS),
  c('npm test --script-shell=id', RUNS),
  c("vim -c '!id' f", RUNS),
  c('timeout 60 go test -exec id ./...', RUNS),
  c('nice make SHELL=/tmp/x', RUNS),
  c('env RUSTC_WRAPPER=id cargo build', RUNS),
  c('env PAGER=id git log', RUNS),
  c('env LD_PRELOAD=./x.so ls', RUNS),
  c('env CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER=id cargo build', RUNS),
  c('env GOFLAGS=-toolexec=id go build .', RUNS),
  c('env TAR_OPTIONS=--to-command=id tar -xf a.tar', RUNS),
  c('env PATH=/tmp/evil ls', RUNS),
  c('env EDITOR=id git commit', RUNS),
  c('env MAKEFLAGS=SHELL=/tmp/x make', RUNS),
];

runCases('an option or variable that runs a program asks', TOOLS, RUNNING);
runCases('not lifted by auto mode', { ...AUTO, permissions: TOOLS.permissions }, [
  ...RUNNING.slice(0, 20),
  c('PAGER=id git log', RUNS),
  c('RUSTC_WRAPPER=id cargo build', RUNS),
  c('LD_PRELOAD=/tmp/x.so ls', RUNS),
  c('export EDITOR=id; git commit', RUNS),
  c('BASH_ENV=./x.sh make', RUNS),
]);
runCases('not lifted by the container floor', { ...FLOOR, permissions: TOOLS.permissions }, RUNNING.slice(20));

runCases("git's own program options ask as git_config_override (git-runs-command.ts)", TOOLS, [
  c('git send-pack --receive-pack=id h:r main', ask('git_config_override')),
  c('git send-pack --exec=id h:r main', ask('git_config_override')),
  c('git fetch --upload-pack=id origin', ask('git_config_override')),
  c('git -c core.sshCommand=id fetch', ask('git_config_override')),
]);

runCases('the same tools without such an option stay as allowed', TOOLS, [
  c('go test ./...', auto('permissions_allow')),
  c('go build -o bin/app .', auto('permissions_allow')),
  c('cargo build --release', auto('permissions_allow')),
  c('cargo --color never build', auto('permissions_allow')),
  c('make -j4 test', auto('permissions_allow')),
  c('make -e test', auto('permissions_allow')),
  c('make VERBOSE=1 test', auto('permissions_allow')),
  c('tar -czf a.tar.gz src', auto('permissions_allow')),
  c('tar -xf a.tar --checkpoint=100 --checkpoint-action=dot', auto('permissions_allow')),
  c('sort -k2 -o out.txt f', auto('permissions_allow')),
  c('ssh -o ConnectTimeout=5 h', auto('permissions_allow')),
  c('less -P prompt f', auto('permissions_allow'), { note: 'less -P is a prompt, not a program' }),
  c('man ls', auto('permissions_allow')),
  c('npm test -- --watch', auto('permissions_allow')),
  c('rsync -av src/ dst/', auto('permissions_allow')),
]);

describe('property: a program-running option under any spelling and wrapper never auto-approves', () => {
  const COMMANDS = [
    (p: string) => `go test -exec ${p} ./...`,
    (p: string) => `go build -toolexec=${p} .`,
    (p: string) => `tar --to-command=${p} -xf a.tar`,
    (p: string) => `tar -I ${p} -cf a.tar .`,
    (p: string) => `rsync -e ${p} a h:`,
    (p: string) => `sort --compress-program=${p} f`,
    (p: string) => `zip -TT ${p} -T a.zip f`,
    (p: string) => `man -P ${p} ls`,
    (p: string) => `make SHELL=${p}`,
    (p: string) => `env PAGER=${p} git log`,
    (p: string) => `env LD_PRELOAD=${p} ls`,
  ];
  const PROGRAMS = ['id', './x', '/tmp/x', "'sh -c id'", 'python3'];
  const WRAP = [(s: string) => s, (s: string) => `timeout 9 ${s}`, (s: string) => `nice -n 5 ${s}`];
  it('in manual, auto mode and under the container floor', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...COMMANDS),
        fc.constantFrom(...PROGRAMS),
        fc.constantFrom(...WRAP),
        fc.constantFrom(TOOLS, AUTO, FLOOR),
        (command, program, wrap, setup) => {
          const line = wrap(command(program));
          const decision = decide(terminalInput(setup, { command: line, permissions: TOOLS.permissions }));
          expect(decision.policy, `${line}: ${decision.reason}`).toBe('require_approval');
          expect(decision.reasonCode, line).toBe('option_runs_program');
        },
      ),
      { numRuns: 300 },
    );
  });
});
