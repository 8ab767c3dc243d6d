// Git subcommands the engine cannot resolve: with deny `Terminal(git reset --hard)` and allow
// `Terminal(git:*)`, `git r --hard` (r an alias in the user's ~/.gitconfig) ran a hard reset
// past the deny. A subcommand that is no git command may be such an alias, so it asks, named
// (git_subcommand_unknown), in every mode and through wrappers, unless an allow pattern names
// it (`Terminal(git lfs:*)`). git's own commands are never taken for aliases: git runs them first.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/index.ts';
import { AUTO, FLOOR, MANUAL, ask, auto, c, deny, runCases, terminalInput } from './adversarial-harness.ts';

const GIT = {
  ...MANUAL,
  label: 'git allowed, hard reset and push denied',
  permissions: {
    allow: ['Terminal(git:*)', 'Terminal(/usr/bin/git:*)', 'Terminal(sh:*)', 'Terminal(timeout:*)', 'Terminal(env:*)'],
    deny: ['Terminal(git reset --hard)', 'Terminal(git push --force)'],
    ask: [],
  },
};
const ASKS = ask('git_subcommand_unknown');

const OUTSIDE = [
  c('git r --hard', ASKS),
  c('git rh', ASKS),
  c('git p --force', ASKS),
  c('git pf', ASKS),
  c('git pusj', ASKS, { note: 'help.autocorrect would run push' }),
  c('git Reset --hard', ASKS, { note: 'commands are case-sensitive, alias names are not' }),
  c('git -C . r --hard', ASKS),
  c('git --no-pager r --hard', ASKS),
  c('git -c color.ui=never r', ask('git_config_override'), { note: '-c asks first' }),
  c('/usr/bin/git r --hard', ASKS),
  c("sh -c 'git r --hard'", ASKS),
  c('timeout 5 git r --hard', ASKS),
  c('env A=1 git r --hard', ASKS),
  c('git status && git r --hard', ASKS),
  c('git lfs pull', ASKS, { note: 'git:* does not name lfs' }),
  c('git flow init', ASKS),
  c('git undo', ASKS),
];

runCases('a git subcommand that may be an outside alias asks', GIT, OUTSIDE);
runCases('not lifted by auto mode', { ...AUTO, permissions: GIT.permissions }, OUTSIDE.slice(0, 8));
runCases('not lifted by the container floor', { ...FLOOR, permissions: GIT.permissions }, OUTSIDE.slice(10));

runCases('git commands and subcommands named by an allow pattern stay as they were', GIT, [
  c('git reset --hard', deny('permissions_deny')),
  c('git status', auto('permissions_allow')),
  c('git log --oneline', auto('permissions_allow')),
  c('git stash list', auto('permissions_allow')),
  c('git worktree list', auto('permissions_allow')),
  c('git cherry-pick abc', auto('permissions_allow')),
  c('git range-diff a..b c..d', auto('permissions_allow')),
  c('git --version', auto('permissions_allow')),
  c('git lfs pull', auto('permissions_allow'), {
    permissions: { ...GIT.permissions, allow: ['Terminal(git lfs:*)'] },
  }),
  c('git lfs pull', auto('permissions_allow'), {
    permissions: { ...GIT.permissions, allow: ['Terminal(git:*)', 'Terminal(git lfs pull)'] },
  }),
  c('git flow feature start x', auto('permissions_allow'), {
    permissions: { ...GIT.permissions, allow: ['Terminal(git -C . flow:*)', 'Terminal(git:*)'] },
    note: 'named past a global option',
  }),
]);

describe('property: any word that is not a git command, after any global options, never auto-approves', () => {
  const GLOBALS = ['', '-C . ', '--no-pager ', '-P ', '--git-dir=.git ', '-C src --no-pager '];
  const WORD = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/).filter((w) => !KNOWN.has(w));
  const WRAP = [(s: string) => s, (s: string) => `timeout 5 ${s}`, (s: string) => `sh -c '${s}'`];
  it('in manual, auto mode and under the container floor', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...GLOBALS),
        WORD,
        fc.constantFrom('', ' --hard', ' -f origin main'),
        fc.constantFrom(...WRAP),
        fc.constantFrom(GIT, AUTO, FLOOR),
        (globals, word, rest, wrap, setup) => {
          const command = wrap(`git ${globals}${word}${rest}`);
          const decision = decide(terminalInput(setup, { command, permissions: GIT.permissions }));
          expect(decision.policy, `${command}: ${decision.reason}`).not.toBe('auto_approve');
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** Words the property must not pick: git's own commands (written out, not imported). */
const KNOWN = new Set(
  (
    'add am apply archive bisect blame branch bundle checkout cherry clean clone commit config describe diff ' +
    'fetch gc grep help init log merge mv notes pull push rebase reflog remote repack replace reset restore ' +
    'revert rm show stage stash status switch tag var version worktree annotate column cherry-pick count-objects ' +
    'fsck hook prune refs replay repo rerere shell shortlog subtree svn gui p4 citool instaweb backfill ' +
    'mktag mktree diagnose bugreport daemon pickaxe whatchanged'
  ).split(' '),
);
