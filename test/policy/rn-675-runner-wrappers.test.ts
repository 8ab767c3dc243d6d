// RN-675 "Always allow", attacked after 3b03a62/c149220: runners of whatever follows them were not
// in the wrapper tables, so a click wrote a unit that later auto-approved arbitrary code:
// `bundle exec rspec` wrote Terminal(bundle exec) (then `bundle exec ruby -e …`), `cross-env CI=1
// jest` Terminal(cross-env) (then `cross-env CI=1 sh -c …`), `npm create vite` Terminal(npm create)
// (then any registry package), `git rebase main` Terminal(git rebase) (then `git rebase -x CMD`),
// `kill %1` Terminal(kill) (then `kill -9` of any process). Each click now keeps the exact fragment,
// and the broader command is never auto-approved by what was written.
import { describe, expect, it } from 'vitest';
import { patternsForAction } from '../../src/policy/index.ts';
import { decideAllowing } from './adversarial-harness.ts';

const written = (command: string): string[] => {
  const plan = patternsForAction('terminal', { command });
  return plan.kind === 'patterns' ? plan.patterns : [];
};
const policyWith = (allow: string[], command: string) => decideAllowing(allow, command).policy;

const PAIRS: Array<[clicked: string, later: string]> = [
  ['bundle exec rspec', 'bundle exec ruby -e \'system("id")\''],
  ['pipx run black .', 'pipx run evilpkg'],
  ['yarn node x.js', 'yarn node -e \'require("fs").writeFileSync("../x", "")\''],
  ['npm init vite', 'npm init evil'],
  ['npm create vite', 'npm create evil'],
  ['yarn create vite', 'yarn create evil'],
  ['pnpm create vite', 'pnpm create evil'],
  ['hatch run test', "hatch run python -c 'import os'"],
  ['pdm run test', "pdm run python -c 'import os'"],
  ['conda run -n x pytest', 'conda run -n x python -c 1'],
  ['nix run .#x', 'nix run nixpkgs#evil'],
  ['nix develop -c make', 'nix develop -c sh -c id'],
  ['mise exec -- make', 'mise exec -- sh -c id'],
  ['mise x node -- x.js', 'mise x node -- -e 1'],
  ['direnv exec . make', 'direnv exec . sh -c id'],
  ['cross-env CI=1 jest', 'cross-env CI=1 sh -c id'],
  ['sqlite3 db.sqlite .tables', "sqlite3 db.sqlite '.shell id'"],
  ['perf stat make', 'perf stat sh -c id'],
  ['git bisect start', 'git bisect run sh -c id'],
  ['git rebase main', "git rebase --exec 'id' main"],
  ['git rebase main', 'git rebase -x id main'],
  ['git difftool a', "git difftool -x 'id' a"],
  ['git grep x', 'git grep --open-files-in-pager=id x'],
  ['git grep x', 'git grep -Oid x'],
  ['kill %1', 'kill -9 1'],
];

describe('RN-675 a click on a runner of arbitrary commands never writes a broader pattern', () => {
  it.each(PAIRS)('RN-675 approving %s does not auto-approve %s', (clicked, later) => {
    const patterns = written(clicked);
    expect(policyWith(patterns, later), `${clicked} wrote ${patterns.join(' ')}`).not.toBe('auto_approve');
  });
  it('RN-675 the clicked command itself is still auto-approved by what was written', () => {
    for (const [clicked] of PAIRS) {
      const patterns = written(clicked);
      if (patterns.length === 0) continue; // a bare runner writes nothing
      expect(policyWith(patterns, clicked), `${clicked} wrote ${patterns.join(' ')}`).toBe('auto_approve');
    }
  });
});
