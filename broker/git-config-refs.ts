// The paths a repository's config makes git read or run from: `core.hooksPath` (a folder of
// hooks), `include.path` / `includeIf.<cond>.path` (more config), and the programs config values
// name (`core.fsmonitor = ./tools/watch`, a filter or diff driver, an alias `!./x` ...). When they
// lie inside the project folder, a command could rewrite them instead of .git/config, so both the
// Docker broker (protected-paths.ts) and the runner's sandbox (src/runner/sandbox/git-refs.ts)
// protect them too, from this one reader and this one resolution. A small reader of git's config
// syntax: sections, subsections (`[diff "x"]`, `[diff.x]`), keys case-insensitive, quoted values,
// `;`/`#` comments. No imports but node:path: the runner package ships this file.
import path from 'node:path';

export interface GitConfigRefs {
  /** core.hooksPath values, as written. */
  hooksPaths: string[];
  /** include.path and includeIf.*.path values, as written. */
  includes: string[];
}

/** One `key = value` of a config: section and key lower-case, the subsection as written (null: none). */
export interface GitConfigEntry {
  section: string;
  subsection: string | null;
  key: string;
  value: string;
}

export function gitConfigEntries(text: string): GitConfigEntry[] {
  const entries: GitConfigEntry[] = [];
  let section = '';
  let subsection: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]\s*(.*)$/.exec(line);
    if (header) {
      const name = header[1] ?? '';
      const dot = name.indexOf('.');
      // `[diff "x"]`, or the old `[diff.x]` (its subsection is lower-cased by git).
      section = (dot === -1 ? name : name.slice(0, dot)).toLowerCase();
      subsection =
        header[2] !== undefined
          ? header[2].replace(/\\(.)/g, '$1')
          : dot === -1
            ? null
            : name.slice(dot + 1).toLowerCase();
      // `[core] hooksPath = x` on one line is valid git syntax.
      if (header[3] === undefined || header[3] === '') continue;
      collect(section, subsection, header[3], entries);
      continue;
    }
    collect(section, subsection, line, entries);
  }
  return entries;
}

export function gitConfigRefs(text: string): GitConfigRefs {
  const refs: GitConfigRefs = { hooksPaths: [], includes: [] };
  for (const { section, key, value } of gitConfigEntries(text)) {
    if (value === '') continue;
    if (section === 'core' && key === 'hookspath') refs.hooksPaths.push(value);
    if ((section === 'include' || section === 'includeif') && key === 'path') refs.includes.push(value);
  }
  return refs;
}

function collect(section: string, subsection: string | null, line: string, entries: GitConfigEntry[]): void {
  const pair = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
  if (!pair) return;
  entries.push({ section, subsection, key: (pair[1] ?? '').toLowerCase(), value: unquote(pair[2] ?? '') });
}

/**
 * The config keys whose value is a command git runs (git-config(1)). `*`: any subsection, `-`:
 * none, `?`: either. `bang`: only a value starting with `!` is a command (aliases, submodule update).
 */
const PROGRAM_KEYS: ReadonlyArray<{
  section: string;
  sub: '*' | '-' | '?';
  keys: readonly string[] | '*';
  bang?: true;
}> = [
  {
    section: 'core',
    sub: '-',
    keys: ['fsmonitor', 'sshcommand', 'pager', 'editor', 'askpass', 'gitproxy', 'alternaterefscommand'],
  },
  { section: 'sequence', sub: '-', keys: ['editor'] },
  { section: 'diff', sub: '-', keys: ['external'] },
  { section: 'diff', sub: '*', keys: ['textconv', 'command'] },
  { section: 'filter', sub: '*', keys: ['clean', 'smudge', 'process'] },
  { section: 'merge', sub: '*', keys: ['driver'] },
  // A helper that is neither `!cmd` nor an absolute path is `git credential-<name>` (see below).
  { section: 'credential', sub: '?', keys: ['helper'] },
  { section: 'gpg', sub: '?', keys: ['program'] },
  { section: 'gpg', sub: '*', keys: ['defaultkeycommand'] },
  { section: 'alias', sub: '-', keys: '*', bang: true },
  { section: 'submodule', sub: '*', keys: ['update'], bang: true },
  { section: 'uploadpack', sub: '-', keys: ['packobjectshook'] },
  { section: 'pager', sub: '-', keys: '*' },
  { section: 'interactive', sub: '-', keys: ['difffilter'] },
  { section: 'difftool', sub: '*', keys: ['cmd', 'path'] },
  { section: 'mergetool', sub: '*', keys: ['cmd', 'path'] },
  { section: 'remote', sub: '*', keys: ['uploadpack', 'receivepack'] },
  { section: 'sendemail', sub: '?', keys: ['sendmailcmd', 'smtpserver'] },
  { section: 'browser', sub: '*', keys: ['cmd', 'path'] },
  { section: 'hook', sub: '*', keys: ['command'] },
];

/** Values that switch a setting on or off rather than name a program (core.fsmonitor = true, pager.log = false). */
const BOOLEAN = /^(?:true|false|yes|no|on|off|[01])$/i;

/** The command lines config values give git to run, as written (`!` of an alias removed). */
export function gitConfigPrograms(text: string): Array<{ key: string; command: string }> {
  const programs: Array<{ key: string; command: string }> = [];
  for (const { section, subsection, key, value } of gitConfigEntries(text)) {
    const rule = PROGRAM_KEYS.find(
      (entry) =>
        entry.section === section &&
        (entry.sub === '?' || (entry.sub === '-') === (subsection === null)) &&
        (entry.keys === '*' || entry.keys.includes(key)),
    );
    if (rule === undefined || value === '' || BOOLEAN.test(value)) continue;
    if (rule.bang && !value.startsWith('!')) continue;
    if (section === 'credential' && !value.startsWith('!') && !path.isAbsolute(value)) continue;
    const name = subsection === null ? `${section}.${key}` : `${section}.${subsection}.${key}`;
    programs.push({
      key: name,
      command: rule.bang || (section === 'credential' && value.startsWith('!')) ? value.slice(1) : value,
    });
  }
  return programs;
}

/**
 * The words of a command line git runs that name files: `programs` at a command's position
 * (after `VAR=value` assignments and `exec`/`command`/`env`), `words` every other word that
 * could be a script an interpreter runs (`python3 tools/conv.py`: not an option, no `%f`). git
 * runs a line without shell metacharacters as one program name, any other through `sh -c`.
 * Words whose text depends on the shell (`$X`, backquotes, globs) are not followed, except a
 * leading `$HOME`, which becomes `~`.
 */
export function commandWords(command: string): { programs: string[]; words: string[] } {
  const out = { programs: [] as string[], words: [] as string[] };
  if (!/[|&;<>()$`\\"' \t\n*?[#~=%]/.test(command)) {
    out.programs.push(command);
    return out;
  }
  let atCommand = true;
  let afterRedirect = false;
  const word = (text: string, dynamic: boolean) => {
    if (afterRedirect) {
      afterRedirect = false;
      return;
    }
    if (dynamic) {
      atCommand = false;
      return;
    }
    if (atCommand) {
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(text) || ['exec', 'command', 'env', 'nohup', '!'].includes(text)) return;
      if (['if', 'then', 'else', 'elif', 'do', 'while', 'until', '{'].includes(text)) return;
      out.programs.push(text);
      atCommand = false;
      return;
    }
    if (!text.startsWith('-') && !text.includes('%')) out.words.push(text);
  };
  let i = 0;
  while (i < command.length) {
    const c = command[i] as string;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === '\n' || c === ';' || c === '&' || c === '|' || c === '(' || c === ')') {
      atCommand = true;
      afterRedirect = false;
      i++;
      continue;
    }
    if (c === '<' || c === '>') {
      afterRedirect = true;
      while (command[i] === '<' || command[i] === '>' || command[i] === '&') i++;
      continue;
    }
    if (c === '#') break; // a comment to the end (only at a word's start)
    let text = '';
    let dynamic = false;
    let quoted = false;
    if (command.startsWith('$HOME/', i) || command.startsWith('${HOME}/', i)) {
      text = '~';
      i += command[i + 1] === '{' ? 7 : 5;
    }
    while (i < command.length) {
      const ch = command[i] as string;
      if (/[ \t\n;&|()<>]/.test(ch)) break;
      if (ch === "'") {
        const close = command.indexOf("'", i + 1);
        const end = close === -1 ? command.length : close;
        text += command.slice(i + 1, end);
        quoted = true;
        i = end + 1;
      } else if (ch === '"') {
        i++;
        quoted = true;
        while (i < command.length && command[i] !== '"') {
          if (command[i] === '\\' && i + 1 < command.length && '$`"\\\n'.includes(command[i + 1] as string)) i++;
          else if (command[i] === '$' || command[i] === '`') dynamic = true;
          text += command[i];
          i++;
        }
        i++;
      } else if (ch === '\\') {
        if (i + 1 < command.length) text += command[i + 1];
        i += 2;
      } else {
        if (ch === '$' || ch === '`' || ch === '*' || ch === '?' || ch === '[') dynamic = true;
        if (ch === '~' && text !== '') dynamic = true;
        text += ch;
        i++;
      }
    }
    // A quoted `~` is not expanded by the shell: a file literally named so, not the home folder.
    if (quoted && text.startsWith('~')) text = `./${text}`;
    word(text, dynamic);
  }
  return out;
}

/** Removes a trailing comment outside quotes and the quotes themselves; keeps escapes simple. */
function unquote(value: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '\\' && i + 1 < value.length) {
      const next = value[i + 1];
      out += next === 'n' ? '\n' : next === 't' ? '\t' : next;
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '#' || c === ';')) break;
    else out += c;
  }
  return out.trim();
}

/** How a config value becomes a path (git's rules), for one config file. */
export interface RefContext {
  /** The top of the work tree, where hooks run: a relative core.hooksPath starts here. */
  worktree: string;
  /** The folder of the config file the values come from: a relative include.path starts here. */
  configDir: string;
  /** What `~/` stands for; null: values starting with `~` are not followed (the broker: a container's home). */
  home: string | null;
  /** `~user/`: that user's home folder, or null when unknown (git then ignores the value). */
  homeOf?: (user: string) => string | null;
  /** An absolute value as a path of this machine (the broker: `/work/...` is the project folder). */
  absolute?: (value: string) => string;
}

/**
 * A config value as an absolute path, not yet resolved on disk (`..` and symlinks are the
 * caller's: a relative value is joined, never normalized here); null: it cannot be followed.
 */
export function refPath(value: string, base: string, context: RefContext): string | null {
  if (value.startsWith('~')) {
    const slash = value.indexOf('/');
    const user = slash === -1 ? value.slice(1) : value.slice(1, slash);
    const home = user === '' ? context.home : (context.homeOf?.(user) ?? null);
    if (home === null) return null;
    return slash === -1 ? home : `${home}${value.slice(slash)}`;
  }
  if (path.isAbsolute(value)) return context.absolute ? context.absolute(value) : value;
  return `${base.replace(/\/+$/, '')}/${value}`;
}

/** The hooksPath folders and include files `text` names, as absolute paths (see refPath). */
export function gitConfigTargets(text: string, context: RefContext): { hooksPaths: string[]; includes: string[] } {
  const refs = gitConfigRefs(text);
  const defined = (list: (string | null)[]) => list.filter((entry): entry is string => entry !== null);
  return {
    hooksPaths: defined(refs.hooksPaths.map((value) => refPath(value, context.worktree, context))),
    includes: defined(refs.includes.map((value) => refPath(value, context.configDir, context))),
  };
}

/**
 * The files the programs of `text`'s config values run, as absolute paths (see refPath; relative
 * ones start at the work tree's top, where git runs them): `programs` must not change or appear,
 * `scripts` (other words of those command lines) matter when they are files.
 */
export function gitConfigProgramTargets(text: string, context: RefContext): { programs: string[]; scripts: string[] } {
  const out = { programs: [] as string[], scripts: [] as string[] };
  const pathOf = (word: string) => refPath(word, context.worktree, context);
  for (const { command } of gitConfigPrograms(text)) {
    const { programs, words } = commandWords(command);
    // A program without a slash is looked up on PATH, not in the work tree.
    for (const program of programs)
      if (program.includes('/') || program.startsWith('~')) {
        const target = pathOf(program);
        if (target !== null && !out.programs.includes(target)) out.programs.push(target);
      }
    for (const word of words) {
      const target = pathOf(word);
      if (target !== null && !out.scripts.includes(target)) out.scripts.push(target);
    }
  }
  return out;
}

/** extensions.objectFormat: the repository's hash (`sha1` when unset). */
export function gitObjectFormat(text: string): string {
  let format = 'sha1';
  for (const { section, subsection, key, value } of gitConfigEntries(text))
    if (section === 'extensions' && subsection === null && key === 'objectformat') format = value.toLowerCase();
  return format;
}

/** Where a target lies relative to the project folder: git running hooks from the folder itself cannot be protected. */
export function placeOf(project: string, target: string): 'outside' | 'project' | 'inside' {
  const rel = path.relative(project, path.resolve(target));
  if (rel === '') return 'project';
  return rel.startsWith('..') || path.isAbsolute(rel) ? 'outside' : 'inside';
}
