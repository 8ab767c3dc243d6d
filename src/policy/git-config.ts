// Git configuration smuggled in by other means than `git -c` (DESIGN fail-closed extras): a
// `git config` write of a key that makes git run something (an alias, a hook path, an ssh
// command, a pager, a remote URL...) or of any key outside the repository's own file, and
// environment variables that do the same (any `GIT_*` but a few harmless ones: `GIT_CONFIG_COUNT`,
// `GIT_SSH_COMMAND`, `GIT_DIR`, `GIT_COMMON_DIR`...). Both change what later git commands do, so they are never auto-approved.
import { gitSubcommandIndex } from './external-effect.ts';
import { isAssignment } from './tokenizer.ts';
import { basename } from './wrappers.ts';

/** Whole sections whose keys run programs or rewrite where git talks to. */
const SECTIONS = new Set(['alias', 'include', 'includeif', 'url', 'filter', 'credential', 'pager']);
/** `section.name` keys (sub-sections dropped), case-folded. */
const KEYS = new Set([
  'core.hookspath',
  'core.sshcommand',
  'core.pager',
  'core.editor',
  'core.fsmonitor',
  'core.gitproxy',
  'core.askpass',
  'core.worktree',
  'core.alternaterefscommand',
  'sequence.editor',
  'diff.external',
  'gpg.program',
  'uploadpack.packobjectshook',
  'remote.url',
  'remote.pushurl',
  'remote.uploadpack',
  'remote.receivepack',
  'remote.vcs',
  'remote.proxy',
  'diff.textconv',
  'diff.command',
  'merge.driver',
]);

/** Whether a config key (`alias.p`, `remote.origin.url`) makes git run or reach something else. */
export function isSensitiveGitKey(key: string): boolean {
  const folded = key.toLowerCase();
  const first = folded.indexOf('.');
  if (first <= 0) return false;
  const section = folded.slice(0, first);
  if (SECTIONS.has(section)) return true;
  return KEYS.has(`${section}.${folded.slice(folded.lastIndexOf('.') + 1)}`);
}

/** Sections some sensitive key lives in (`core`, `remote`, `alias`...): a section renamed to one gains its keys. */
const SENSITIVE_SECTIONS: ReadonlySet<string> = new Set([
  ...SECTIONS,
  ...[...KEYS].map((k) => k.slice(0, k.indexOf('.'))),
]);

/** `git config --rename-section foo core`: the keys of `foo` become `core.*` keys (`foo.hookspath`). */
function renamesIntoSensitive(name: string | undefined): boolean {
  if (name === undefined) return false;
  const folded = name.toLowerCase();
  const dot = folded.indexOf('.');
  return SENSITIVE_SECTIONS.has(dot < 0 ? folded : folded.slice(0, dot));
}

const READS = new Set([
  '--get',
  '--get-all',
  '--get-regexp',
  '--get-urlmatch',
  '--list',
  '-l',
  '--get-color',
  '--get-colorbool',
]);
const WRITES = new Set([
  '--add',
  '--replace-all',
  '--unset',
  '--unset-all',
  '--rename-section',
  '--remove-section',
  '--edit',
  '-e',
]);
const OUTSIDE_REPO = new Set(['--global', '--system', '--file', '-f']);
const VALUED = new Set(['--file', '-f', '--blob', '--type', '--default', '--comment', '--value']);
const READ_SUBCOMMANDS = new Set(['get', 'list', 'get-color', 'get-colorbool']);
const WRITE_SUBCOMMANDS = new Set(['set', 'unset', 'rename-section', 'remove-section', 'edit']);

/** `git config` writing a sensitive key, any key outside the repository's file, or via an editor. */
export function gitConfigWrite(argv: readonly string[]): string | null {
  if (argv[0] === undefined || basename(argv[0]) !== 'git') return null;
  const at = gitSubcommandIndex(argv);
  if (at < 0 || argv[at] !== 'config') return null;
  let read = false;
  let write = false;
  let outside: string | null = null;
  let edit = false;
  let rename = false;
  const positional: string[] = [];
  for (let i = at + 1; i < argv.length; i++) {
    const word = argv[i]!;
    const eq = word.indexOf('=');
    const option =
      word.startsWith('--') && eq > 0
        ? word.slice(0, eq)
        : word.startsWith('-f') && !word.startsWith('--')
          ? '-f'
          : word;
    if (word.startsWith('-') && word !== '-') {
      if (READS.has(option)) read = true;
      if (WRITES.has(option)) write = true;
      if (option === '--edit' || option === '-e') edit = true;
      if (option === '--rename-section') rename = true;
      if (OUTSIDE_REPO.has(option)) outside = option;
      if (VALUED.has(option) && option === word) i++;
      continue;
    }
    if (positional.length === 0 && READ_SUBCOMMANDS.has(word)) read = true;
    else if (positional.length === 0 && WRITE_SUBCOMMANDS.has(word)) {
      write = true;
      if (word === 'edit') edit = true;
      if (word === 'rename-section') rename = true;
      continue;
    } else positional.push(word);
  }
  if (read && !write) return null;
  if (!write && positional.length < 2) return null; // `git config key` reads
  if (edit) return 'git config --edit';
  if (outside !== null) return `git config ${outside}`;
  if (rename && renamesIntoSensitive(positional[1])) return `git config --rename-section ${positional[1]!}`;
  const key = positional[0];
  if (key === undefined) return null;
  return isSensitiveGitKey(key) ? `git config ${key}` : null;
}

/**
 * Every GIT_* variable changes what git reads, runs or writes (GIT_DIR, GIT_COMMON_DIR,
 * GIT_ALLOW_PROTOCOL=ext, GIT_TRACE=<file>, GIT_INDEX_FILE, …; git adds new ones), except these,
 * which only name the author or tune locking, prompts and pathspecs.
 */
const HARMLESS_GIT_ENV = new Set([
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_AUTHOR_DATE',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_COMMITTER_DATE',
  'GIT_TERMINAL_PROMPT',
  'GIT_OPTIONAL_LOCKS',
  'GIT_MERGE_AUTOEDIT',
  'GIT_FLUSH',
  'GIT_LITERAL_PATHSPECS',
  'GIT_GLOB_PATHSPECS',
  'GIT_NOGLOB_PATHSPECS',
  'GIT_ICASE_PATHSPECS',
]);
/** Variables outside GIT_* that git runs. */
const OTHER_ENV = new Set(['SSH_ASKPASS']);
/** GIT_TRACE* values that trace to stderr or a descriptor, or not at all; anything else is a file. */
const TRACE_WITHOUT_FILE = /^(?:[0-9]?|true|false|yes|no|on|off)$/i;

function sensitiveAssignment(word: string): string | null {
  if (!isAssignment(word)) return null;
  const eq = word.indexOf('=');
  const name = word.slice(0, eq);
  if (OTHER_ENV.has(name)) return name;
  if (!name.startsWith('GIT_') || HARMLESS_GIT_ENV.has(name)) return null;
  if (name.startsWith('GIT_TRACE') && TRACE_WITHOUT_FILE.test(unquoted(word.slice(eq + 1)))) return null;
  return name;
}

/** The value as the shell hands it over, for the plain spellings (`''`, `"1"`, `1`). */
function unquoted(value: string): string {
  return value.length >= 2 && (value[0] === "'" || value[0] === '"') && value.endsWith(value[0])
    ? value.slice(1, -1)
    : value;
}

/** Builtins and programs whose NAME=value words set the environment of what runs later. */
const SETTERS = new Set(['env', 'export', 'declare', 'typeset', 'local', 'readonly']);

/** `GIT_SSH_COMMAND=x cmd`, `env GIT_DIR=x cmd`, `export GIT_CONFIG_COUNT=1`: the variable, or null. */
export function gitEnvironmentOverride(argv: readonly string[]): string | null {
  let i = 0;
  for (; i < argv.length && isAssignment(argv[i]!); i++) {
    const name = sensitiveAssignment(argv[i]!);
    if (name !== null) return name;
  }
  const verb = argv[i];
  if (verb === undefined || !SETTERS.has(basename(verb))) return null;
  for (let k = i + 1; k < argv.length; k++) {
    const name = sensitiveAssignment(argv[k]!);
    if (name !== null) return name;
  }
  return null;
}
