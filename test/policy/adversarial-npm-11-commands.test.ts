// Issue 9 A.4, found by checking npmCommand against the npm on this machine (npm 11.19): npm 11's
// new commands (approve-scripts, deny-scripts, install-scripts, stage, trust) were missing from
// the engine's table, so their abbreviations were read as themselves. With allow
// `Terminal(npm:*)` and deny `Terminal(npm trust)`, `npm tru github x` (which npm 11 runs as
// `npm trust github x`) was auto-approved. Each abbreviation below is one npm 11.19 resolves to
// the denied command (its abbrev of commands and aliases).
import { MANUAL, auto, c, deny, runCases } from './adversarial-harness.ts';

const SETUP = {
  ...MANUAL,
  label: 'npm allowed, npm 11 commands denied',
  permissions: {
    allow: ['Terminal(npm:*)'],
    deny: [
      'Terminal(npm trust)',
      'Terminal(npm stage)',
      'Terminal(npm install-scripts)',
      'Terminal(npm approve-scripts)',
      'Terminal(npm deny-scripts)',
    ],
    ask: [],
  },
};
const DENY = deny('permissions_deny');

runCases('issue 9 A.4 npm 11 commands: a deny holds for every abbreviation npm accepts', SETUP, [
  c('npm trust github x', DENY),
  c('npm tru github x', DENY),
  c('npm trus github x', DENY),
  c('npm tr list', DENY),
  c('npm stag', DENY),
  c('npm stage publish', DENY),
  c('npm install-s', DENY),
  c('npm install-scr', DENY),
  c('npm installScripts', DENY, { note: 'camelCase is kebab-case' }),
  c('npm appr', DENY),
  c('npm ap', DENY),
  c('npm approve-scripts', DENY),
  c('npm den', DENY),
  c('npm deny-s', DENY),
  c('npm --json tru list', DENY, { note: 'past a global option' }),
]);

runCases('issue 9 A.4 npm 11 commands: the other commands stay allowed', SETUP, [
  c('npm test', auto('permissions_allow')),
  c('npm run build', auto('permissions_allow')),
  c('npm ls', auto('permissions_allow')),
]);
