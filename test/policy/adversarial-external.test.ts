// Adversarial: RN-418 external effects (git, provider CLIs, deploys) hidden behind global options,
// git options that change what git runs, and the typed half of the ceilings (RN-689, RN-006,
// RN-007, RN-086, RN-495). Auto mode: everything not under a ceiling would auto-approve.
import type { Permissions } from '../../src/policy/types.ts';
import {
  AUTO,
  FLOOR,
  MANUAL,
  PROJECT_PERMISSIONS,
  ask,
  auto,
  c,
  deny,
  runCases,
  runTypedCases,
} from './adversarial-harness.ts';

const Z = ask('ceiling_external_effect');
const G = ask('git_config_override');
const FREE = auto('agent_autonomy_auto_approve');

runCases('RN-418 git global options before the subcommand are skipped', AUTO, [
  c('git push', Z),
  c('git push --dry-run', Z),
  c('git -C /tmp push', Z),
  c('git -C src push origin main', Z),
  c('git --git-dir=.git push', Z),
  c('git --work-tree=. push', Z),
  c('git --no-pager push', Z),
  c('git -p push', Z),
  c('git --bare push', Z),
  c('git --frobnicate push', Z, { note: 'unknown option fails closed' }),
  c('git --frobnicate status', Z, { note: 'unknown option fails closed even before a read' }),
  c('git remote add origin https://x', Z),
  c('git remote set-url origin https://x', Z),
  c('git merge feature', Z),
  c('git status && git push', Z),
]);
runCases('RN-418 git reads stay free in auto mode', AUTO, [
  c('git remote -v', auto('permissions_allow')),
  c('git stash push', FREE, { note: 'the subcommand is stash' }),
  c('git pushx', ask('git_subcommand_unknown'), {
    note: 'not read as push; but no git command either, so it may be an outside alias (issue 9 class 3)',
  }),
  c('git log --grep=push', auto('permissions_allow')),
  c('git -C push status', auto(), { note: '-C takes the value "push"' }),
  c('git -C src status', auto()),
]);

runCases('git options that change what git runs', AUTO, [
  c('git -c alias.p=push p', G),
  c('git -c core.pager=less log', G),
  c("git -c core.sshCommand='sh -c evil' fetch", G),
  c('git --config-env=core.editor=EDITOR commit', G),
  c('git --exec-path=/tmp/evil status', G),
  c('git --exec-path', G),
  c('ls && git -c alias.s=status s', G),
]);
runCases('git -c is not matched by the DEV allow patterns', MANUAL, [c('git -c core.pager=cat log', ask())]);
runCases('DEV preset git reads are auto-approved (family 2)', MANUAL, [
  c('git remote -v', auto('permissions_allow')),
  c('git remote show origin', auto('permissions_allow')),
  c('git branch -a', auto('permissions_allow')),
  c('git worktree list', auto('permissions_allow')),
  c('git config --get user.name', auto('permissions_allow')),
  c('git branch -D main', ask(), { note: 'the bare verb is never pre-seeded' }),
  c('git remote add origin x', ask()),
]);

runCases('RN-418 provider CLIs', AUTO, [
  c('gh pr create --fill', Z),
  c('gh pr merge 12 --squash', Z),
  c('gh release create v1.0.0', Z),
  c('gh workflow run deploy.yml', Z),
  c('glab mr create', Z),
  c('glab mr merge 3', Z),
  c('glab release create v1', Z),
  c('gh -R owner/repo pr create', Z),
  c('gh pr list', FREE),
  c('gh pr view 12', FREE),
]);

runCases('RN-418 deploys and publishes', AUTO, [
  c('kubectl apply -f x.yaml', Z),
  c('kubectl -n prod apply -f x.yaml', Z),
  c('kubectl --context prod delete pod x', Z),
  c('kubectl create secret generic x', Z),
  c('kubectl replace -f x.yaml', Z),
  c(`kubectl patch deploy x -p '{"spec":{}}'`, Z),
  c('kubectl rollout restart deploy/x', Z),
  c('kubectl scale --replicas=0 deploy/x', Z),
  c('helm install x ./chart', Z),
  c('helm upgrade --install x ./chart', Z),
  c('helm uninstall x', Z),
  c('helm rollback x 1', Z),
  c('terraform apply -auto-approve', Z),
  c('terraform -chdir=infra apply', Z),
  c('terraform destroy', Z),
  c('terraform import a.b id', Z),
  c('docker push registry/img', Z),
  c('docker image push registry/img', Z),
  c('docker -H tcp://h:2375 push img', Z),
  c('npm publish', Z),
  c('pnpm publish --no-git-checks', Z),
  c('yarn publish', Z),
  c('cargo publish', Z),
  c('gem push x.gem', Z),
  c('npm --registry=https://r publish', Z),
  c('sh -c "kubectl apply -f x"', Z),
  c('kubectl get pods', FREE),
  c('kubectl -n prod get pods', FREE),
  c('helm list', FREE),
  c('terraform plan', FREE),
  c('terraform -chdir=infra plan', FREE),
  c('docker build .', FREE),
  c('npm run publish', auto('permissions_allow'), { note: 'a script named publish, the subcommand is run' }),
]);

runCases('ask beats the container floor; external effects stay a ceiling', FLOOR, [
  c('git commit -m x', ask('permissions_ask')),
  c('git push', Z),
  c('ls', auto('permissions_allow')),
  c('make build', auto('container_floor')),
]);
runCases('ask beats auto mode', AUTO, [c('git commit -m x', ask('permissions_ask'))]);

const allowEverythingTyped: Permissions = {
  allow: ['GitPush()', 'PrOpen()', 'GitMerge()', 'ContainerRemove()', 'InstructionPatch()', 'Parallelize()'],
  deny: [],
  ask: [],
};
runTypedCases('RN-689 / RN-006 / RN-007 / RN-086 / RN-495 typed ceilings in auto mode, with allow', [
  {
    actionType: 'git_push',
    permissions: allowEverythingTyped,
    expect: ask('ceiling_typed_external_effect'),
    note: 'allowed + auto',
  },
  {
    actionType: 'pr_open',
    permissions: allowEverythingTyped,
    expect: ask('ceiling_typed_external_effect'),
    note: 'allowed + auto',
  },
  ...['main', 'dev', 'qa', 'rc'].map((branch) => ({
    actionType: 'git_merge' as const,
    payload: { branch, prNumber: 1 },
    permissions: allowEverythingTyped,
    expect: ask('ceiling_protected_branch_merge'),
    note: `into ${branch}`,
  })),
  {
    actionType: 'git_merge',
    payload: { prNumber: 1 },
    expect: ask('ceiling_protected_branch_merge'),
    note: 'branch missing',
  },
  {
    actionType: 'git_merge',
    payload: { branch: 42 },
    expect: ask('ceiling_protected_branch_merge'),
    note: 'branch not a string',
  },
  {
    actionType: 'git_merge',
    payload: { branch: 'feature/x', prNumber: 1 },
    expect: auto(),
    note: 'into a feature branch',
  },
  {
    actionType: 'container_remove',
    permissions: allowEverythingTyped,
    expect: ask('ceiling_container_remove'),
    note: 'allowed + auto',
  },
  {
    actionType: 'instruction_patch',
    permissions: allowEverythingTyped,
    expect: ask('ceiling_instruction_patch'),
    note: 'allowed + auto',
  },
  { actionType: 'parallelize', expect: ask('ceiling_parallelism'), note: 'auto' },
  { actionType: 'raise_max_parallel', expect: ask('ceiling_parallelism'), note: 'auto' },
]);
runTypedCases('IAM and deny are final for typed actions', [
  {
    actionType: 'git_push',
    role: 'developer',
    permissions: allowEverythingTyped,
    expect: deny('iam_role_below_minimum'),
    note: 'by a developer',
  },
  { actionType: 'spend', role: 'maintainer', expect: deny('iam_role_below_minimum'), note: 'by a maintainer' },
  {
    actionType: 'git_commit',
    permissions: { allow: ['GitCommit()'], deny: ['GitCommit()'], ask: [] },
    expect: deny('permissions_deny'),
    note: 'denied and allowed',
  },
  { actionType: 'git_commit', expect: ask('permissions_ask'), note: 'ask in auto mode' },
  {
    actionType: 'git_commit',
    autonomy: null,
    permissions: { allow: ['GitCommit(x)'], deny: [], ask: [] },
    expect: ask(),
    note: 'Label(x) matches nothing',
  },
  {
    actionType: 'git_commit',
    autonomy: { mode: 'deny', origin: 'especifica' },
    permissions: { allow: ['GitCommit()'], deny: [], ask: [] },
    expect: deny('agent_autonomy_deny'),
    note: 'autonomy deny beats allow',
  },
]);

runCases(
  'agent_autonomy deny and a broken permissions.json',
  { ...AUTO, label: 'autonomy deny', autonomy: { mode: 'deny', origin: 'curinga' } },
  [c('ls', deny('agent_autonomy_deny'))],
);
runCases(
  'a broken permissions.json never auto-approves',
  {
    ...AUTO,
    label: 'auto mode, file broken',
    permissions: { ...PROJECT_PERMISSIONS, allow: [] },
    permissionsBroken: true,
  },
  [c('ls', ask('permissions_file_invalid')), c('curl x', deny('permissions_deny'))],
);

runCases('more spellings of the same push and deploy', AUTO, [
  c("git pu''sh", Z),
  c('git -C. push', Z),
  c('git --git-dir .git push', Z),
  c('git -C src -C . push', Z),
  c('git add -A && git push --force', Z),
  c('kubectl apply --dry-run=client -f x', Z),
  c('KUBECONFIG=x kubectl apply -f y', Z),
  c('git -c user.name=x commit -m y', G),
]);
