// Exact allow patterns and the mutating forms of a subcommand (issue 9, attacked after A; the
// spec's pre-seed section anchors `git branch -v`, `git remote -v`, `git worktree list` and `git
// config --get` on a read so that they never approve a write). Token-prefix matching made
// `Terminal(git branch -v)` approve `git branch -v -D main` and `git branch -v newname` (git 2.39
// creates `newname`: -v does not make it list), `Terminal(git remote -v)` approve `git remote -v
// add x url`, and `Terminal(git tag v1.0)` approve `git tag v1.0 -f`. The rule: for a subcommand
// with destructive forms (destructive-forms.ts), an exact pattern (no final `:*`) covers a longer
// fragment only when every mutating form of the fragment is also a form of the pattern's own
// tokens. A pattern ending in `:*` asked for anything, and keeps matching by prefix.
import { unitHasDestructiveForms } from './destructive-forms.ts';
import { gitSubcommandIndex } from './external-effect.ts';
import { isAssignment } from './tokenizer.ts';
import { basename } from './wrappers.ts';

type Forms = Set<string>;

/** Reads `-vD` letter by letter and `--delete` whole; each option to the form it is, or none. */
function optionForms(
  word: string,
  short: Readonly<Record<string, string>>,
  long: Readonly<Record<string, string>>,
): string[] {
  if (word.startsWith('--')) {
    const form = long[word.split('=', 1)[0]!];
    return form === undefined ? [] : [form];
  }
  const out: string[] = [];
  // Stryker disable next-line MethodExpression: '-' is a key of no short table, so reading it too finds no form.
  for (const letter of word.slice(1)) {
    const form = short[letter];
    if (form !== undefined) out.push(form);
  }
  return out;
}

const BRANCH_SHORT = {
  d: 'delete',
  D: 'delete',
  m: 'move',
  M: 'move',
  c: 'copy',
  C: 'copy',
  f: 'force',
  u: 'upstream',
  t: 'upstream',
  l: 'list',
  a: 'list',
  r: 'list',
};
const BRANCH_LONG = {
  '--delete': 'delete',
  '--move': 'move',
  '--copy': 'copy',
  '--force': 'force',
  '--set-upstream-to': 'upstream',
  '--set-upstream': 'upstream',
  '--unset-upstream': 'upstream',
  '--track': 'upstream',
  '--no-track': 'upstream',
  // Stryker disable next-line StringLiteral: no other option is this form, so its name is only ever compared with itself.
  '--edit-description': 'description',
  '--list': 'list',
  '--all': 'list',
  '--remotes': 'list',
  '--contains': 'list',
  '--no-contains': 'list',
  '--merged': 'list',
  '--no-merged': 'list',
  '--points-at': 'list',
  '--show-current': 'list',
};
const TAG_SHORT = {
  d: 'delete',
  f: 'force',
  l: 'list',
  n: 'list',
  v: 'verify',
  a: 'annotate',
  s: 'annotate',
  m: 'annotate',
  F: 'annotate',
  u: 'annotate',
};
const TAG_LONG = {
  '--delete': 'delete',
  '--force': 'force',
  '--list': 'list',
  '--contains': 'list',
  '--no-contains': 'list',
  '--merged': 'list',
  '--no-merged': 'list',
  '--points-at': 'list',
  '--verify': 'verify',
  '--annotate': 'annotate',
  '--sign': 'annotate',
  '--message': 'annotate',
  '--file': 'annotate',
  '--local-user': 'annotate',
};

/** branch and tag: their options, and a positional word that creates (outside list mode). */
function branchOrTagForms(sub: 'branch' | 'tag', words: readonly string[]): Forms {
  const [short, long] = sub === 'branch' ? [BRANCH_SHORT, BRANCH_LONG] : [TAG_SHORT, TAG_LONG];
  const forms: Forms = new Set();
  let positional = false;
  for (const word of words) {
    if (word.startsWith('-') && word !== '-') for (const form of optionForms(word, short, long)) forms.add(form);
    else positional = true;
  }
  const list = forms.delete('list');
  const verify = forms.delete('verify');
  const acts = forms.has('delete') || forms.has('move') || forms.has('copy') || forms.has('upstream');
  // Stryker disable next-line StringLiteral: only this line makes the form, so its name is only ever compared with itself.
  if (positional && !list && !verify && !acts) forms.add('create');
  return forms;
}

/** remote, worktree, stash: the word after the options names the action; reads are listed. */
const READ_ACTIONS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['remote', new Set(['show', 'get-url'])],
  ['worktree', new Set(['list'])],
  ['stash', new Set(['list', 'show'])],
]);

function actionForms(sub: string, words: readonly string[]): Forms {
  const action = words.find((w) => !w.startsWith('-'));
  if (action === undefined) return sub === 'stash' ? new Set(['push']) : new Set();
  return READ_ACTIONS.get(sub)!.has(action) ? new Set() : new Set([action]);
}

const CONFIG_READS = new Set(['--get', '--get-all', '--get-regexp', '--get-urlmatch', '--list', '-l', 'get', 'list']);
const CONFIG_WRITES = new Set([
  '--add',
  '--replace-all',
  '--unset',
  '--unset-all',
  '--rename-section',
  '--remove-section',
  '--edit',
  '-e',
]);
const CONFIG_WRITE_WORDS = new Set(['set', 'unset', 'rename-section', 'remove-section', 'edit']);

function configForms(words: readonly string[]): Forms {
  const forms: Forms = new Set();
  let read = false;
  let positional = 0;
  for (const word of words) {
    const option = word.startsWith('--') && word.includes('=') ? word.slice(0, word.indexOf('=')) : word;
    if (CONFIG_WRITES.has(option)) forms.add(option);
    else if (positional === 0 && CONFIG_WRITE_WORDS.has(word)) forms.add(word);
    else if (CONFIG_READS.has(option)) read = true;
    else if (!word.startsWith('-')) positional++;
  }
  // Stryker disable next-line StringLiteral: this 'set' never meets the word set: a fragment with the word starts with it, so its forms are not empty.
  if (!read && forms.size === 0 && positional >= 2) forms.add('set');
  return forms;
}

/** Options and words that turn most subcommands into a delete, a force or a rewrite. */
const GENERIC_LONG: Readonly<Record<string, string>> = Object.fromEntries(
  ['--delete', '--force', '--hard', '--prune', '--move', '--exec', '--all', '--purge', '--recursive', '--worktree'].map(
    (o) => [o, o],
  ),
);
const GENERIC_SHORT: Readonly<Record<string, string>> = {
  d: '-d',
  D: '-d',
  f: '-f',
  F: '-f',
  x: '-x',
  X: '-x',
  r: '-r',
  R: '-r',
  W: '--worktree',
};
const GENERIC_WORDS = new Set(
  (
    'remove rm delete del drop clear pop prune rename mv move set set-url set-head add uninstall unregister clean ' +
    'purge reset expire forget reject erase deinit foreach run kill stop restart destroy apply disable edit ' +
    'update upgrade install store yank revoke unlink link untap'
  ).split(' '),
);

function genericForms(words: readonly string[]): Forms {
  const forms: Forms = new Set();
  for (const word of words) {
    // A lone `-` reads as an option with no letters: no form, like any word not in the list.
    if (word.startsWith('-')) for (const form of optionForms(word, GENERIC_SHORT, GENERIC_LONG)) forms.add(form);
    else if (GENERIC_WORDS.has(word)) forms.add(word);
  }
  return forms;
}

/** The mutating forms of `cli sub words…`. */
function formsOf(cli: string, sub: string, words: readonly string[]): Forms {
  if (cli === 'git') {
    if (sub === 'branch' || sub === 'tag') return branchOrTagForms(sub, words);
    if (READ_ACTIONS.has(sub)) return actionForms(sub, words);
    if (sub === 'config') return configForms(words);
  }
  return genericForms(words);
}

/** Where the subcommand is: past git's global options, else argv[1]. */
function subcommandAt(cli: string, argv: readonly string[]): number {
  return cli === 'git' ? gitSubcommandIndex(argv) : 1;
}

/**
 * Whether the exact allow pattern `pattern` (already a token prefix of `argv`) covers `argv`:
 * always, unless the subcommand has destructive forms and `argv` has one the pattern does not.
 */
export function exactPatternCovers(patternWords: readonly string[], argvWords: readonly string[]): boolean {
  // `CI=1 git branch -a`: the command starts after its assignments, in the pattern and the fragment.
  const pattern = withoutAssignments(patternWords);
  const argv = withoutAssignments(argvWords);
  const last = pattern[pattern.length - 1];
  // No shortcut for a fragment as long as the pattern: it is the pattern, so it has the pattern's forms.
  if (last === undefined || last.endsWith(':*')) return true;
  if (argv[0] === undefined) return true;
  const cli = basename(argv[0]);
  const at = subcommandAt(cli, argv);
  // The pattern must name the subcommand; `Terminal(git)` alone is the user's choice to allow all.
  if (at === -1 || at >= pattern.length) return true;
  const sub = argv[at]!;
  if (!unitHasDestructiveForms([cli, sub])) return true;
  const own = formsOf(cli, sub, pattern.slice(at + 1));
  for (const form of formsOf(cli, sub, argv.slice(at + 1))) if (!own.has(form)) return false;
  return true;
}

function withoutAssignments(words: readonly string[]): readonly string[] {
  let k = 0;
  while (k < words.length && isAssignment(words[k]!)) k++;
  return k === 0 ? words : words.slice(k);
}
