// Adversarial (found while mutation testing wrappers.ts, issue 9): the two-word runners (`npm
// exec`, `pnpm exec`, `pnpm dlx`, `yarn exec`, `npm x`) were recognized only right after the CLI.
// A global option first (`pnpm -r exec CMD`, common in workspaces; `npm --prefix x exec CMD`) hid
// CMD from deny and the RN-418 ceilings: `pnpm -r exec rm -rf /` was auto-approved in auto mode.
import { AUTO, MANUAL, ask, auto, c, deny, runCases } from './adversarial-harness.ts';

const EFFECT = ask('ceiling_external_effect');

runCases('issue 9: a runner after the CLI global options still runs its command (RN-418)', AUTO, [
  c('pnpm -r exec git push', EFFECT),
  c('pnpm --recursive exec git push', EFFECT),
  c('pnpm --filter x exec git push', EFFECT),
  c('pnpm -F x exec git push', EFFECT),
  c('pnpm -C dir exec git push', EFFECT),
  c('pnpm --dir=dir exec git push', EFFECT),
  c('pnpm -r --parallel exec git push', EFFECT),
  c('pnpm -r dlx git push', EFFECT),
  c('npm --prefix x exec git push', EFFECT),
  c('npm -w x exec -- git push', EFFECT),
  c('npm --workspaces exec git push', EFFECT),
  c('npm -w a x git push', EFFECT),
  c('yarn --cwd x exec git push', EFFECT),
  c('/usr/bin/pnpm -r exec git push', EFFECT),
  c('pnpm -r exec sudo ls', ask('ceiling_privileged')),
  c('pnpm -r exec rm -rf /', deny('builtin_deny')),
  c("pnpm -r exec -c 'ls; rm -rf /'", deny('builtin_deny')),
]);

runCases('issue 9: deny sees the command of a runner after global options', MANUAL, [
  c('pnpm -r exec curl x', deny('permissions_deny')),
  c('npm --prefix x exec curl x', deny('permissions_deny')),
  c('yarn --cwd x exec curl x', deny('permissions_deny')),
]);

runCases('issue 9: global options before any other subcommand change nothing', AUTO, [
  c('pnpm -r test', auto('agent_autonomy_auto_approve')),
  c('npm --prefix x run build', auto('agent_autonomy_auto_approve')),
  c('pnpm -r --filter x exec ls', auto('agent_autonomy_auto_approve')),
]);
