// The vocabulary of the policy engine. Pure types: everything else in src/policy builds on these,
// and the use cases, `brabo check` and the HTTP layer import them from src/policy/index.ts.

/** The 20 action types of the specification (table "Pattern format"). */
export const ACTION_TYPES = [
  'terminal',
  'git_commit',
  'write_file',
  'git_push',
  'pr_open',
  'git_repo_create',
  'git_branch_create',
  'git_branch_protect',
  'open_adr_pr',
  'open_infra_pr',
  'git_merge',
  'instruction_patch',
  'parallelize',
  'raise_max_parallel',
  'propose_execution_plan',
  'assess_implementability',
  'container_start',
  'container_stop',
  'container_remove',
  'spend',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export const ROLES = ['developer', 'maintainer', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export type Policy = 'auto_approve' | 'require_approval' | 'deny';

/** Where a resolved agent_autonomy came from (RN-603): a specific rule or the `*` wildcard. */
export type AutonomyOrigin = 'especifica' | 'curinga';
export interface ResolvedAutonomy {
  mode: Policy;
  origin: AutonomyOrigin;
}

/** A parsed, validated permissions.json. Patterns are kept as written (`Terminal(pnpm test:*)`). */
export interface Permissions {
  allow: readonly string[];
  deny: readonly string[];
  ask: readonly string[];
}

export interface DecisionInput {
  actionType: ActionType;
  /** terminal: `{command, cwd}`; git_merge: `{branch, prNumber}`; others: free-form. */
  payload: Readonly<Record<string, unknown>>;
  /** Role of the proposer (IAM step). */
  role: Role;
  autonomy: ResolvedAutonomy | null;
  permissions: Permissions;
  /** Absolute, already-validated host path the path scope compares against. */
  scopeRoot: string;
  /** The project is `container` mode and has a container registered `running` (floor C0). */
  containerRunning: boolean;
  /**
   * The project's permissions.json on disk is broken (unreadable JSON or invalid entries). The
   * caller passes what could be salvaged (valid deny/ask entries, never allow) and this flag; the
   * engine then never auto-approves (reason `permissions_file_invalid`).
   */
  permissionsBroken?: boolean;
}

/** What one fragment of a terminal command got from permissions.json (and the scope). */
export type FragmentVerdictKind = 'deny' | 'ask' | 'allow' | 'cd-in-scope' | 'none';
export interface FragmentVerdict {
  /** The fragment as tokens rendered back to text (for people). */
  text: string;
  verdict: FragmentVerdictKind;
  /** The pattern that matched (`Terminal(curl:*)`) or the built-in that did. */
  pattern?: string;
  /** Which list the pattern came from. */
  source?: 'allow' | 'deny' | 'ask' | 'builtin';
  /** Set when the entry is a command another one runs (`find -exec`), judged like a fragment. */
  via?: 'find -exec';
}

export interface Decision {
  policy: Policy;
  /** The closed code of the rule that decided. */
  reasonCode: ReasonCode;
  /** The rendered sentence (renderReason); literal spec texts kept verbatim. */
  reason: string;
  /** Terminal actions only: one verdict per fragment, in order. */
  fragments?: FragmentVerdict[];
}

/**
 * The closed set of reason codes. Every Decision names exactly one; `renderReason` turns a code
 * plus its details into the sentence stored in events and shown to people.
 */
export const REASON_CODES = [
  // step 1
  'iam_role_below_minimum',
  // step 2 (no later step had an opinion)
  'default_require_approval',
  'container_floor',
  // step 3
  'builtin_deny',
  // step 4
  'agent_autonomy_deny',
  'agent_autonomy_auto_approve',
  'agent_autonomy_require_approval',
  // step 5
  'permissions_deny',
  'permissions_deny_uncertain',
  'permissions_ask',
  'permissions_allow',
  'scope_cd_in_project',
  // step 6, ceilings
  'ceiling_external_effect',
  'ceiling_privileged',
  'ceiling_typed_external_effect',
  'ceiling_protected_branch_merge',
  'ceiling_instruction_patch',
  'ceiling_parallelism',
  'ceiling_container_remove',
  'ceiling_path_scope',
  'ceiling_compound_unmatched',
  // fail-closed extras
  'unsafe_shell_construct',
  'git_config_override',
  'protected_file_write',
  // kill/pkill/killall reaching past the command's own processes
  'signals_other_processes',
  // git WORD where WORD is no git command: an alias the engine cannot see
  'git_subcommand_unknown',
  // an option or environment variable makes the tool run a program the rules never judged
  'option_runs_program',
  'permissions_file_invalid',
  'invalid_payload',
  // longer than MAX_COMMAND_LENGTH: not parsed, a human reads it
  'command_too_long',
  // decide() itself failed: never auto-approve
  'policy_internal_error',
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];
