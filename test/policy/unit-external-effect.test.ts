// RN-418 (amending RN-106): decisions on external effects spelled through a CLI's aliases.
import { AUTO, ask, auto, c, runCases } from './adversarial-harness.ts';

const Z = ask('ceiling_external_effect');
const FREE = auto('agent_autonomy_auto_approve');

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
