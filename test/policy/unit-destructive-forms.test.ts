// Mutation testing of destructive-forms.ts (issue 9 "Tests"; issue 15.7, RN-675): every CLI and
// subcommand of the table, each with a read a click approves and a destructive form of the same
// subcommand. Per row the click keeps the exact fragment, the bare unit writes nothing, and a
// hand-written unit `Terminal(cli sub)` does not auto-approve the destructive form (mutating-forms.ts
// reads the same table). The destructive forms are the ones the source comments name; git's were
// checked against `git <sub> -h` of git 2.39.
import { describe, expect, it } from 'vitest';
import { patternsForAction } from '../../src/policy/index.ts';
import { decideAllowing } from './adversarial-harness.ts';
import { unitHasDestructiveForms } from '../../src/policy/destructive-forms.ts';

const policyWith = decideAllowing;
const written = (command: string): string[] | string => {
  const plan = patternsForAction('terminal', { command });
  return plan.kind === 'patterns' ? plan.patterns : plan.reason;
};

// [a read the click approves, a destructive form of its subcommand (null: none that the unit's
// forms check reads, the first two assertions still hold)]
type Row = [clicked: string, destructive: string | null];

const GIT: Row[] = [
  ['git branch -a', 'git branch -D main'],
  ['git tag --list', 'git tag -d v1'],
  ['git remote show origin', 'git remote remove origin'],
  ['git stash list', 'git stash clear'],
  ['git worktree list', 'git worktree remove ../wt'],
  ['git config user.name', 'git config --unset user.name'],
  ['git notes list', 'git notes prune'],
  ['git reflog show', 'git reflog expire --expire=now --all'],
  ['git submodule status', 'git submodule deinit --all -f'],
  ['git symbolic-ref HEAD', 'git symbolic-ref -d HEAD'],
  ['git update-ref refs/tmp/x HEAD', 'git update-ref -d refs/heads/main'],
  ['git sparse-checkout list', 'git sparse-checkout disable'],
  ['git lfs ls-files', 'git lfs prune'],
  ['git gc --auto', 'git gc --prune=now'],
  ['git prune -n', 'git prune --expire=now --force'],
  ['git reset HEAD x.txt', 'git reset --hard HEAD~3'],
  ['git clean -n', 'git clean -fdx'],
  ['git checkout feature', 'git checkout -f main'],
  ['git restore --staged x.ts', 'git restore --worktree .'],
  ['git switch main', 'git switch -f main'],
  ['git rm --cached x.log', 'git rm -r -f src'],
  ['git replace -l', 'git replace -d abc123'],
  ['git filter-branch --prune-empty HEAD', 'git filter-branch -f --index-filter x HEAD'],
  ['git filter-repo --analyze', 'git filter-repo --force --invert-paths --path src'],
  ['git maintenance run', 'git maintenance unregister'],
  ['git credential fill', 'git credential reject'],
  ['git rerere status', 'git rerere forget x'],
  ['git rebase main', 'git rebase -x id main'],
  ['git bisect start', 'git bisect run make'],
  ['git difftool HEAD', 'git difftool -x id HEAD'],
  ['git mergetool x', 'git mergetool -x id'],
  ['git grep TODO', 'git grep --exec x TODO'],
];

const PACKAGE_MANAGERS: Row[] = [
  ['npm cache ls', 'npm cache clean --force'],
  ['npm config list', 'npm config delete registry'],
  ['npm pkg get name', 'npm pkg delete scripts'],
  ['npm token list', 'npm token revoke abc'],
  ['npm team ls myorg', 'npm team destroy myorg:devs'],
  ['npm org ls myorg', 'npm org rm myorg bob'],
  ['npm hook ls', 'npm hook rm abc'],
  ['npm profile get', 'npm profile set email x'],
  ['npm link ../lib', 'npm link --force'],
  ['npm unlink lib', 'npm unlink -f'],
  ['npm prune --dry-run', 'npm prune --force'],
  ['npm uninstall left-pad', 'npm uninstall -f react'],
  ['npm remove left-pad', 'npm remove -f react'],
  ['npm rm left-pad', 'npm rm -f react'],
  ['npm r left-pad', 'npm r -f react'],
  ['npm un left-pad', 'npm un -f react'],
  ['npm set fund=false', 'npm set -f registry=x'],
  ['pnpm store path', 'pnpm store prune'],
  ['pnpm config list', 'pnpm config delete registry'],
  ['pnpm remove lodash', 'pnpm remove -f react'],
  ['pnpm rm lodash', 'pnpm rm -f react'],
  ['pnpm uninstall lodash', 'pnpm uninstall -f react'],
  ['pnpm un lodash', 'pnpm un -f react'],
  ['pnpm prune --prod', 'pnpm prune --force'],
  ['pnpm unlink lib', 'pnpm unlink --force'],
  ['pnpm link ../lib', 'pnpm link --force'],
  ['pnpm env list', 'pnpm env remove 18'],
  ['pnpm cache list', 'pnpm cache delete lodash'],
  ['yarn cache dir', 'yarn cache clean'],
  ['yarn config list', 'yarn config delete registry'],
  ['yarn remove lodash', 'yarn remove -f react'],
  ['yarn unlink lib', 'yarn unlink --force'],
  ['yarn link ../lib', 'yarn link --force'],
  ['yarn global list', 'yarn global remove x'],
  ['yarn policies list', null],
  ['yarn set version stable', 'yarn set version --force'],
  ['pip cache list', 'pip cache purge'],
  ['pip config list', 'pip config set global.index-url x'],
  ['pip uninstall requests', 'pip uninstall --force numpy'],
  ['pip3 cache list', 'pip3 cache purge'],
  ['pip3 config list', 'pip3 config set global.index-url x'],
  ['pip3 uninstall requests', 'pip3 uninstall --force numpy'],
  ['cargo uninstall ripgrep', 'cargo uninstall -f x'],
  ['cargo owner --list', null],
  ['cargo yank --vers 1.0.0', 'cargo yank --vers 2.0.0 --force'],
  ['cargo clean -p mycrate', 'cargo clean --force'],
  ['go clean -n', 'go clean -x -modcache'],
  ['go env GOPATH', null],
  ['brew services list', 'brew services stop postgresql'],
  ['brew tap homebrew/core', 'brew tap --force evil/tap'],
  ['brew untap foo/bar', 'brew untap -f homebrew/core'],
  ['brew uninstall wget', 'brew uninstall --force git'],
  ['brew remove wget', 'brew remove --force git'],
  ['brew rm wget', 'brew rm --force git'],
  ['brew cleanup -n', 'brew cleanup --prune=all'],
  ['mix deps.clean --unused', 'mix deps.clean --all'],
  ['mix hex.owner list pkg', 'mix hex.owner remove pkg bob'],
  ['mix hex.retire pkg 1.0 security', 'mix hex.retire pkg 2.0 --force'],
];

const FORGES: Row[] = [
  ['gh repo view', 'gh repo delete x --yes'],
  ['gh release list', 'gh release delete v1 --yes'],
  ['gh secret list', 'gh secret delete TOKEN'],
  ['gh variable list', 'gh variable delete X'],
  ['gh label list', 'gh label delete bug --yes'],
  ['gh gist list', 'gh gist delete abc'],
  ['gh ssh-key list', 'gh ssh-key delete 1'],
  ['gh gpg-key list', 'gh gpg-key delete 1'],
  ['gh cache list', 'gh cache delete --all'],
  ['gh run list', 'gh run delete 1'],
  ['gh workflow list', 'gh workflow disable ci'],
  ['glab repo view', 'glab repo delete x'],
  ['glab release list', 'glab release delete v1'],
  ['glab variable list', 'glab variable delete X'],
  ['glab label list', 'glab label delete bug'],
  ['glab snippet list', 'glab snippet delete 1'],
  ['glab ssh-key list', 'glab ssh-key delete 1'],
];

// CLIs where nearly every subcommand has such forms: any `cli sub` unit is refused.
const EVERY_SUBCOMMAND: Row[] = [
  ['docker ps -a', 'docker rm -f web'],
  ['podman ps -a', 'podman rm -f web'],
  ['nerdctl ps -a', 'nerdctl rm -f web'],
  ['kubectl get pods', 'kubectl get pods --all -f x'],
  ['oc get pods', 'oc delete pods --all'],
  ['helm list -A', 'helm uninstall api'],
  ['terraform plan -out x', 'terraform destroy -auto-approve'],
  ['tofu plan -out x', 'tofu destroy -auto-approve'],
  ['pulumi preview --diff', 'pulumi destroy --yes'],
  ['systemctl status nginx', 'systemctl stop nginx'],
  ['launchctl list com.x', 'launchctl remove com.x'],
  ['aws s3 ls', 'aws s3 rm s3://b --recursive'],
  ['gcloud config list', 'gcloud projects delete p'],
  ['az vm list', 'az group delete -n g'],
  ['virsh list --all', 'virsh destroy vm1'],
];

describe.each([
  ['git', GIT],
  ['package managers and toolchains', PACKAGE_MANAGERS],
  ['gh and glab', FORGES],
  ['CLIs where every subcommand counts', EVERY_SUBCOMMAND],
])('RN-675 issue 15.7 destructive forms: %s', (_group, rows) => {
  it.each(rows)('RN-675 %s: the click keeps the exact fragment; the bare unit writes nothing', (clicked) => {
    const unit = clicked.split(' ').slice(0, 2).join(' ');
    expect(written(clicked)).toEqual([`Terminal(${clicked})`]);
    // bun is a whole-fragment verb (issue 9 A.6): there the bare unit is its own whole fragment.
    expect(written(unit)).toEqual(clicked.startsWith('bun ') ? [`Terminal(${unit})`] : []);
  });
  it.each(rows.filter((row): row is [string, string] => row[1] !== null))(
    'RN-675 after %s, a hand-written unit pattern still asks for %s',
    (clicked, destructive) => {
      const unit = clicked.split(' ').slice(0, 2).join(' ');
      expect(policyWith([`Terminal(${unit})`], destructive).policy).toBe('require_approval');
    },
  );
});

describe('RN-675 issue 15.7 bun (a whole-fragment verb): the table still guards its exact patterns', () => {
  it.each([
    ['bun pm ls', 'bun pm cache rm'],
    ['bun remove lodash', 'bun remove -f react'],
    ['bun rm lodash', 'bun rm -f react'],
    ['bun unlink lib', 'bun unlink --force'],
    ['bun link ../lib', 'bun link --force'],
  ])('RN-675 %s is written whole, and Terminal(bun <sub>) does not auto-approve %s', (clicked, destructive) => {
    const unit = clicked.split(' ').slice(0, 2).join(' ');
    expect(patternsForAction('terminal', { command: clicked })).toEqual({
      kind: 'patterns',
      patterns: [`Terminal(${clicked})`],
      keptWhole: [`Terminal(${clicked})`],
    });
    expect(policyWith([`Terminal(${unit})`], destructive).policy).toBe('require_approval');
  });
});

describe('unitHasDestructiveForms: the exact answer for a unit', () => {
  it.each([
    [[], false],
    [['git'], false],
    [['git', 'status'], false],
    [['git', 'branch'], true],
    [['/usr/bin/git', 'branch'], true],
    [['docker'], true],
    [['/usr/local/bin/kubectl', 'get'], true],
    [['npm', 'test'], false],
    [['npm', 'uninstall'], true],
    [['make', 'build'], false],
    [['make', 'clean'], false],
    [['cargo', 'clean'], true],
  ] as Array<[string[], boolean]>)('%j -> %s', (tokens, expected) => {
    expect(unitHasDestructiveForms(tokens)).toBe(expected);
  });
});
