// The effective working directory of a command chain as a stack of path segments, with what the
// scope and protected-file checks need kept up to date on every push and pop: how many leading
// segments equal the root's (exactly and case-folded), and whether a `.git/hooks` pair occurs.
// A `cd` costs O(its target) and a path is resolved against the directory in O(the path), never
// O(the directory): a chain of n `cd sub` stays linear (resolveLexically on the joined cwd is not).

/** Splits on '/', dropping empty and '.' segments; '..' is kept for the caller. One scan. */
function forEachSegment(path: string, visit: (segment: string) => void): void {
  let start = 0;
  for (let i = 0; i <= path.length; i++) {
    if (i === path.length || path[i] === '/') {
      if (i > start) {
        const segment = path.slice(start, i);
        if (segment !== '.') visit(segment);
      }
      start = i + 1;
    }
  }
}

const fold = (segment: string): string => segment.toLowerCase();

// A decision builds a few LexicalDirs on the same root: its segments are split once (pure, a
// single entry: the next root simply replaces it).
let lastRoot: { root: string; exact: readonly string[]; folded: readonly string[] } | null = null;

function rootSegments(root: string): { exact: readonly string[]; folded: readonly string[] } {
  if (lastRoot === null || lastRoot.root !== root) {
    const exact: string[] = [];
    forEachSegment(root, (s) => exact.push(s));
    lastRoot = { root, exact, folded: exact.map(fold) };
  }
  return lastRoot;
}

/** A path resolved against a directory without copying it: the first `keep` segments of the
 * directory followed by `extra`. */
export interface Resolved {
  keep: number;
  extra: string[];
  extraFolded: string[];
}

export class LexicalDir {
  readonly #root: readonly string[];
  readonly #rootFolded: readonly string[];
  readonly #segments: string[] = [];
  readonly #folded: string[] = [];
  /** #hooksUpTo[k]: a `.git`,`hooks` pair (case-folded) lies within the first k+1 segments. */
  readonly #hooksUpTo: boolean[] = [];
  #rootMatch = 0;
  #rootMatchFolded = 0;

  /** `root` must be normalized absolute (or '/'); `path` absolute. */
  constructor(root: string, path: string) {
    const split = rootSegments(root);
    this.#root = split.exact;
    this.#rootFolded = split.folded;
    this.cd(path);
  }

  #push(segment: string): void {
    const at = this.#segments.length;
    const folded = fold(segment);
    if (this.#rootMatch === at && at < this.#root.length && this.#root[at] === segment) this.#rootMatch++;
    if (this.#rootMatchFolded === at && at < this.#rootFolded.length && this.#rootFolded[at] === folded) this.#rootMatchFolded++;
    const before = at > 0 && this.#hooksUpTo[at - 1] === true;
    this.#hooksUpTo.push(before || (folded === 'hooks' && at > 0 && this.#folded[at - 1] === '.git'));
    this.#segments.push(segment);
    this.#folded.push(folded);
  }

  #truncate(length: number): void {
    this.#segments.length = length;
    this.#folded.length = length;
    this.#hooksUpTo.length = length;
    if (this.#rootMatch > length) this.#rootMatch = length;
    if (this.#rootMatchFolded > length) this.#rootMatchFolded = length;
  }

  /** Follows `cd path` lexically (absolute or relative). */
  cd(path: string): void {
    if (path.startsWith('/')) this.#truncate(0);
    forEachSegment(path, (segment) => {
      if (segment === '..') this.#truncate(Math.max(0, this.#segments.length - 1));
      else this.#push(segment);
    });
  }

  /** The directory as a path (for messages; O(depth), call it once per decision at most). */
  toString(): string {
    return '/' + this.#segments.join('/');
  }

  /** Whether the directory itself is the root or below it. */
  insideRoot(): boolean {
    return this.#rootMatch === this.#root.length;
  }

  resolve(path: string): Resolved {
    let keep = path.startsWith('/') ? 0 : this.#segments.length;
    const extra: string[] = [];
    forEachSegment(path, (segment) => {
      if (segment !== '..') extra.push(segment);
      else if (extra.length > 0) extra.pop();
      else if (keep > 0) keep--;
    });
    return { keep, extra, extraFolded: extra.map(fold) };
  }

  /** Whether a resolved path is the root or below it (case-sensitive: the scope). */
  isInside(r: Resolved, folded = false): boolean {
    const root = folded ? this.#rootFolded : this.#root;
    const match = Math.min(folded ? this.#rootMatchFolded : this.#rootMatch, r.keep);
    if (match === root.length) return true;
    if (match < r.keep) return false;
    const extra = folded ? r.extraFolded : r.extra;
    if (r.keep + extra.length < root.length) return false;
    for (let k = 0; r.keep + k < root.length; k++) if (extra[k] !== root[r.keep + k]) return false;
    return true;
  }

  /** The case-folded segment at `index` of a resolved path. */
  #foldedAt(r: Resolved, index: number): string | undefined {
    return index < r.keep ? this.#folded[index] : r.extraFolded[index - r.keep];
  }

  /**
   * Whether a resolved path, plus an optional last segment, is `<root>/permissions.json`, anything
   * under `.git/hooks` (or that folder itself), or `.git/config`. Case-insensitive: macOS and
   * Windows runners have case-insensitive filesystems.
   */
  isProtected(r: Resolved, last?: string): boolean {
    const length = r.keep + r.extraFolded.length + (last === undefined ? 0 : 1);
    const at = (index: number): string | undefined =>
      last !== undefined && index === length - 1 ? fold(last) : this.#foldedAt(r, index);
    if (length === 0) return false;
    const name = at(length - 1);
    if (name === 'permissions.json' && length === this.#rootFolded.length + 1) {
      const parent: Resolved = length - 1 <= r.keep ? { keep: length - 1, extra: [], extraFolded: [] } : { keep: r.keep, extra: r.extra.slice(0, length - 1 - r.keep), extraFolded: r.extraFolded.slice(0, length - 1 - r.keep) };
      if (this.isInside(parent, true)) return true;
    }
    if (name === 'config' && at(length - 2) === '.git') return true;
    if (r.keep > 0 && this.#hooksUpTo[r.keep - 1] === true) return true;
    for (let k = Math.max(1, r.keep); k < length; k++) {
      if (at(k) === 'hooks' && at(k - 1) === '.git') return true;
    }
    return false;
  }

  /** Whether a resolved path (plus an optional last segment) names a `.git` folder itself. */
  isGitFolder(r: Resolved, last?: string): boolean {
    if (last !== undefined) return fold(last) === '.git';
    const length = r.keep + r.extraFolded.length;
    return length > 0 && this.#foldedAt(r, length - 1) === '.git';
  }
}
