// The paths a repository's config makes git read or run from: `core.hooksPath` (a folder of
// hooks) and `include.path` / `includeIf.<cond>.path` (more config). When they lie inside the
// project folder, a command could rewrite them instead of .git/config, so both the Docker broker (protected-paths.ts) and the runner's sandbox
// (src/runner/sandbox/git-refs.ts) protect them too, from this one reader and this one resolution.
// A small reader of git's config syntax: sections, subsections (`[diff "x"]`, `[diff.x]`), keys
// case-insensitive, quoted values, `;`/`#` comments. No imports but node:path: the runner package
// ships this file.
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
