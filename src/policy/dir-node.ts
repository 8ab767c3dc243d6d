// A working directory as an immutable, shared chain of segments (a persistent stack). A `cd`
// costs O(its target) and creates new nodes only for what it adds, so several possible working
// directories (issue 9 A.2: `cd a; …` may or may not have moved) share their common prefix and
// a long cd chain stays linear. Each node keeps what the scope and protected-path checks ask
// about, computed from its parent in O(1): how far it matches the root (exactly and case-folded),
// whether a `.git`,`hooks` pair lies on it, whether it is inside a `.git` folder.

/** The project root, split once per decision. */
export interface RootSpec {
  exact: readonly string[];
  folded: readonly string[];
}

export const fold = (segment: string): string => segment.toLowerCase();

/** Splits on '/', dropping empty and '.' segments; '..' is kept for the caller. One scan. */
export function forEachSegment(path: string, visit: (segment: string) => void): void {
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

export function rootSpec(root: string): RootSpec {
  const exact: string[] = [];
  forEachSegment(root, (s) => {
    if (s === '..') exact.pop();
    else exact.push(s);
  });
  return { exact, folded: exact.map(fold) };
}

export class DirNode {
  readonly parent: DirNode | null;
  readonly segment: string;
  readonly folded: string;
  readonly depth: number;
  /** How many leading segments equal the root's, exactly / case-folded. */
  readonly rootMatch: number;
  readonly rootMatchFolded: number;
  /** A `.git`,`hooks` pair (case-folded) lies on the path. */
  readonly hooks: boolean;
  /** A `.git` segment (case-folded) lies on the path. */
  readonly inGit: boolean;
  readonly root: RootSpec;
  /** The `/` node of this chain (kept so an absolute `cd` costs O(its target)). */
  readonly top: DirNode;

  private constructor(root: RootSpec, parent: DirNode | null, segment: string) {
    this.root = root;
    this.parent = parent;
    this.segment = segment;
    this.folded = fold(segment);
    this.top = parent?.top ?? this;
    if (parent === null) {
      this.depth = 0;
      this.rootMatch = 0;
      this.rootMatchFolded = 0;
      this.hooks = false;
      this.inGit = false;
      return;
    }
    const at = parent.depth;
    this.depth = at + 1;
    // Past the root's length, root.exact[at] is undefined and equals no segment.
    this.rootMatch = parent.rootMatch === at && root.exact[at] === segment ? at + 1 : parent.rootMatch;
    this.rootMatchFolded =
      parent.rootMatchFolded === at && root.folded[at] === this.folded ? at + 1 : parent.rootMatchFolded;
    this.hooks = parent.hooks || (this.folded === 'hooks' && parent.folded === '.git');
    this.inGit = parent.inGit || this.folded === '.git';
  }

  /** `/` for this root. */
  static top(root: RootSpec): DirNode {
    return new DirNode(root, null, '');
  }

  #children: Map<string, DirNode> | undefined;

  /**
   * What path-class.ts has already answered for words used in this directory (it owns the
   * contents). A field, not a WeakMap beside the node: nodes live for one decision, and weak
   * tables cost every garbage collection.
   */
  pathAnswers: Array<Map<string, unknown>> | undefined;

  /** The same node for the same path reached from the same `/`: possibilities compare by identity. */
  child(segment: string): DirNode {
    this.#children ??= new Map();
    let node = this.#children.get(segment);
    if (node === undefined) {
      node = new DirNode(this.root, this, segment);
      this.#children.set(segment, node);
    }
    return node;
  }

  up(): DirNode {
    return this.parent ?? this;
  }

  /** The directory `cd path` leads to, lexically (absolute or relative). */
  cd(path: string): DirNode {
    let node: DirNode = path.startsWith('/') ? this.top : this;
    forEachSegment(path, (segment) => {
      node = segment === '..' ? node.up() : node.child(segment);
    });
    return node;
  }

  /** The root or below it (case-sensitive: the scope). */
  insideRoot(): boolean {
    return this.rootMatch === this.root.exact.length;
  }

  /** For messages: O(depth), once per decision at most. */
  toString(): string {
    const parts: string[] = [];
    for (let node: DirNode = this; node.parent !== null; node = node.parent) parts.push(node.segment);
    return '/' + parts.reverse().join('/');
  }
}
