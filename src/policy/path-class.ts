// What a path word could name, judged against a directory it may be used in (issue 9 A.1, A.3):
// outside the root (RN-075), a protected path, or a `.git` folder. A word with unquoted glob
// characters is judged by everything it could match: a component that could match `..` puts the
// word outside the scope and makes it a protected target; a component that could match `.git`,
// `hooks`, `config` or `permissions.json` counts as that name. Case-insensitive for protected
// names (macOS and Windows runners). A word with an expansion could name anything. One pass
// over the word; walking up the directory costs one step per `..` in the word.
import { couldMatch, isPattern, unescape } from './glob.ts';
import { fold, forEachSegment } from './dir-node.ts';
import type { DirNode } from './dir-node.ts';
import { PROTECTED_NAMES } from './protected-paths.ts';
import { STREAM_DEVICES } from './paths.ts';

/** A path as written: its text, its glob pattern (quoted glob characters escaped), whether it expands. */
export interface PathWord {
  text: string;
  glob: string | null;
  expands: boolean;
  /** The word starts with an unquoted `~` (a home directory). */
  home?: boolean;
}

export interface PathClass {
  outside: boolean;
  /** `<root>/permissions.json`, `.git/config`, anything in or at `.git/hooks`. */
  protected: boolean;
  /** A `.git` folder itself (copying or unpacking into it can plant hooks). */
  gitFolder: boolean;
  /** The answers are "could be": an expansion, an unknown directory, a glob that could be `..`. */
  uncertain: boolean;
  /** The root itself or a folder above it: a recursive change reaches every protected path. */
  holdsRoot?: boolean;
}

const EVERYTHING: PathClass = Object.freeze({ outside: true, protected: true, gitFolder: true, uncertain: true });

interface Segment {
  folded: string;
  exact: string;
  /** For a glob component: which protected names it could match (bit k: PROTECTED_NAMES[k]). */
  could: number;
  pattern: string | null;
}

function namesMatched(pattern: string): number {
  let bits = 0;
  PROTECTED_NAMES.forEach((name, k) => {
    if (couldMatch(pattern, name, false)) bits |= 1 << k;
  });
  return bits;
}

/** What one component of a glob word is, whatever directory it is read in. */
interface ComponentFacts {
  /** It has an active glob character. */
  pattern: boolean;
  /** It could match `..` (dash and busybox expand `.?`, `.*`, `.[.]` to it). */
  dotDot: boolean;
  /** The protected names it could match (bits of PROTECTED_NAMES). */
  could: number;
}

/**
 * Per component text, remembered: a word is judged once per directory a command may run in
 * (issue 9 A.2), and `cd a || cd b || …; mv *a *a …` asked the same questions of the same
 * component thousands of times (280 ms for 16 KB). Bounded; the answers never change.
 */
const FACTS = new Map<string, ComponentFacts>();
const FACTS_LIMIT = 4096;

// The memos' mutants that only skip or empty a memo cannot change an answer, only the time it
// takes (unit-path-class-memo checks they answer the same); they are marked equivalent.
function componentFacts(component: string): ComponentFacts {
  let facts = FACTS.get(component);
  if (facts === undefined) {
    const pattern = isPattern(component);
    const dotDot = pattern && couldMatch(component, '..', true);
    // Stryker disable next-line LogicalOperator: `could` is read only for a pattern, and a `..` one is anything
    facts = { pattern, dotDot, could: pattern && !dotDot ? namesMatched(component) : 0 };
    // Stryker disable next-line ConditionalExpression,EqualityOperator,CallExpression: a memo cleared sooner, later or never
    if (FACTS.size >= FACTS_LIMIT) FACTS.clear();
    // Stryker disable next-line CallExpression: a memo never filled
    FACTS.set(component, facts);
  }
  return facts;
}

// Anything inside a `.git` folder is protected, so of the protected names only `.git` itself and
// the root's `permissions.json` need a bit of their own (`hooks` and `config` count inside `.git`).
const BIT = {
  git: 1 << PROTECTED_NAMES.indexOf('.git'),
  permissions: 1 << PROTECTED_NAMES.indexOf('permissions.json'),
};

/**
 * Classifies a path word used in `dir` (null: a directory nobody can know, so a relative path
 * could be anything). `asWritten`: no root is known (the always-allow check); the path is read
 * from `/` and any `permissions.json` counts.
 */
export function classifyPath(word: PathWord, dir: DirNode | null, asWritten = false): PathClass {
  if (word.expands) return EVERYTHING;
  const source = word.glob ?? word.text;
  const absolute = source.startsWith('/');
  if (absolute && STREAM_DEVICES.includes(word.text))
    return { outside: false, protected: false, gitFolder: false, uncertain: false };
  // After a cd nobody can know, even an absolute path is judged as unknown (fail closed): the
  // walk keeps no node of the top for it (it read `dir!.top` and threw a TypeError).
  if (dir === null) return EVERYTHING;
  if (word.home === true) {
    // HOME: outside the project; judged as written from there on (`~` reads as a folder under /).
    const rest = classifyPath({ text: word.text, glob: word.glob, expands: false }, dir.top, true);
    return { outside: true, protected: rest.protected, gitFolder: rest.gitFolder, uncertain: rest.uncertain };
  }
  // Keyed by the word's text, in one map per kind of reading (with a glob or not, as written or not).
  const slots = (dir.pathAnswers ??= []);
  const answers = (slots[(word.glob === null ? 0 : 2) + (asWritten ? 1 : 0)] ??= new Map()) as Map<string, PathClass>;
  const cached = answers.get(source);
  if (cached !== undefined) return cached;
  const shape = wordShape(source, word.glob !== null);
  let node = absolute ? dir.top : dir;
  for (let n = shape.ups; n > 0; n--) node = node.up(); // `..` of / is /
  const result = shape.dotDot ? EVERYTHING : judge(node, shape.extra, asWritten);
  // Stryker disable next-line CallExpression: a memo never filled
  answers.set(source, result);
  return result;
}

/**
 * A word's components read once, whatever directory it is judged in: how many `..` climb above
 * where it starts, what it adds below, and whether a glob could be `..` (then nothing is known).
 */
interface WordShape {
  ups: number;
  extra: readonly Segment[];
  dotDot: boolean;
}

/**
 * Per directory (DirNode.pathAnswers), the answer for each word already judged there; per word
 * text, its shape. A word is judged in every directory a command may run in (issue 9 A.2), by the scope
 * and the protected checks, in each reading of its fragment: `cd a || … ; nice … mv *a *a …`
 * asked the same of the same word hundreds of thousands of times. The shapes are bounded; the
 * answers go with the directory nodes, which live for one decision.
 */
const SHAPES = new Map<string, WordShape>();
const GLOB_SHAPES = new Map<string, WordShape>();
const SHAPES_LIMIT = 4096;

function wordShape(source: string, globbed: boolean): WordShape {
  const shapes = globbed ? GLOB_SHAPES : SHAPES;
  let shape = shapes.get(source);
  if (shape !== undefined) return shape;
  const extra: Segment[] = [];
  let ups = 0;
  let dotDot = false;
  forEachSegment(source, (component) => {
    // A shortcut: nothing after a `..` glob changes the answer.
    if (dotDot) return;
    const facts = globbed ? componentFacts(component) : null;
    const pattern = facts?.pattern === true ? component : null;
    if (pattern === null) {
      const exact = globbed ? unescape(component) : component;
      if (exact === '..') {
        if (extra.length > 0) extra.pop();
        else ups++;
      } else if (exact !== '.') {
        extra.push({ exact, folded: fold(exact), could: 0, pattern: null });
      }
      return;
    }
    // `.?`, `.*`, `.[.]`: dash and busybox expand them to `..` (every shell needs the dot explicit).
    if (facts!.dotDot) dotDot = true;
    else extra.push({ exact: component, folded: component, could: facts!.could, pattern });
  });
  shape = { ups, extra, dotDot };
  // Stryker disable next-line ConditionalExpression,EqualityOperator,CallExpression: a memo cleared sooner, later or never
  if (shapes.size >= SHAPES_LIMIT) shapes.clear();
  // Stryker disable next-line CallExpression: a memo never filled
  shapes.set(source, shape);
  return shape;
}

function judge(node: DirNode, extra: readonly Segment[], asWritten: boolean): PathClass {
  const result: PathClass = {
    outside: isOutside(node, extra),
    ...protectedness(node, extra, asWritten),
    uncertain: false,
  };
  if (holdsRoot(node, extra)) result.holdsRoot = true;
  return result;
}

function isOutside(node: DirNode, extra: readonly Segment[]): boolean {
  const root = node.root.exact;
  const k = node.depth;
  // At k === root.length both branches answer "is node the root".
  if (k >= root.length) return !node.insideRoot();
  if (node.rootMatch !== k) return true;
  for (let j = k; j < root.length; j++) {
    const s = extra[j - k];
    // A glob this high up may match a sibling of the root (`/projects/ap*/x`).
    if (s === undefined || s.pattern !== null || s.exact !== root[j]) return true;
  }
  return false;
}

function can(s: Segment | DirNode, bit: number, name: string): boolean {
  if ('pattern' in s && s.pattern !== null) return (s.could & bit) !== 0;
  return s.folded === name;
}

function protectedness(
  node: DirNode,
  extra: readonly Segment[],
  asWritten: boolean,
): { protected: boolean; gitFolder: boolean } {
  const length = node.depth + extra.length;
  // The path's last segment: the word's, or the directory itself (`.`; `/` has no name).
  const last: Segment | DirNode = extra[extra.length - 1] ?? node;
  let hit = can(last, BIT.permissions, 'permissions.json') && (asWritten || atRootLevel(node, extra, length));
  // Anything inside a .git folder is protected: hooks and config, and also commondir,
  // config.worktree, modules/*/config and worktrees/*/config, which point git at configuration
  // that runs code. The `.git` folder itself is not inside one, unless it is nested in another:
  // a node in .git whose parent is not is that folder (the top is in none, so it has a parent).
  if (!hit && node.inGit && (extra.length > 0 || node.parent!.inGit)) hit = true;
  for (let j = 0; j < extra.length - 1 && !hit; j++) hit = can(extra[j]!, BIT.git, '.git');
  return { protected: hit, gitFolder: can(last, BIT.git, '.git') };
}

/** Whether a path of `length` segments could be `<root>/<name>` (case-folded). */
function atRootLevel(node: DirNode, extra: readonly Segment[], length: number): boolean {
  const root = node.root.folded;
  if (length !== root.length + 1) return false;
  const k = node.depth;
  if (k > root.length) return node.parent!.rootMatchFolded === root.length; // the word adds nothing but the name (below / there is a parent)
  if (node.rootMatchFolded !== k) return false;
  for (let j = k; j < root.length; j++) {
    const s = extra[j - k]!;
    if (s.pattern !== null ? !couldMatch(s.pattern, root[j]!, false) : s.folded !== root[j]) return false;
  }
  return true;
}

/** Whether the path is the root or one of its ancestors (case-folded; a glob may match the root's segment). */
function holdsRoot(node: DirNode, extra: readonly Segment[]): boolean {
  const root = node.root.folded;
  const k = node.depth;
  if (k + extra.length > root.length || node.rootMatchFolded !== k) return false;
  for (let j = 0; j < extra.length; j++) {
    const s = extra[j]!;
    if (s.pattern !== null ? !couldMatch(s.pattern, root[k + j]!, false) : s.folded !== root[k + j]) return false;
  }
  return true;
}
