// decide(): the order of DESIGN "decide(): the order". Pure and total: it never throws, and an
// internal failure yields require_approval (or the deny already found), never auto_approve.
import { analyzeCommand } from './analysis.ts';
import type { AnalyzedCommand } from './analysis.ts';
import { terminalCeiling, typedCeiling } from './ceilings.ts';
import type { Ceiling } from './ceilings.ts';
import { builtinDeny, firstDeny } from './deny.ts';
import { isActionType, isRole, MIN_ROLE, roleAtLeast } from './labels.ts';
import { MAX_COMMAND_LENGTH } from './limits.ts';
import { gitSubcommandsNamed } from './git-subcommands.ts';
import { exactPatternCovers } from './mutating-forms.ts';
import { matchNormalForm } from './normal-form.ts';
import { compilePermissions, globalOptionStarts, matchesPastGlobals, patternMatchesFragment } from './pattern.ts';
import type { CompiledPermissions } from './pattern.ts';
import { renderReason } from './reasons.ts';
import type { ReasonDetail } from './reasons.ts';
import { checkScope } from './scope.ts';
import { tokenizerHealthy } from './tokenizer.ts';
import type { Fragment } from './tokenizer.ts';
import type {
  ActionType,
  Decision,
  DecisionInput,
  FragmentVerdict,
  Permissions,
  Policy,
  ReasonCode,
  ResolvedAutonomy,
} from './types.ts';

interface Current {
  policy: Policy;
  code: ReasonCode;
  detail: ReasonDetail;
}

function decision(current: Current, fragments?: FragmentVerdict[]): Decision {
  const out: Decision = {
    policy: current.policy,
    reasonCode: current.code,
    reason: renderReason(current.code, current.detail),
  };
  if (fragments !== undefined) out.fragments = fragments;
  return out;
}

const deny = (code: ReasonCode, detail: ReasonDetail = {}): Current => ({ policy: 'deny', code, detail });
const approval = (code: ReasonCode, detail: ReasonDetail = {}): Current => ({
  policy: 'require_approval',
  code,
  detail,
});

function isPermissions(x: unknown): x is Permissions {
  if (typeof x !== 'object' || x === null) return false;
  const p = x as Record<string, unknown>;
  const list = (v: unknown) => Array.isArray(v) && v.every((e) => typeof e === 'string');
  return list(p['allow']) && list(p['deny']) && list(p['ask']);
}

function validAutonomy(x: unknown): ResolvedAutonomy | null {
  if (typeof x !== 'object' || x === null) return null;
  const a = x as Record<string, unknown>;
  const modes = ['auto_approve', 'require_approval', 'deny'];
  if (!modes.includes(a['mode'] as string) || (a['origin'] !== 'especifica' && a['origin'] !== 'curinga')) return null;
  return a as unknown as ResolvedAutonomy;
}

export function decide(input: DecisionInput): Decision {
  // A deny found before an internal failure is still the answer.
  const found: { deny: Decision | null } = { deny: null };
  try {
    return decideOrThrow(input, found);
  } catch (error) {
    if (found.deny !== null) return found.deny;
    const problem = error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
    return decision(approval('policy_internal_error', { problem }));
  }
}

function decideOrThrow(input: DecisionInput, found: { deny: Decision | null }): Decision {
  if (typeof input !== 'object' || input === null)
    return decision(approval('invalid_payload', { problem: 'the decision input is not an object' }));
  const actionType: unknown = input.actionType;
  if (!isActionType(actionType))
    return decision(approval('invalid_payload', { problem: `unknown action type ${String(actionType)}` }));

  // 1. IAM: permissions.json never grants what IAM denies.
  const minRole = MIN_ROLE[actionType];
  if (!isRole(input.role) || !roleAtLeast(input.role, minRole)) {
    return decision(deny('iam_role_below_minimum', { role: String(input.role), minRole, actionType }));
  }

  const payload: Readonly<Record<string, unknown>> =
    typeof input.payload === 'object' && input.payload !== null ? input.payload : {};
  const permissionsValid = isPermissions(input.permissions);
  const permissions = permissionsValid ? input.permissions : { allow: [], deny: [], ask: [] };
  const broken = input.permissionsBroken === true || !permissionsValid;
  const compiled = compilePermissions(permissions);
  const autonomy = validAutonomy(input.autonomy);

  if (actionType === 'terminal') return decideTerminal(input, payload, compiled, autonomy, broken, found);
  return decideTyped(actionType, payload, compiled, autonomy, broken);
}

function applyAutonomy(current: Current, autonomy: ResolvedAutonomy | null): Current {
  if (autonomy === null) return current;
  if (autonomy.mode === 'deny') return deny('agent_autonomy_deny');
  if (autonomy.mode === 'auto_approve')
    return { policy: 'auto_approve', code: 'agent_autonomy_auto_approve', detail: {} };
  return approval('agent_autonomy_require_approval');
}

function applyCeiling(current: Current, ceiling: Ceiling | null): Current {
  if (current.policy !== 'auto_approve' || ceiling === null) return current;
  return approval(ceiling.code, ceiling.detail);
}

const BROKEN: Ceiling = { code: 'permissions_file_invalid', detail: {} };

function decideTyped(
  actionType: ActionType,
  payload: Readonly<Record<string, unknown>>,
  compiled: CompiledPermissions,
  autonomy: ResolvedAutonomy | null,
  broken: boolean,
): Decision {
  let current = applyAutonomy(approval('default_require_approval'), autonomy);
  if (current.policy === 'deny') return decision(current);
  // 5. `Label()` matches the whole type: deny > ask > allow.
  const denied = compiled.deny.types.get(actionType);
  if (denied !== undefined) return decision(deny('permissions_deny', { patterns: [denied] }));
  const asked = compiled.ask.types.get(actionType);
  const allowed = compiled.allow.types.get(actionType);
  if (asked !== undefined) current = approval('permissions_ask', { patterns: [asked] });
  else if (allowed !== undefined)
    current = { policy: 'auto_approve', code: 'permissions_allow', detail: { patterns: [allowed] } };
  current = applyCeiling(current, broken ? BROKEN : null);
  current = applyCeiling(current, typedCeiling(actionType, payload));
  return decision(current);
}

function decideTerminal(
  input: DecisionInput,
  payload: Readonly<Record<string, unknown>>,
  compiled: CompiledPermissions,
  autonomy: ResolvedAutonomy | null,
  broken: boolean,
  found: { deny: Decision | null },
): Decision {
  const command = payload['command'];
  if (typeof command !== 'string' || command.trim() === '') {
    return decision(approval('invalid_payload', { problem: 'terminal needs a non-empty string "command"' }));
  }
  const rawCwd = payload['cwd'];
  if (rawCwd !== undefined && typeof rawCwd !== 'string') {
    return decision(approval('invalid_payload', { problem: 'terminal "cwd" must be a string' }));
  }
  // Over the cap nothing is parsed, not even for a deny: a bounded decision for any input.
  if (command.length > MAX_COMMAND_LENGTH) {
    return decision(approval('command_too_long', { length: command.length, limit: MAX_COMMAND_LENGTH }));
  }
  const root = typeof input.scopeRoot === 'string' ? input.scopeRoot : '';
  const cwd = rawCwd ?? root;
  const analysis = analyzeCommand(command);
  if (analysis.fragments.length === 0) {
    return decision(approval('invalid_payload', { problem: 'the command has no words' }));
  }

  // 2. Base, with the container floor (RN-492/RN-493).
  let current: Current =
    input.containerRunning === true
      ? { policy: 'auto_approve', code: 'container_floor', detail: {} }
      : approval('default_require_approval');

  // 3. Built-in denies, on any fragment, through wrappers and nested commands.
  const builtin = builtinDeny(analysis);
  if (builtin !== null && builtin.certain) {
    found.deny = decision(
      deny('builtin_deny', { patterns: [builtin.pattern] }),
      verdictsFor(analysis, builtin.fragmentIndex, builtin.pattern, 'builtin'),
    );
    return found.deny;
  }

  // 4. agent_autonomy.
  current = applyAutonomy(current, autonomy);
  if (current.policy === 'deny') return (found.deny = decision(current));

  // 5. permissions.json, fragment by fragment.
  const fileDenied = firstDeny(analysis, compiled.deny.terminal);
  if (fileDenied !== null && fileDenied.certain) {
    found.deny = decision(
      deny('permissions_deny', { patterns: [fileDenied.pattern] }),
      verdictsFor(analysis, fileDenied.fragmentIndex, fileDenied.pattern, 'deny'),
    );
    return found.deny;
  }
  const scope = checkScope(analysis, cwd, root);
  const judge = (fragment: Fragment, cdInScope: boolean): FragmentVerdict => {
    const text = fragment.text;
    const ask = compiled.ask.terminal.find((p) => patternMatchesFragment(p, fragment));
    if (ask !== undefined) return { text, verdict: 'ask', pattern: ask.source, source: 'ask' };
    // An exact pattern read-anchored on a subcommand never covers its mutating forms (mutating-forms.ts).
    const allow = compiled.allow.terminal.find(
      (p) => patternMatchesFragment(p, fragment) && exactPatternCovers(p.argv, fragment.argv),
    );
    if (allow !== undefined) return { text, verdict: 'allow', pattern: allow.source, source: 'allow' };
    if (cdInScope) return { text, verdict: 'cd-in-scope' };
    return { text, verdict: 'none' };
  };
  // A command `find -exec` runs is judged like one more fragment right after its find.
  const verdicts: FragmentVerdict[] = [];
  analysis.fragments.forEach((f, i) => {
    verdicts.push(judge(f.fragment, scope.cdInScope[i] === true));
    for (const inner of f.execs) verdicts.push({ ...judge(inner, false), via: 'find -exec' });
  });
  const asked = verdicts.filter((v) => v.verdict === 'ask');
  if (asked.length > 0) {
    current = approval('permissions_ask', { patterns: unique(asked.map((v) => v.pattern!)) });
  } else if (verdicts.every((v) => v.verdict === 'allow' || v.verdict === 'cd-in-scope')) {
    const allowPatterns = unique(verdicts.filter((v) => v.verdict === 'allow').map((v) => v.pattern!));
    current =
      allowPatterns.length === 0
        ? { policy: 'auto_approve', code: 'scope_cd_in_project', detail: {} }
        : { policy: 'auto_approve', code: 'permissions_allow', detail: { patterns: allowPatterns } };
  }

  // 6. Ceilings.
  current = applyCeiling(current, broken ? BROKEN : null);
  current = applyCeiling(
    current,
    terminalCeiling({
      analysis,
      cwd,
      root,
      scope,
      verdicts: verdicts.map((v) => v.verdict),
      fragmentTexts: verdicts.map((v) => v.text),
      autoMode: autonomy !== null && autonomy.mode === 'auto_approve' && autonomy.origin === 'curinga',
      tokenizerHealthy: tokenizerHealthy(),
      gitSubcommandsNamed: namedGitSubcommands(compiled),
    }),
  );
  // Ask, like deny, sees past a CLI's global options (`git -C . commit` with ask `git commit`,
  // issue 9 A.4). Checked last, so the reasons above keep their names.
  if (current.policy === 'auto_approve') {
    const asked = askPastGlobals(analysis, compiled);
    if (asked !== null) current = approval('permissions_ask', { patterns: [asked] });
  }
  // A deny that only an ambiguous abbreviation reaches (`npm p` may be `npm publish`) asks.
  const uncertain = builtin ?? fileDenied;
  if (current.policy === 'auto_approve' && uncertain !== null)
    current = approval('permissions_deny_uncertain', { patterns: [uncertain.pattern] });
  return decision(current, verdicts);
}

/** Ask patterns read as the CLI reads the command: past global options, aliases, option sets. */
function askPastGlobals(analysis: AnalyzedCommand, compiled: CompiledPermissions): string | null {
  if (compiled.ask.terminal.length === 0) return null;
  for (const f of analysis.fragments) {
    const argv = f.fragment.argv;
    const starts = globalOptionStarts(argv);
    const hit = compiled.ask.terminal.find(
      (p) =>
        !p.hasRedirects &&
        (matchesPastGlobals(p.argv, argv, starts) || (p.form !== null && matchNormalForm(p.form, argv) !== null)),
    );
    if (hit !== undefined) return hit.source;
  }
  return null;
}

const namedCache = new WeakMap<CompiledPermissions, ReadonlySet<string>>();

/** The git subcommands the allow patterns name, once per compiled permissions. */
function namedGitSubcommands(compiled: CompiledPermissions): ReadonlySet<string> {
  let named = namedCache.get(compiled);
  if (named === undefined) {
    named = gitSubcommandsNamed(compiled.allow.terminal.map((p) => p.argv));
    namedCache.set(compiled, named);
  }
  return named;
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

/** Fragment verdicts when a deny decided: the denied fragment is named, the others not judged. */
function verdictsFor(
  analysis: AnalyzedCommand,
  index: number,
  pattern: string,
  source: 'deny' | 'builtin',
): FragmentVerdict[] {
  return analysis.fragments.map((f, i): FragmentVerdict =>
    i === index
      ? { text: f.fragment.text, verdict: 'deny', pattern, source }
      : { text: f.fragment.text, verdict: 'none' },
  );
}
