// Options and variables that make a tool run another program (program-options.ts, issue 9,
// attacked after A.3), option by option: optionRunsProgram and programEnvironment return the
// text the decision's reason names (`option_runs_program`), or null when nothing runs. The
// options are the ones the tools' own help lists (GNU make 4.3, GNU tar, coreutils sort, zip 3.0,
// man-db, OpenSSH, rsync, cargo, go help build / testflag, vim); each row spells one of them.
import { describe, expect, it } from 'vitest';
import { optionRunsProgram, programEnvironment } from '../../src/policy/program-options.ts';
import { decide } from '../../src/policy/index.ts';
import { MANUAL, terminalInput } from './adversarial-harness.ts';

/** A command as words: split at spaces, or given word by word when a word holds a space. */
type Row = readonly [command: string | readonly string[], runs: string | null];

function table(title: string, fn: (view: readonly string[]) => string | null, rows: readonly Row[]): void {
  describe(title, () => {
    for (const [command, expected] of rows) {
      const view = typeof command === 'string' ? command.split(' ') : command;
      it(`${JSON.stringify(view)} -> ${expected ?? 'null'}`, () => {
        expect(fn(view)).toBe(expected);
      });
    }
  });
}

table('issue 9 A.3: options whose value is a program the tool runs', optionRunsProgram, [
  ['go test -exec x ./...', "go -exec runs 'x'"],
  ['go test --exec=x', "go --exec runs 'x'"],
  ['go build -toolexec x', "go -toolexec runs 'x'"],
  ['go build --toolexec x', "go --toolexec runs 'x'"],
  ['go vet -vettool=x', "go -vettool runs 'x'"],
  ['go vet --vettool x', "go --vettool runs 'x'"],
  ['go test -v ./...', null],
  ['cargo build --config build.rustc-wrapper="x"', `cargo --config runs 'build.rustc-wrapper="x"'`],
  ['make --eval=X', "make --eval runs 'X'"],
  ['make -E X', "make -E runs 'X'"],
  ['gmake --eval X', "gmake --eval runs 'X'"],
  ['gmake -sE X', "gmake -E runs 'X'"],
  ['tar -xf a.tar --to-command=sh', "tar --to-command runs 'sh'"],
  ['tar --to=sh', "tar --to-command runs 'sh'"],
  ['tar --to-command', 'tar --to-command runs a program'],
  ['tar --use-compress-program zstd', "tar --use-compress-program runs 'zstd'"],
  ['tar -I zstd', "tar -I runs 'zstd'"],
  ['tar -xI zstd', "tar -I runs 'zstd'"],
  ['tar -Izstd', "tar -I runs 'zstd'"],
  ['tar --rsh-command=x', "tar --rsh-command runs 'x'"],
  ['tar --info-script=x', "tar --info-script runs 'x'"],
  ['tar --new-volume-script x', "tar --new-volume-script runs 'x'"],
  ['tar -F x', "tar -F runs 'x'"],
  ['tar --checkpoint-action=exec=sh', "tar --checkpoint-action runs 'exec=sh'"],
  ['tar --checkpoint-action=dot', null],
  ['tar --t=sh', null],
  ['tar -xf a.tar', null],
  ['tar -', null],
  ['tar -- --to-command=sh', "tar --to-command runs 'sh'"],
  ['rsync -e x a b', "rsync -e runs 'x'"],
  ['rsync --rsh=x a b', "rsync --rsh runs 'x'"],
  ['rsync --rsync-path x a b', "rsync --rsync-path runs 'x'"],
  ['rsync -ae x a b', "rsync -e runs 'x'"],
  ['rsync --verbose a b', null],
  ['rsync -av a b', null],
  ['sort --compress-program=x f', "sort --compress-program runs 'x'"],
  ['zip -TT x a.zip', "zip -TT runs 'x'"],
  ['zip --unzip-command x a.zip', "zip --unzip-command runs 'x'"],
  ['zip -T a.zip', null],
  ['man -P x ls', "man -P runs 'x'"],
  ['man --pager=x ls', "man --pager runs 'x'"],
  ['man -H x ls', "man -H runs 'x'"],
  ['man --html=x ls', "man --html runs 'x'"],
  ['man -k ls', null],
  ['ssh -o ProxyCommand=x h', "ssh -o runs 'ProxyCommand=x'"],
  ['ssh -oProxyCommand=x h', "ssh -o runs 'ProxyCommand=x'"],
  ['ssh -o LocalCommand=x h', "ssh -o runs 'LocalCommand=x'"],
  ['ssh -o KnownHostsCommand=x h', "ssh -o runs 'KnownHostsCommand=x'"],
  ['ssh -o proxycommand=x h', "ssh -o runs 'proxycommand=x'"],
  ['ssh -o Port=22 h', null],
  ['ssh -o XProxyCommand=x h', null],
  ['ssh -o ProxyCommandX=x h', null],
  ['ssh -F cfg h', "ssh -F runs 'cfg'"],
  ['ssh -v h', null],
  ['scp -S x a h:b', "scp -S runs 'x'"],
  ['scp -o ProxyCommand=x a h:b', "scp -o runs 'ProxyCommand=x'"],
  ['scp -F cfg a h:b', "scp -F runs 'cfg'"],
  ['sftp -S x h', "sftp -S runs 'x'"],
  ['sftp -D x h', "sftp -D runs 'x'"],
  ['sftp -o ProxyCommand=x h', "sftp -o runs 'ProxyCommand=x'"],
  ['sftp -F cfg h', "sftp -F runs 'cfg'"],
  ['npm run build --script-shell=x', "npm --script-shell runs 'x'"],
  ['pnpm run build --script-shell x', "pnpm --script-shell runs 'x'"],
  ['yarn run build --script-shell=x', "yarn --script-shell runs 'x'"],
  ['npm run build', null],
  ['vim -c x f', "vim -c runs 'x'"],
  ['vi --cmd x f', "vi --cmd runs 'x'"],
  ['nvim -c x f', "nvim -c runs 'x'"],
  ['/usr/bin/vim -c x f', "vim -c runs 'x'"],
  ['vim f', null],
  ['less -P x f', null],
  ['', null],
]);

table("issue 9 A.3: make's command-line variables that name a program or run $(shell)", optionRunsProgram, [
  ['make SHELL=/tmp/x', "make SHELL= runs '/tmp/x'"],
  ['make .SHELLFLAGS=-c', "make .SHELLFLAGS= runs '-c'"],
  ['make CC=id all', "make CC= runs 'id'"],
  ['make TEX=x', "make TEX= runs 'x'"],
  ['make SHELL:=/tmp/x', "make SHELL= runs '/tmp/x'"],
  ['make CC+=x', "make CC= runs 'x'"],
  ['make X!=id', "make X != runs 'id'"],
  [['make', 'X=$(shell id)'], "make X= runs '$(shell id)' through $(shell)"],
  [['make', 'X=${shell id}'], "make X= runs '${shell id}' through $(shell)"],
  [['make', 'X=$( shell id)'], "make X= runs '$( shell id)' through $(shell)"],
  ['make X=$(shellx)', null],
  ['make X=$(wildcard *.c)', null],
  ['make V=1 all', null],
  ['gmake SHELL=/tmp/x', "make SHELL= runs '/tmp/x'"],
  ['make -j4 all', null],
  ['make all', null],
  ['cmake SHELL=/tmp/x', null],
]);

table('issue 9 A.3: environment variables that name a program the command runs', programEnvironment, [
  // Each variable before the program that runs what it names.
  ...[
    'PAGER=/tmp/x git log',
    'MANPAGER=/tmp/x man ls',
    'EDITOR=/tmp/x git commit',
    'VISUAL=/tmp/x crontab -e',
    'BROWSER=/tmp/x gh repo view --web',
    'SHELL=/tmp/x make',
    'BASH_ENV=/tmp/x bash build.sh',
    'ENV=/tmp/x sh build.sh',
    'PROMPT_COMMAND=/tmp/x bash -i',
    'PATH=/tmp/x npm test',
    'LD_PRELOAD=/tmp/x ls',
    'LD_LIBRARY_PATH=/tmp/x ls',
    'LD_AUDIT=/tmp/x ls',
    'DYLD_INSERT_LIBRARIES=/tmp/x ls',
    'DYLD_LIBRARY_PATH=/tmp/x ls',
    'GCONV_PATH=/tmp/x iconv -f utf8 f',
    'LESSOPEN=/tmp/x less f',
    'LESSCLOSE=/tmp/x less f',
    'RUSTC=/tmp/x cargo build',
    'RUSTC_WRAPPER=/tmp/x cargo build',
    'RUSTC_WORKSPACE_WRAPPER=/tmp/x cargo build',
    'RUSTDOC=/tmp/x cargo doc',
    'CARGO_BUILD_RUSTC=/tmp/x cargo build',
    'CARGO_BUILD_RUSTC_WRAPPER=/tmp/x cargo build',
    'CARGO_BUILD_RUSTDOC=/tmp/x cargo doc',
    'GOFLAGS=/tmp/x go build',
    'MAKEFLAGS=/tmp/x make',
    'MFLAGS=/tmp/x make',
    'TAR_OPTIONS=/tmp/x tar -xf a.tar',
    'RSYNC_RSH=/tmp/x rsync a h:b',
    'RSYNC_CONNECT_PROG=/tmp/x rsync rsync://h/m .',
    'SUDO_ASKPASS=/tmp/x sudo -A id',
    'PERL5OPT=/tmp/x perl a.pl',
    'RUBYOPT=/tmp/x ruby a.rb',
  ].map((command): Row => [command, `${command.slice(0, command.indexOf('=') + 1)} runs '/tmp/x'`]),
  [
    'CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER=x cargo run',
    "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER= runs 'x'",
  ],
  ['CARGO_TARGET_AARCH64_APPLE_DARWIN_LINKER=x cargo build', "CARGO_TARGET_AARCH64_APPLE_DARWIN_LINKER= runs 'x'"],
  ['CARGO_TARGET_X_FOO=x cargo run', null],
  ['CARGO_TARGET__RUNNER=x cargo run', null],
  ['XCARGO_TARGET_A_RUNNER=x cargo run', null],
  ['CARGO_TARGET_A_RUNNERX=x cargo run', null],
  ['LANG=C PAGER=x git log', "PAGER= runs 'x'"],
  ['LANG=C git log', null],
  ['PAGERX=x git log', null],
  ['env LD_PRELOAD=x ls', "LD_PRELOAD= runs 'x'"],
  ['/usr/bin/env -i FOO=1 PAGER=x ls', "PAGER= runs 'x'"],
  ['A=1 env PAGER=x ls', "PAGER= runs 'x'"],
  ['export RUSTC_WRAPPER=x', "RUSTC_WRAPPER= runs 'x'"],
  ['declare PATH=/tmp', "PATH= runs '/tmp'"],
  ['typeset EDITOR=x', "EDITOR= runs 'x'"],
  ['local SHELL=x', "SHELL= runs 'x'"],
  ['readonly BASH_ENV=x', "BASH_ENV= runs 'x'"],
  ['env FOO=1 ls', null],
  ['ls PAGER=x', null],
  ['echo PAGER=x', null],
  ['', null],
]);

describe('issue 9 A.3: decide() asks for a program an allowed command would run', () => {
  const permissions = { ...MANUAL.permissions, allow: ['Terminal(tar:*)', 'Terminal(ssh:*)', 'Terminal(make:*)'] };
  const rows: readonly (readonly [string, string])[] = [
    ['tar -xf a.tar', 'auto_approve'],
    ['tar -xf a.tar --to-command=sh', 'require_approval'],
    ['ssh -o Port=22 h', 'auto_approve'],
    ['ssh -o ProxyCommand=x h', 'require_approval'],
    ['make V=1 all', 'auto_approve'],
    ['make SHELL=/tmp/x all', 'require_approval'],
  ];
  for (const [command, policy] of rows) {
    it(`${command} -> ${policy}`, () => {
      const decision = decide(terminalInput(MANUAL, { command, permissions }));
      expect(decision.policy, decision.reason).toBe(policy);
      if (policy === 'require_approval') expect(decision.reasonCode).toBe('option_runs_program');
    });
  }
});
