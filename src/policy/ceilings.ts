// Step 6: the ceilings. They only lower `auto_approve` to `require_approval` and never touch a
// deny; the first that fires names the reason. Order: broken file, unsafe construct, git config
// override, protected file write, external effect / privileged, typed ceilings, path scope,
// compound rule. Only the last two are lifted, by auto mode (the `*` wildcard, RN-603).
import { ACTION_TYPE_FACTS } from './action-types.ts';
import { firstInViews, forEachView } from './analysis.ts';
import type { AnalyzedCommand } from './analysis.ts';
import { effectOf, gitConfigOverride } from './external-effect.ts';
import { gitConfigWrite, gitEnvironmentOverride } from './git-config.ts';
import { gitRunsCommand } from './git-runs-command.ts';
import { gitSubcommandUnknown } from './git-subcommands.ts';
import type { Effect } from './external-effect.ts';
import { isProtectedBranch } from './labels.ts';
import type { ReasonDetail } from './reasons.ts';
import type { ScopeResult } from './scope.ts';
import { UNSAFE_WHAT } from './shell-scan.ts';
import { signalsOutside } from './signals.ts';
import { optionRunsProgram, programEnvironment } from './program-options.ts';
import type { ActionType, FragmentVerdictKind, ReasonCode } from './types.ts';

export interface Ceiling {
  code: ReasonCode;
  detail: ReasonDetail;
}

export interface TerminalCeilingInput {
  analysis: AnalyzedCommand;
  cwd: string | null;
  root: string;
  scope: ScopeResult;
  verdicts: readonly FragmentVerdictKind[];
  fragmentTexts: readonly string[];
  autoMode: boolean;
  tokenizerHealthy: boolean;
  /** Git subcommands the allow patterns name (`Terminal(git lfs:*)`): not taken for outside aliases. */
  gitSubcommandsNamed?: ReadonlySet<string>;
}

const NOTHING_NAMED: ReadonlySet<string> = new Set();

/** The first external effect or privileged command in any reading of any fragment. */
export function firstEffect(analysis: AnalyzedCommand): Effect | null {
  return firstInViews(analysis, effectOf);
}

/** `git config alias.p push`, `GIT_SSH_COMMAND=x …`: git configuration smuggled in. */
export function firstGitSmuggling(analysis: AnalyzedCommand): string | null {
  return firstInViews(analysis, (view) => gitConfigWrite(view) ?? gitEnvironmentOverride(view) ?? gitRunsCommand(view));
}

/** `git -c …`, `--config-env`, `--exec-path` before git's subcommand. */
export function firstGitOverride(analysis: AnalyzedCommand): string | null {
  return firstInViews(analysis, gitConfigOverride);
}

/** Ceilings b-e, g, h for a terminal command. */
export function terminalCeiling(input: TerminalCeilingInput): Ceiling | null {
  if (!input.tokenizerHealthy) {
    return { code: 'unsafe_shell_construct', detail: { what: UNSAFE_WHAT.tokenizer_self_test_failed } };
  }
  const finding = input.analysis.findings[0];
  if (finding !== undefined) return { code: 'unsafe_shell_construct', detail: { what: finding.what } };
  const override = firstGitOverride(input.analysis);
  if (override !== null) return { code: 'git_config_override', detail: { what: override } };
  const write = input.scope.protectedWrite;
  if (write !== null) return { code: 'protected_file_write', detail: { path: write } };
  const effect = firstEffect(input.analysis);
  if (effect !== null) {
    return {
      code: effect.kind === 'privileged' ? 'ceiling_privileged' : 'ceiling_external_effect',
      detail: { what: effect.what },
    };
  }
  // After the external effect, so `GIT_SSH_COMMAND=x git push` still names the push.
  const smuggled = firstGitSmuggling(input.analysis);
  if (smuggled !== null) return { code: 'git_config_override', detail: { what: smuggled } };
  // One walk over the readings for the three below; the first of each is kept, named in this order.
  const named = input.gitSubcommandsNamed ?? NOTHING_NAMED;
  let signalled: string | null = null;
  let runs: string | null = null;
  let unknown: string | null = null;
  forEachView(input.analysis, (view) => {
    signalled ??= signalsOutside(view);
    runs ??= optionRunsProgram(view) ?? programEnvironment(view);
    unknown ??= gitSubcommandUnknown(view, named);
  });
  // `kill -9 -1`, `pkill .`: not lifted by auto mode (the runner itself would be signalled).
  if (signalled !== null) return { code: 'signals_other_processes', detail: { what: signalled } };
  // `tar --to-command=CMD`, `PAGER=CMD git log`: a program no rule judged, in every mode.
  if (runs !== null) return { code: 'option_runs_program', detail: { what: runs } };
  // `git r --hard` with `r` an alias in ~/.gitconfig: no deny nor ceiling can see what runs.
  if (unknown !== null) return { code: 'git_subcommand_unknown', detail: { what: unknown } };
  if (!input.autoMode) {
    if (input.scope.outside !== null) return { code: 'ceiling_path_scope', detail: { path: input.scope.outside } };
    if (input.verdicts.length > 1) {
      const none = input.verdicts.indexOf('none');
      if (none >= 0)
        return { code: 'ceiling_compound_unmatched', detail: { fragment: input.fragmentTexts[none] ?? '' } };
    }
  }
  // Issue 9 A.2/A.3: protected paths an unknown writer names, or a write that could reach one.
  // Last, so the more specific reasons above keep their names; auto mode does not lift it.
  if (input.scope.protectedName !== null)
    return { code: 'protected_file_write', detail: { path: input.scope.protectedName } };
  return null;
}

/** Ceiling f: the typed action types that are never auto-approved (RN-006/007/086/495/689). */
export function typedCeiling(actionType: ActionType, payload: Readonly<Record<string, unknown>>): Ceiling | null {
  const kind = ACTION_TYPE_FACTS[actionType].typedCeiling;
  switch (kind) {
    case null:
      return null;
    case 'external_effect':
      return { code: 'ceiling_typed_external_effect', detail: { actionType } };
    case 'protected_branch_merge': {
      const branch = payload['branch'];
      // No branch to name: the sentence says the target is missing.
      if (typeof branch !== 'string' || branch.trim() === '')
        return { code: 'ceiling_protected_branch_merge', detail: {} };
      return isProtectedBranch(branch) ? { code: 'ceiling_protected_branch_merge', detail: { branch } } : null;
    }
    case 'instruction_patch':
      return { code: 'ceiling_instruction_patch', detail: {} };
    case 'parallelism':
      return { code: 'ceiling_parallelism', detail: { actionType } };
    case 'container_remove':
      return { code: 'ceiling_container_remove', detail: {} };
  }
}
