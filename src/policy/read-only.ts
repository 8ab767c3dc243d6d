// Commands that only read the paths they are given (issue 9 A.3). Any other command whose
// arguments name a protected path (permissions.json, .git/config, .git/hooks, the .git folder)
// is asked about, because the engine cannot know every program's writing options (`git log
// --output=permissions.json` rewrote the deny list). Short on purpose: a command belongs here
// only when none of its options writes a file, or when the options that do are listed in
// `unless` and make it a writer again.
import { isAssignment } from './tokenizer.ts';

interface ReadOnlySpec {
  /** Options (exact, or as `--name=` / `-x…` prefixes) that make the command write. */
  unless?: readonly string[];
  /** For git: the read-only subcommands (anything else is not read-only). */
  subcommands?: ReadonlySet<string>;
}

const PLAIN: ReadOnlySpec = {};

const READ_ONLY: ReadonlyMap<string, ReadOnlySpec> = new Map<string, ReadOnlySpec>([
  ...[
    'cat',
    'head',
    'tail',
    'wc',
    'ls',
    'stat',
    'file',
    'grep',
    'egrep',
    'fgrep',
    'diff',
    'cmp',
    'echo',
    'printf',
    'pwd',
  ].map((verb) => [verb, PLAIN] as const),
  ...[
    'basename',
    'dirname',
    'realpath',
    'readlink',
    'test',
    '[',
    'md5sum',
    'sha1sum',
    'sha256sum',
    'sha512sum',
    'du',
    'jq',
    'nl',
    'od',
    'strings',
  ].map((verb) => [verb, PLAIN] as const),
  ['sort', { unless: ['-o', '--output'] }],
  ['tree', { unless: ['-o'] }],
  ['find', { unless: ['-delete', '-exec', '-execdir', '-ok', '-okdir', '-fprint', '-fprint0', '-fprintf', '-fls'] }],
  [
    'git',
    {
      subcommands: new Set([
        'status',
        'log',
        'diff',
        'show',
        'blame',
        'ls-files',
        'ls-tree',
        'rev-parse',
        'grep',
        'cat-file',
        'check-ignore',
        'shortlog',
        'describe',
      ]),
      unless: ['--output', '-o', '--output-directory', '--ext-diff', '--textconv'],
    },
  ],
]);

function hasOption(argv: readonly string[], from: number, options: readonly string[]): boolean {
  for (let i = from; i < argv.length; i++) {
    const word = argv[i]!;
    // `sort $OPTS f`, `git log "$@"`: an expansion may be any option (`-o permissions.json`).
    if (word.includes('$')) return true;
    if (!word.startsWith('-')) continue;
    for (const option of options) {
      if (word === option || word.startsWith(option + '=')) return true;
      // A short option with its value glued on (`-ofile`), or in a cluster (`sort -uo f`).
      if (option.length === 2 && !word.startsWith('--') && word.includes(option[1]!)) return true;
    }
  }
  return false;
}

/**
 * Whether a fragment's command only reads: its verb (after leading assignments) is in the table,
 * no writing option is present, and for git the subcommand right after `git` is a read-only one
 * (global options before it make it not read-only: they can point git anywhere).
 */
export function isReadOnly(argv: readonly string[]): boolean {
  let i = 0;
  while (i < argv.length && isAssignment(argv[i]!)) i++;
  const verb = argv[i];
  if (verb === undefined) return true;
  const spec = READ_ONLY.get(verb);
  if (spec === undefined) return false;
  if (spec.subcommands !== undefined) {
    const sub = argv[i + 1];
    if (sub === undefined || !spec.subcommands.has(sub)) return false;
  }
  return spec.unless === undefined || !hasOption(argv, i + 1, spec.unless);
}

/**
 * Whether argv only reads whatever words are appended to it: `xargs CMD` and `parallel CMD` append
 * words read from their input, which may be any option (`-o permissions.json`). Still read-only
 * with one more word nobody knows yet: a reader none of whose options writes.
 */
export function readsWithAnyArguments(argv: readonly string[]): boolean {
  return isReadOnly(argv) && isReadOnly([...argv, '$ARGUMENT']);
}
