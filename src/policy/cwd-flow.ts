// Every directory each fragment of a command may run in (issue 9 A.2). A `cd` whose effect is
// uncertain leaves several possibilities: `cd a; x` (the cd may fail), `cd a || x` (x runs only
// when it failed), `cd a | x`, `cd a & x` (a subshell, or in zsh the current shell). The rules of
// and-or lists are followed exactly: `cd a && x` runs x only in a. Directories are DirNodes (a
// persistent chain), so a possibility costs O(1) to keep; past MAX_DIRS possibilities the
// directory is unknown (null) and the checks fail closed.
import type { AnalyzedCommand, AnalyzedFragment } from './analysis.ts';
import { cdForm } from './cd-forms.ts';
import type { CdForm } from './cd-forms.ts';
import type { DirNode } from './dir-node.ts';
import type { Fragment } from './tokenizer.ts';

/** A set of possible directories; null stands for one nobody can know. */
export type Dirs = readonly (DirNode | null)[];

export const MAX_DIRS = 8;
const UNKNOWN: Dirs = Object.freeze([null]);

function union(a: Dirs, b: Dirs): Dirs {
  const out: (DirNode | null)[] = [...a];
  for (const d of b) if (!out.includes(d)) out.push(d);
  // Nodes are shared per path (DirNode.child), so identity is path equality.
  return out.length > MAX_DIRS ? UNKNOWN : out;
}

function applyCd(dirs: Dirs, form: Exclude<CdForm, { kind: 'none' }>): Dirs {
  if (form.kind === 'unknown' || form.target === null) return UNKNOWN;
  const target = form.target;
  return dirs.map((d) => (d === null ? null : d.cd(target)));
}

const PIPE = new Set(['|', '|&']);
const AND_OR = new Set(['&&', '||']);

/** Whether the command assigns CDPATH anywhere (then a relative cd may go anywhere). */
function assignsCdPath(command: AnalyzedCommand): boolean {
  for (const f of command.fragments) {
    for (const word of f.fragment.argv) if (word.includes('CDPATH')) return true;
  }
  return false;
}

/**
 * Called for every fragment: the directories it may run in, its analysis (null for a `find
 * -exec` command) and, for a directory change, the directories it may lead to (else null).
 */
export interface FlowVisit {
  (fragment: Fragment, dirs: Dirs, analysed: AnalyzedFragment | null, moved: Dirs | null): void;
}

export interface TopLevelDirs {
  /** Per top-level fragment: where it may run. */
  runIn: Dirs[];
  /** Per top-level fragment: where a directory change may lead, null when it changes nothing. */
  moved: (Dirs | null)[];
}

/**
 * Walks a command: calls `visit` for every fragment at every depth (nested `sh -c`/`eval`
 * strings, `find -exec` commands, substitutions) with the directories it may run in. Returns,
 * per top-level fragment, those directories.
 */
export function walkDirs(command: AnalyzedCommand, start: Dirs, visit: FlowVisit, cdPathSet = false): TopLevelDirs {
  const cdPath = cdPathSet || assignsCdPath(command);
  const fragments = command.fragments;
  const runIn: Dirs[] = [];
  const movedTo: (Dirs | null)[] = [];
  let all: Dirs = start;
  let listStart: Dirs = start; // D: the directories when an and-or list starts
  let ok: Dirs = start; // after the last pipeline, when it succeeded
  let fail: Dirs = start; // ... when it failed
  let i = 0;
  let linkBefore = ''; // '' at a list start, else && or ||
  while (i < fragments.length) {
    // One pipeline: fragments i..j joined by | or |&.
    let j = i;
    while (j < fragments.length - 1 && PIPE.has(fragments[j]!.fragment.sep)) j++;
    const entry = linkBefore === '' ? listStart : linkBefore === '&&' ? ok : fail;
    const skipped: Dirs = linkBefore === '' ? [] : linkBefore === '&&' ? fail : ok;
    let okP: Dirs = entry;
    let failP: Dirs = entry;
    for (let k = i; k <= j; k++) {
      const analysed = fragments[k]!;
      const form = cdForm(analysed.fragment, cdPath);
      const moved = form.kind === 'none' ? null : applyCd(entry, form);
      runIn.push(entry);
      movedTo.push(moved);
      visit(analysed.fragment, entry, analysed, moved);
      for (const nested of analysed.nested) walkDirs(nested, entry, visit, cdPath);
      for (const exec of analysed.execs) visit(exec, entry, null, null);
      if (moved === null) continue;
      if (i === j && form.kind === 'cd') {
        okP = moved; // the cd succeeded
        failP = entry; // it failed: nothing moved
      } else {
        // In a pipeline each part runs in a subshell (zsh: the last one in this shell); `source`
        // and `eval` may or may not move: every outcome is possible.
        okP = union(union(okP, moved), entry);
        failP = union(union(failP, moved), entry);
      }
    }
    if (linkBefore === '') {
      ok = okP;
      fail = failP;
    } else if (linkBefore === '&&') {
      ok = okP;
      fail = union(failP, skipped);
    } else {
      ok = union(okP, skipped);
      fail = failP;
    }
    all = union(all, union(ok, fail));
    const sep = fragments[j]!.fragment.sep;
    if (AND_OR.has(sep)) {
      linkBefore = sep;
    } else {
      // `;`, newline, `&` (a background list runs in a subshell: keeping what it might have done
      // is the safe side), `(`/`)` of a subshell: the next list starts from every outcome.
      listStart = union(ok, fail);
      ok = listStart;
      fail = listStart;
      linkBefore = '';
    }
    i = j + 1;
  }
  // Substitutions run before their fragment, in a directory somewhere along the chain.
  for (const sub of command.substitutions) walkDirs(sub, all, visit, cdPath);
  return { runIn, moved: movedTo };
}
