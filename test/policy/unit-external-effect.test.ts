// RN-418 (amending RN-106): the exact effect effectOf() finds in one argv, the git global options
// gitConfigOverride() and gitSubcommandIndex() read, what CEILING_COMMANDS keeps "Always allow"
// (RN-675) from writing, and decisions on effects spelled through a CLI's aliases. Rows are
// commands as an agent types them, split on spaces.
import { describe, expect, it } from 'vitest';
import { effectOf, patternsForAction } from '../../src/policy/index.ts';
import { gitConfigOverride, gitSubcommandIndex } from '../../src/policy/external-effect.ts';
import { AUTO, ask, auto, c, runCases } from './adversarial-harness.ts';

const words = (command: string): string[] => (command === '' ? [] : command.split(' '));
const external = (what: string) => ({ kind: 'external', what });
const Z = ask('ceiling_external_effect');
const FREE = auto('agent_autonomy_auto_approve');

describe('RN-418 effectOf: every subcommand with an external effect, named in its canonical spelling', () => {
  it.each([
    ['git push origin main', 'git push'],
    ['git remote add origin https://x', 'git remote add'],
    ['git remote set-url origin https://x', 'git remote set-url'],
    ['git merge feature', 'git merge'],
    ['gh pr create --fill', 'gh pr create'],
    ['gh pr merge 12', 'gh pr merge'],
    ['gh release create v1', 'gh release create'],
    ['gh workflow run deploy.yml', 'gh workflow run'],
    ['glab mr create', 'glab mr create'],
    ['glab mr merge 3', 'glab mr merge'],
    ['glab release create v1', 'glab release create'],
    ['kubectl apply -f x.yaml', 'kubectl apply'],
    ['kubectl create ns x', 'kubectl create'],
    ['kubectl replace -f x.yaml', 'kubectl replace'],
    ['kubectl patch deploy x', 'kubectl patch'],
    ['kubectl delete pod x', 'kubectl delete'],
    ['kubectl rollout restart deploy/x', 'kubectl rollout'],
    ['kubectl scale deploy/x', 'kubectl scale'],
    ['helm install x ./chart', 'helm install'],
    ['helm upgrade x ./chart', 'helm upgrade'],
    ['helm uninstall x', 'helm uninstall'],
    ['helm rollback x 1', 'helm rollback'],
    ['terraform apply', 'terraform apply'],
    ['terraform destroy', 'terraform destroy'],
    ['terraform import a.b id', 'terraform import'],
    ['tofu apply', 'tofu apply'],
    ['tofu destroy', 'tofu destroy'],
    ['tofu import a.b id', 'tofu import'],
    ['docker push img', 'docker push'],
    ['podman push img', 'podman push'],
    ['npm publish', 'npm publish'],
    ['npm unpublish x@1', 'npm unpublish'],
    ['npm deprecate x@1 old', 'npm deprecate'],
    ['npm undeprecate x@1', 'npm undeprecate'],
    ['npm dist-tag add x@1 beta', 'npm dist-tag'],
    ['npm owner add ana x', 'npm owner'],
    ['npm access set status=public', 'npm access'],
    ['npm token create', 'npm token create'],
    ['npm token revoke abc', 'npm token revoke'],
    ['pnpm publish', 'pnpm publish'],
    ['yarn publish', 'yarn publish'],
    ['yarn npm publish', 'yarn npm publish'],
    ['cargo publish', 'cargo publish'],
    ['gem push x.gem', 'gem push'],
  ])('%s -> %s', (command, what) => {
    expect(effectOf(words(command))).toEqual(external(what));
  });
});

describe('RN-418 effectOf: reads and other subcommands of the same CLIs have no effect', () => {
  it.each([
    'git status',
    'git remote',
    'git remote -v',
    'git remote show origin',
    'git stash push',
    'gh pr list',
    'gh pr',
    'gh release list',
    'gh workflow list',
    'glab mr list',
    'kubectl get pods',
    'helm list',
    'terraform plan',
    'tofu plan',
    'docker build .',
    'docker image ls',
    'podman ps',
    'npm token list',
    'npm token',
    'npm test',
    'pnpm install',
    'yarn npm info x',
    'yarn install',
    'cargo build',
    'gem list',
    'ls -la',
    'gitx push',
    'git',
    '',
  ])('%j -> null', (command) => {
    expect(effectOf(words(command))).toBeNull();
  });
});

describe('RN-418 effectOf: privileged verbs, by their basename', () => {
  it.each([
    ['sudo ls', 'sudo'],
    ['/usr/bin/sudo ls', 'sudo'],
    ['doas ls', 'doas'],
    ['su -c id', 'su'],
    ['pkexec ls', 'pkexec'],
    ['sudoedit /etc/hosts', 'sudoedit'],
    ['run0 ls', 'run0'],
  ])('%s -> privileged %s', (command, what) => {
    expect(effectOf(words(command))).toEqual({ kind: 'privileged', what });
  });
});

describe('RN-418 effectOf: options around the subcommand', () => {
  it.each([
    ['git -C src push', 'git push'],
    ['/usr/bin/git --no-pager push', 'git push'],
    ['git -- push', 'git push'],
    ['kubectl -n prod apply -f x', 'kubectl apply'],
    ['kubectl --context=prod delete pod x', 'kubectl delete'],
    ['docker -H tcp://h push img', 'docker push'],
    ['docker -c alias.prod push img', 'docker push'],
    ['npm --registry=https://r publish', 'npm publish'],
    // Between subcommand levels an unknown option is read as a flag.
    ['git remote --foo add origin x', 'git remote add'],
    ['gh pr --foo create', 'gh pr create'],
    // gh and glab take --repo between the levels (`gh pr --repo o/r create`).
    ['gh pr --repo o/r create', 'gh pr create'],
    ['gh pr -R o/r merge 1', 'gh pr merge'],
    ['glab mr --repo o/r create', 'glab mr create'],
    ['gh --repo o/r pr create', 'gh pr create'],
    // Every CLI's own table of global options is read (each row has an option it lists).
    ['glab -R o/r mr create', 'glab mr create'],
    ['helm -n prod install x ./chart', 'helm install'],
    ['terraform -v apply', 'terraform apply'],
    ['tofu -help apply', 'tofu apply'],
    ['podman -r push img', 'podman push'],
    ['yarn --cwd pkg publish', 'yarn publish'],
    ['pnpm -C pkg publish', 'pnpm publish'],
    ['cargo -Z x publish', 'cargo publish'],
    ['gem -V push x.gem', 'gem push'],
  ])('%s -> %s', (command, what) => {
    expect(effectOf(words(command))).toEqual(external(what));
  });

  it.each([
    ['git --frobnicate status', 'git with unknown option --frobnicate before its subcommand'],
    ['kubectl --foo get pods', 'kubectl with unknown option --foo before its subcommand'],
    ['gh --foo pr list', 'gh with unknown option --foo before its subcommand'],
    ['npm -Q publish', 'npm with unknown option -Q before its subcommand'],
  ])('an unknown option before the subcommand fails closed: %s', (command, what) => {
    expect(effectOf(words(command))).toEqual(external(what));
  });

  it.each([
    // -C takes `push` as its value: the subcommand is status.
    'git -C push status',
    'git --git-dir .git status',
    // A valued option of the inner table is skipped with its value.
    'gh pr --repo create list',
    'kubectl -n apply get pods',
  ])('a valued option takes the next word: %s -> null', (command) => {
    expect(effectOf(words(command))).toBeNull();
  });
});

describe('RN-418 effectOf: other spellings of the same subcommand (issue 9 A.4)', () => {
  it.each([
    ['npm pub', 'npm publish'],
    ['npm distTag add x beta', 'npm dist-tag'],
    ['npm dist-tags ls', 'npm dist-tag'],
    ['npm author ls', 'npm owner'],
    ['helm del x', 'helm uninstall'],
    ['helm un x', 'helm uninstall'],
    ['helm delete x', 'helm uninstall'],
    ['gh pr new', 'gh pr create'],
    ['gh release new v1', 'gh release create'],
    ['docker image push img', 'docker push'],
    ['podman image push img', 'podman push'],
  ])('%s -> %s', (command, what) => {
    expect(effectOf(words(command))).toEqual(external(what));
  });

  it.each([
    ['npm p', 'npm p (may be npm publish)'],
    ['npm un x', null],
  ])('an abbreviation with several readings fails closed when any leads to an effect: %s', (command, what) => {
    expect(effectOf(words(command))).toEqual(what === null ? null : external(what));
  });

  it.each(['npm t', 'npm to', 'npm i x', 'npm rm x', 'docker container ls', 'gh pr ls'])(
    'an alias of a read stays a read: %s -> null',
    (command) => {
      expect(effectOf(words(command))).toBeNull();
    },
  );
});

describe('RN-418 effectOf: gh api / glab api is a read unless it sends a method other than GET or HEAD', () => {
  it.each([
    ['gh api repos/o/r', null],
    ['gh api -X GET repos/o/r', null],
    ['gh api -X get repos/o/r', null],
    ['gh api --method HEAD repos/o/r', null],
    ['gh api -X POST repos/o/r/issues', 'gh api POST'],
    ['gh api --method=PUT repos/o/r', 'gh api PUT'],
    ['gh api --method PATCH repos/o/r', 'gh api PATCH'],
    ['gh api -XDELETE repos/o/r', 'gh api DELETE'],
    ['gh api -X delete repos/o/r', 'gh api DELETE'],
    ['gh --repo o/r api -X POST x', 'gh api POST'],
    ['glab api -X POST projects', 'glab api POST'],
    ['glab api projects', null],
    // A method without its value is not GET: fail closed.
    ['gh api x -X', 'gh api '],
    // Only gh's and glab's own `api` subcommand is the API; a global option's value is no api option.
    ['gh -R -X api repos/o/r', null],
    ['gh pr api -X POST', null],
    ['docker api -X POST', null],
  ])('%s -> %j', (command, what) => {
    expect(effectOf(words(command))).toEqual(what === null ? null : external(what));
  });

  it.each([
    ['gh api -f title=x repos/o/r/issues', 'gh api POST'],
    ['gh api -F n=1 x', 'gh api POST'],
    ['gh api -ftitle=x x', 'gh api POST'],
    ['gh api -Fn=1 x', 'gh api POST'],
    ['gh api --field title=x x', 'gh api POST'],
    ['gh api --field=title=x x', 'gh api POST'],
    ['gh api --raw-field body=x x', 'gh api POST'],
    ['gh api --input body.json x', 'gh api POST'],
    ['gh api --input=body.json x', 'gh api POST'],
    // Fields with an explicit GET are query parameters.
    ['gh api -f q=x -X GET search/issues', null],
    ['gh api -X GET -F q=x search/issues', null],
    // `--field=q=x` carries its value: the next word is read on its own.
    ['gh api --field=q=x -X GET search/issues', null],
  ])('fields make it a POST unless a method is given: %s -> %j', (command, what) => {
    expect(effectOf(words(command))).toEqual(what === null ? null : external(what));
  });

  it.each([
    'gh api -H -f x',
    'gh api --header -f x',
    'gh api -q -f x',
    'gh api --jq -f x',
    'gh api -t -f x',
    'gh api --template -f x',
    'gh api --cache -f x',
    'gh api -p -f x',
    'gh api --preview -f x',
    'gh api --hostname -f x',
  ])('an option with a value never reads that value as a field: %s -> null', (command) => {
    expect(effectOf(words(command))).toBeNull();
  });

  it('the value of --field is skipped, so a value spelled like -X is no method', () => {
    expect(effectOf(words('gh api --field -X x'))).toEqual(external('gh api POST'));
    expect(effectOf(words('gh api --input -X x'))).toEqual(external('gh api POST'));
    expect(effectOf(words('gh api -f -X x'))).toEqual(external('gh api POST'));
    expect(effectOf(words('gh api -F -X x'))).toEqual(external('gh api POST'));
  });
});

describe('RN-418 effectOf: an alias set with git -c can run push', () => {
  it.each([
    ['git -c alias.p=push p', 'alias.p=push'],
    ['git -calias.p=push p', 'alias.p=push'],
    ['git -c ALIAS.P=push p', 'ALIAS.P=push'],
    ['git -C x -c Alias.s=!sh s', 'Alias.s=!sh'],
    ['git --git-dir=.git -c alias.s=status s', 'alias.s=status'],
    ['git -c user.name=x -c alias.p=push p', 'alias.p=push'],
  ])('%s', (command, alias) => {
    expect(effectOf(words(command))).toEqual(external(`git -c ${alias} (an alias can run push)`));
  });

  it.each([
    'git -c user.name=x log',
    'git -c user.name=alias.x log',
    'git --config-env=alias.p=X status',
    'git status -c alias.p=push',
    'git -c',
    // Only -c sets configuration: a folder or a docker context named alias.* is no alias.
    'git -C alias.d log',
  ])('no alias before the subcommand: %s -> null', (command) => {
    expect(effectOf(words(command))).toBeNull();
  });
});

describe('git options that change what git runs: gitConfigOverride', () => {
  it.each([
    ['git -c a.b=c status', '-c'],
    ['git -ca.b=c status', '-c'],
    ['/usr/bin/git -c a.b=c log', '-c'],
    ['git --no-pager -c a.b=c status', '-c'],
    ['git --config-env=core.editor=ED commit', '--config-env'],
    ['git --config-env core.editor=ED commit', '--config-env'],
    ['git --exec-path=/tmp/x status', '--exec-path'],
    ['git --exec-path', '--exec-path'],
    ['git -C src -c a.b=c log', '-c'],
  ])('%s -> %s', (command, option) => {
    expect(gitConfigOverride(words(command))).toBe(option);
  });

  it.each(['git status', 'git -C src status', 'git status -c a.b=c', 'gitx -c a.b=c log', 'ls -c', '', 'git'])(
    '%j -> null',
    (command) => {
      expect(gitConfigOverride(words(command))).toBeNull();
    },
  );
});

describe("gitSubcommandIndex: where git's subcommand is after its global options", () => {
  it.each([
    ['git status', 1],
    ['git -C x status', 3],
    ['git -Cx status', 2],
    ['git -c a=b status', 3],
    ['git --git-dir=x status', 2],
    ['git --git-dir x status', 3],
    ['git -p status', 2],
    ['git --no-pager --bare status', 3],
    ['git -- status', 2],
    ['git --frobnicate status', -1],
    ['git -C', -1],
    ['git', -1],
  ])('%s -> %i', (command, at) => {
    expect(gitSubcommandIndex(words(command))).toBe(at);
  });
});

describe('RN-675: "Always allow" never writes a unit that is a prefix of an RN-418 ceiling (CEILING_COMMANDS)', () => {
  // Each row's unit is a prefix of one ceiling only; without that ceiling it would be written as
  // `Terminal(<verb> <subcommand>)` and then match the ceiling's own command.
  it.each([
    ['gh api repos/o/r', 'gh api repos/o/r'],
    ['glab api projects', 'glab api projects'],
    ['gh workflow list', 'gh workflow list'],
    ['gh release list', 'gh release list'],
    ['glab release list', 'glab release list'],
    ['glab mr list', 'glab mr list'],
    ['git remote show', 'git remote show'],
    ['npm token list', 'npm token list'],
    ['yarn npm info x', 'yarn npm info x'],
  ])('%s is written exactly', (command, pattern) => {
    expect(patternsForAction('terminal', { command })).toEqual({
      kind: 'patterns',
      patterns: [`Terminal(${pattern})`],
    });
  });

  it.each(['sudo', 'doas', 'su', 'pkexec', 'sudoedit', 'run0'])('%s ls writes nothing (privileged)', (verb) => {
    expect(patternsForAction('terminal', { command: `${verb} ls` })).toMatchObject({
      kind: 'refused',
      reason: 'privileged',
    });
  });
});

// Found by this suite: the second word of a two-word spelling was only read right after the first,
// so `gh pr --repo o/r new` (gh's own `new` alias of `pr create`, --repo between the levels) was
// auto-approved in auto mode while `gh pr new` asked.
runCases('RN-418 a two-word alias with an option between its words is the same effect', AUTO, [
  c('gh pr --repo o/r new', Z),
  c('gh pr --repo o/r new --fill', Z),
  c('gh pr -R o/r new', Z),
  c('gh pr --repo=o/r new', Z),
  c('gh pr -R o/r new --title x --body y', Z),
  c('gh pr --frobnicate new', Z),
  c('gh release --repo o/r new v1', Z),
  c('gh release -R o/r new v1', Z),
  c('gh release --repo=o/r new v1 --notes x', Z),
  c('gh --repo o/r pr --repo o/r new', Z),
  c('docker image --frobnicate push img', Z),
  c('podman image --frobnicate push img', Z),
  c('gh pr --repo o/r ls', FREE),
  c('gh pr --repo o/r view new', FREE),
  c('gh issue --repo o/r new', FREE),
]);
