// RN-418 (amending RN-106): terminal commands with an external effect (push, PR, release,
// deploy, publish) or privileged (sudo, doas, su, pkexec) are never auto-approved. Global options
// before the subcommand are skipped with per-CLI tables; an unknown one fails closed.
import { CLI_GLOBAL_OPTIONS } from './cli-options.ts';
import { optionTable, stepOption } from './options.ts';
import type { OptionTable } from './options.ts';
import { subcommandReadings } from './subcommand-aliases.ts';
import { basename } from './wrappers.ts';

export type EffectKind = 'external' | 'privileged';
export interface Effect {
  kind: EffectKind;
  /** What was found, for people: `git push`, `sudo`, `kubectl (unknown option --foo)`. */
  what: string;
}

interface CliSpec {
  /** Global options before the first subcommand. */
  global: OptionTable;
  /** Subcommand paths with an external effect (`['remote', 'add']`). */
  effects: readonly (readonly string[])[];
  /** Options allowed between subcommand levels (`gh pr --repo x create`). */
  inner?: OptionTable;
}

const NONE = optionTable('', '');
const globalsOf = (cli: string): OptionTable => CLI_GLOBAL_OPTIONS.get(cli)!;

const CLIS: ReadonlyMap<string, CliSpec> = new Map<string, CliSpec>([
  [
    'git',
    {
      global: globalsOf('git'),
      effects: [['push'], ['remote', 'add'], ['remote', 'set-url'], ['merge']],
    },
  ],
  [
    'gh',
    {
      global: globalsOf('gh'),
      inner: optionTable('-R --repo', ''),
      effects: [
        ['pr', 'create'],
        ['pr', 'merge'],
        ['release', 'create'],
        ['workflow', 'run'],
      ],
    },
  ],
  [
    'glab',
    {
      global: globalsOf('glab'),
      inner: optionTable('-R --repo', ''),
      effects: [
        ['mr', 'create'],
        ['mr', 'merge'],
        ['release', 'create'],
      ],
    },
  ],
  [
    'kubectl',
    {
      global: globalsOf('kubectl'),
      effects: [['apply'], ['create'], ['replace'], ['patch'], ['delete'], ['rollout'], ['scale']],
    },
  ],
  [
    'helm',
    {
      global: globalsOf('helm'),
      effects: [['install'], ['upgrade'], ['uninstall'], ['delete'], ['del'], ['un'], ['rollback']],
    },
  ],
  ['terraform', { global: globalsOf('terraform'), effects: [['apply'], ['destroy'], ['import']] }],
  ['tofu', { global: globalsOf('tofu'), effects: [['apply'], ['destroy'], ['import']] }],
  [
    'docker',
    {
      global: globalsOf('docker'),
      // `docker image push` is `docker push` through docker's aliases (subcommand-aliases.ts).
      effects: [['push']],
    },
  ],
  [
    'podman',
    {
      global: globalsOf('podman'),
      effects: [['push']],
    },
  ],
  [
    'npm',
    {
      global: globalsOf('npm'),
      // Changes to the registry that others see (RN-689 in spirit: a human decides each one).
      effects: [
        ['publish'],
        ['unpublish'],
        ['deprecate'],
        ['undeprecate'],
        ['dist-tag'],
        ['owner'],
        ['access'],
        ['token', 'create'],
        ['token', 'revoke'],
      ],
    },
  ],
  [
    'pnpm',
    {
      global: globalsOf('pnpm'),
      effects: [['publish']],
    },
  ],
  [
    'yarn',
    {
      global: globalsOf('yarn'),
      effects: [['publish'], ['npm', 'publish']],
    },
  ],
  [
    'cargo',
    {
      global: globalsOf('cargo'),
      effects: [['publish']],
    },
  ],
  ['gem', { global: globalsOf('gem'), effects: [['push']] }],
]);

const GIT_GLOBAL = CLIS.get('git')!.global;

/** `gh api` / `glab api` options with a value (skipped so a value is never read as an option). */
const API_VALUED = new Set([
  '-H',
  '--header',
  '-q',
  '--jq',
  '-t',
  '--template',
  '--cache',
  '-p',
  '--preview',
  '--hostname',
]);
const API_FIELDS = new Set(['-f', '-F', '--field', '--raw-field', '--input']);

/**
 * `gh api` is a read unless it sends a method other than GET/HEAD: `-X|--method M`, or fields
 * (`-f/-F/--field/--raw-field/--input`), which make it POST unless a method is given.
 */
function apiEffect(name: string, argv: readonly string[], from: number): Effect | null {
  let method: string | null = null;
  let fields = false;
  for (let i = from; i < argv.length; i++) {
    const word = argv[i]!;
    const eq = word.indexOf('=');
    const option = word.startsWith('--') && eq > 0 ? word.slice(0, eq) : word;
    if (option === '-X' || option === '--method') {
      method = option === word ? (argv[++i] ?? '') : word.slice(eq + 1);
    } else if (word.startsWith('-X')) {
      method = word.slice(2);
    } else if (API_FIELDS.has(option)) {
      fields = true;
      if (option === word) i++;
    } else if (word.startsWith('-f') || word.startsWith('-F')) {
      fields = true;
    } else if (API_VALUED.has(word)) {
      i++;
    }
  }
  const effective = (method ?? (fields ? 'POST' : 'GET')).toUpperCase();
  if (effective === 'GET' || effective === 'HEAD') return null;
  return { kind: 'external', what: `${name} api ${effective}` };
}

const PRIVILEGED = new Set(['sudo', 'doas', 'su', 'pkexec', 'sudoedit', 'run0']);

/** Every ceiling command as tokens (`git push`, `kubectl apply`, `sudo`): for RN-675 units. */
export const CEILING_COMMANDS: readonly (readonly string[])[] = Object.freeze([
  ...[...CLIS].flatMap(([cli, spec]) => spec.effects.map((path) => [cli, ...path])),
  // Stryker disable next-line ArrayDeclaration: patternsForAction refuses a command with a privileged verb (firstEffect) before it forms any unit, so these rows are never read today; kept so the list stays every ceiling
  ...[...PRIVILEGED].map((verb) => [verb]),
  ['gh', 'api'],
  ['glab', 'api'],
]);

/** The effect of one argv (already looked through wrappers by the caller), or null. */
export function effectOf(argv: readonly string[]): Effect | null {
  const verb = argv[0];
  if (verb === undefined) return null;
  const name = basename(verb);
  if (PRIVILEGED.has(name)) return { kind: 'privileged', what: name };
  const spec = CLIS.get(name);
  if (spec === undefined) return null;
  if (name === 'git') {
    const alias = gitAliasOverride(argv);
    if (alias !== null) return { kind: 'external', what: `git -c ${alias} (an alias can run push)` };
  }
  let i = 1;
  const subcommands: string[] = [];
  let table = spec.global;
  while (i < argv.length) {
    const step = stepOption(argv, i, table);
    if (step.kind === 'unknown') {
      // Before the first subcommand an unknown option may hide it: fail closed. Between
      // subcommand levels (`git remote -v add`) options are read as flags.
      if (subcommands.length === 0)
        return { kind: 'external', what: `${name} with unknown option ${step.option} before its subcommand` };
      i++;
      continue;
    }
    if (step.kind === 'skip') {
      i = step.next;
      continue;
    }
    let aliased: AliasedSubcommand | null = null;
    if (subcommands.length === 0) {
      // `npm pub`, `docker container remove`, `gh pr new`: the subcommand in its canonical spelling.
      aliased = aliasedSubcommand(name, spec, argv, i);
      if (aliased.effect !== null) return aliased.effect;
    }
    if (aliased?.words != null) {
      subcommands.push(...aliased.words);
      i += aliased.consumed - 1;
    } else if (subcommands.length === 1) {
      // `gh pr --repo o/r new`: a two-word spelling whose words an option between the levels
      // separates is the same command as `gh pr new`.
      const joined = subcommandReadings(name, [name, subcommands[0]!, argv[i]!], 1).find((r) => r.consumed === 2);
      if (joined === undefined) subcommands.push(argv[i]!);
      else subcommands.splice(0, 1, ...joined.words);
    } else subcommands.push(argv[i]!);
    if ((name === 'gh' || name === 'glab') && subcommands.length === 1 && argv[i] === 'api')
      return apiEffect(name, argv, i + 1);
    // The subcommands grow one level at a time, so the first effect path they start with is theirs.
    const matched = spec.effects.find((path) => startsWith(subcommands, path));
    if (matched !== undefined) return { kind: 'external', what: [name, ...matched].join(' ') };
    table = spec.inner ?? NONE;
    i++;
  }
  return null;
}

interface AliasedSubcommand {
  effect: Effect | null;
  words: string[] | null;
  consumed: number;
}

/**
 * The subcommand at argv[i] through the CLI's aliases. An abbreviation with several readings
 * (`npm p`) is an effect when any reading leads to one: fail closed.
 */
function aliasedSubcommand(name: string, spec: CliSpec, argv: readonly string[], i: number): AliasedSubcommand {
  const readings = subcommandReadings(name, argv, i);
  if (readings.length === 0) return { effect: null, words: null, consumed: 1 };
  const leads = (words: readonly string[]): boolean =>
    spec.effects.some((path) => startsWith(path, words) || startsWith(words, path));
  if (readings.length > 1) {
    const risky = readings.find((r) => leads(r.words));
    if (risky !== undefined)
      return {
        effect: { kind: 'external', what: `${name} ${argv[i]!} (may be ${name} ${risky.words.join(' ')})` },
        words: null,
        consumed: 1,
      };
    return { effect: null, words: null, consumed: 1 };
  }
  const only = readings[0]!;
  return { effect: null, words: only.words, consumed: only.consumed };
}

function startsWith(list: readonly string[], prefix: readonly string[]): boolean {
  for (let k = 0; k < prefix.length; k++) if (list[k] !== prefix[k]) return false;
  return true;
}

interface GitGlobals {
  /** Git's global options before its subcommand, by name (`-c`, `--git-dir`, `-C` of `-Cdir`). */
  options: string[];
  /** The `NAME=VALUE` of each `-c`, in order. */
  configs: string[];
  /** Where the subcommand is; -1 when there is none or an unknown option comes first. */
  subcommandAt: number;
}

/** One walk over git's global options. */
function gitGlobals(argv: readonly string[]): GitGlobals {
  const options: string[] = [];
  const configs: string[] = [];
  let i = 1;
  while (i < argv.length) {
    const word = argv[i]!;
    const step = stepOption(argv, i, GIT_GLOBAL);
    if (step.kind === 'end') return { options, configs, subcommandAt: i };
    const eq = word.indexOf('=');
    const option = word.startsWith('--') ? (eq > 0 ? word.slice(0, eq) : word) : word.slice(0, 2);
    options.push(option);
    // `-cNAME=VALUE` or `-c NAME=VALUE` (-c always takes a value).
    if (option === '-c') configs.push(word.length > 2 ? word.slice(2) : (argv[i + 1] ?? ''));
    if (step.kind === 'unknown') break;
    i = step.next;
  }
  return { options, configs, subcommandAt: -1 };
}

/** Where git's subcommand is after its global options; -1 when there is none or an unknown option comes first. */
export function gitSubcommandIndex(argv: readonly string[]): number {
  return gitGlobals(argv).subcommandAt;
}

/** `git -c alias.p=push p`: an alias set on the command line counts as an external effect. */
function gitAliasOverride(argv: readonly string[]): string | null {
  return gitGlobals(argv).configs.find((config) => config.toLowerCase().startsWith('alias.')) ?? null;
}

const GIT_OVERRIDES = new Set(['-c', '--config-env', '--exec-path']);

/**
 * Git options that change what git runs (`-c`, `--config-env`, `--exec-path`) before its
 * subcommand: the command's meaning is no longer what its words say. Returns the option or null.
 */
export function gitConfigOverride(argv: readonly string[]): string | null {
  const verb = argv[0];
  if (verb === undefined || basename(verb) !== 'git') return null;
  return gitGlobals(argv).options.find((option) => GIT_OVERRIDES.has(option)) ?? null;
}
