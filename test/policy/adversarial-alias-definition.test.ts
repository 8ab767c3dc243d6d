// An alias definition changes what later words run: dash (/bin/sh, what the runner spawns)
// expands an alias defined on an earlier line, so with Terminal(alias:*) and Terminal(ls:*)
// allowed, `alias ls='cat ../secret'⏎ls` read the secret while every fragment looked allowed.
// Any `alias NAME=…` now asks (unsafe_shell_construct); listing aliases stays allowed.
import { MANUAL, ask, auto, c, runCases } from './adversarial-harness.ts';

const SETUP = {
  ...MANUAL,
  label: 'alias, ls, git, cat allowed',
  permissions: {
    allow: ['Terminal(alias:*)', 'Terminal(ls:*)', 'Terminal(git status)', 'Terminal(cat:*)', 'Terminal(command:*)'],
    deny: [],
    ask: [],
  },
};
const ASKS = ask('unsafe_shell_construct');

runCases('an alias definition never auto-approves', SETUP, [
  c("alias ls='cat ../secret'\nls", ASKS),
  c("alias ls='cat /etc/shadow'\nls -la", ASKS),
  c("alias git='sh -c id'\ngit status", ASKS),
  c("alias cat='echo x > .git/config'\ncat f", ASKS),
  c('alias ls="cat ../s"\nls', ASKS),
  c('alias ls=cat\nls ../s', ASKS),
  c("alias -p ls='cat ../s'\nls", ASKS),
  c("alias a=b ls='cat ../s'\nls", ASKS),
  c("command alias ls='cat ../s'\nls", ASKS),
  c("alias ls='cat ../s'; ls", ASKS),
  c("alias ls='ls -la'", ASKS),
  c('alias', auto('permissions_allow')),
  c('alias ls', auto('permissions_allow')),
]);
