// The one function that turns a reason code into the sentence stored in events and shown to
// people (RN-567, RN-614). Literal texts from the specification are kept exactly.
import type { ReasonCode } from './types.ts';

export interface ReasonDetail {
  actionType?: string;
  role?: string;
  minRole?: string;
  /** The pattern(s) that decided (`Terminal(pnpm test:*)`). */
  patterns?: readonly string[];
  /** What a ceiling or an unsafe construct found (`git push`, `command substitution $(…)`). */
  what?: string;
  branch?: string | null;
  /** The token or path that left the scope. */
  path?: string;
  /** A fragment's text. */
  fragment?: string;
  problem?: string;
  /** command_too_long: the command's length and the cap. */
  length?: number;
  limit?: number;
}

const joined = (patterns: readonly string[] | undefined): string => (patterns ?? []).join(', ');

/** The typed action to use instead of a terminal git command (RN-418 message). */
function typedAlternative(what: string): string {
  if (what.startsWith('git push') || what.startsWith('git remote') || what.startsWith('git -c'))
    return '; use the typed action git_push';
  if (what.startsWith('git merge')) return '; use the typed action git_merge';
  if (what.startsWith('gh pr') || what.startsWith('glab mr')) return '; use the typed action pr_open';
  return '';
}

export function renderReason(code: ReasonCode, detail: ReasonDetail = {}): string {
  switch (code) {
    case 'iam_role_below_minimum':
      return `iam: role ${detail.role ?? '?'} is below the minimum ${detail.minRole ?? '?'} for ${detail.actionType ?? 'this action'}`;
    case 'default_require_approval':
      return 'no rule: approval required by default';
    case 'container_floor':
      return 'container floor: terminal in a running project container';
    case 'builtin_deny':
      return `built-in deny ${joined(detail.patterns)}`;
    case 'agent_autonomy_deny':
      return 'agent_autonomy: deny';
    case 'agent_autonomy_auto_approve':
      return 'agent_autonomy: auto_approve';
    case 'agent_autonomy_require_approval':
      return 'agent_autonomy: require_approval';
    case 'permissions_deny':
      return `permissions.json: deny ${joined(detail.patterns)}`;
    case 'permissions_deny_uncertain':
      return `permissions.json: the command may be one that deny ${joined(detail.patterns)} forbids (an abbreviation with several readings); approval required`;
    case 'permissions_ask':
      return `permissions.json: ask ${joined(detail.patterns)}`;
    case 'permissions_allow':
      return `permissions.json: allow ${joined(detail.patterns)}`;
    case 'scope_cd_in_project':
      return 'escopo: cd dentro da pasta do projeto';
    case 'ceiling_external_effect': {
      const what = detail.what ?? 'external effect';
      return `ceiling: ${what} has an external effect and always needs a human decision (RN-418)${typedAlternative(what)}`;
    }
    case 'ceiling_privileged':
      return `ceiling: ${detail.what ?? 'sudo'} is a privileged command and always needs a human decision (RN-418)`;
    case 'ceiling_typed_external_effect':
      return `ceiling: ${detail.actionType ?? 'git_push'} has an external effect and always needs a human decision (RN-689)`;
    case 'ceiling_protected_branch_merge':
      return typeof detail.branch === 'string'
        ? `ceiling: merge into protected branch ${detail.branch} is always a human decision (RN-006)`
        : 'ceiling: merge without a valid target branch is always a human decision (RN-006)';
    case 'ceiling_instruction_patch':
      return "ceiling: instruction_patch changes another agent's behaviour; a human reviews the diff (RN-007)";
    case 'ceiling_parallelism':
      return `ceiling: ${detail.actionType ?? 'parallelize'} spends money on more agents; a human decides (RN-086)`;
    case 'ceiling_container_remove':
      return 'ceiling: container_remove discards the container; decided every time (RN-495)';
    case 'ceiling_path_scope':
      return `ceiling: path scope: ${detail.path ?? 'a path'} is outside the project folder (RN-075)`;
    case 'ceiling_compound_unmatched':
      return `ceiling: compound command: fragment "${detail.fragment ?? '?'}" has no rule`;
    case 'unsafe_shell_construct':
      return `unsafe shell construct: ${detail.what ?? 'unreadable command'}`;
    case 'git_config_override': {
      const what = detail.what ?? '-c';
      // `-c`, `--exec-path` are options; `git config alias.p`, `GIT_SSH_COMMAND` are named as found.
      return what.startsWith('-')
        ? `git option ${what} changes what git runs; approval required`
        : `${what} changes what git runs; approval required`;
    }
    case 'signals_other_processes':
      return `signals processes this command did not start: ${detail.what ?? 'kill'}; approval required`;
    case 'git_subcommand_unknown':
      return `${detail.what ?? 'git ?'} is not a git command: it may be an alias from the user's git configuration, which the engine cannot see, so deny rules and ceilings cannot be checked; approval required (an allow pattern that names it, like Terminal(${detail.what ?? 'git ?'}:*), allows it)`;
    case 'option_runs_program':
      return `${detail.what ?? 'an option runs a program'}: a program no rule judged; approval required`;
    case 'protected_file_write':
      return `writes the protected file ${detail.path ?? '?'}; approval required`;
    case 'permissions_file_invalid':
      return `permissions.json is invalid${detail.problem !== undefined ? ` (${detail.problem})` : ''}; nothing is auto-approved until it is fixed`;
    case 'invalid_payload':
      return `invalid payload: ${detail.problem ?? 'missing fields'}`;
    case 'command_too_long':
      return `the command is ${detail.length ?? '?'} characters long, over the ${detail.limit ?? '?'} the policy engine reads; it was not parsed and a human decides`;
    case 'policy_internal_error':
      return `the policy engine failed (${detail.problem ?? 'unknown error'}); approval required`;
  }
}
