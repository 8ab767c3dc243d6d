// The paths a repository's config makes git read or run from: `core.hooksPath` (a folder of
// hooks) and `include.path` / `includeIf.<cond>.path` (more config). When they lie inside the
// project folder, a command in the container could rewrite them instead of .git/config, so
// protected-paths.ts protects them too. A small reader of git's config syntax: sections, keys
// case-insensitive, quoted values, `;`/`#` comments.

export interface GitConfigRefs {
  /** core.hooksPath values, as written. */
  hooksPaths: string[];
  /** include.path and includeIf.*.path values, as written. */
  includes: string[];
}

export function gitConfigRefs(text: string): GitConfigRefs {
  const refs: GitConfigRefs = { hooksPaths: [], includes: [] };
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\]|\\.)*")?\s*\]\s*(.*)$/.exec(line);
    if (header) {
      section = (header[1] ?? '').toLowerCase();
      // `[core] hooksPath = x` on one line is valid git syntax.
      if (header[2] === undefined || header[2] === '') continue;
      collect(section, header[2], refs);
      continue;
    }
    collect(section, line, refs);
  }
  return refs;
}

function collect(section: string, line: string, refs: GitConfigRefs): void {
  const pair = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
  if (!pair) return;
  const key = (pair[1] ?? '').toLowerCase();
  const value = unquote(pair[2] ?? '');
  if (value === '') return;
  if (section === 'core' && key === 'hookspath') refs.hooksPaths.push(value);
  if ((section === 'include' || section === 'includeif') && key === 'path') refs.includes.push(value);
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
