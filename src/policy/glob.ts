// Whether one path component written as a shell pattern could match a given name (issue 9 A.1):
// `.?`, `.[.]` and `.*` match `..` in dash and busybox sh; `.gi?` matches `.git`. The pattern
// is the tokenizer's form (quoted glob characters escaped with `\`). Shells read brackets two ways
// (see READINGS): a pattern could match when either reading does. The names asked about are a
// handful of short constants, so matching is O(pattern x name), linear in the pattern.

type Element =
  | { kind: 'literal'; c: string }
  | { kind: 'any' } // ?
  | { kind: 'star' } // *
  | { kind: 'set'; negated: boolean; body: string }; // [...]

/** Lower-case both sides: case-insensitive filesystems (macOS, Windows) make `.GIT` the same folder. */
const fold = (c: string): string => c.toLowerCase();

interface Reading {
  /** `[^…]` is `[!…]`; else `^` is a member like any other. */
  caretNegates: boolean;
  /** The kinds of class (`[:alpha:]`, `[=a=]`, `[.a.]`) whose `]` does not end a bracket. */
  classes: string;
}

/**
 * bash and busybox sh; and dash (Debian's /bin/sh), where `.gi[^t]` and `.g[[=i=]t` are `.git`:
 * `^` is a member there and only `[:…:]` is a class (`[[=i=]` is the set of `[`, `=`, `i`).
 */
const READINGS: readonly Reading[] = [
  { caretNegates: true, classes: ':=.' },
  { caretNegates: false, classes: ':' },
];

/** The elements of a pattern in one reading. */
function parse(pattern: string, reading: Reading): Element[] {
  const n = pattern.length;
  // Which characters an unescaped backslash escapes (left to right), then where each `[`'s `]`
  // is (right to left): two scans, so a run of `[` stays linear.
  const escaped = new Uint8Array(n);
  // (A backslash at the end escapes nothing: the write past the end of the array is dropped.)
  for (let i = 0; i < n; i++) if (pattern[i] === '\\' && escaped[i] === 0) escaped[i + 1] = 1;
  const close = new Int32Array(n + 1).fill(-1); // close[i]: the first unescaped `]` after i
  for (let i = n - 1, next = -1; i >= 0; i--) {
    close[i] = next;
    if (pattern[i] === ']' && escaped[i] === 0) next = i;
  }
  const out: Element[] = [];
  for (let i = 0; i < n; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < n) {
      out.push({ kind: 'literal', c: fold(pattern[++i]!) });
    } else if (c === '*') {
      out.push({ kind: 'star' });
    } else if (c === '?') {
      out.push({ kind: 'any' });
    } else if (c === '[') {
      let start = i + 1;
      const negated = pattern[start] === '!' || (reading.caretNegates && pattern[start] === '^');
      if (negated) start++;
      // A `]` right after `[` or `[!` is a member, not the end (close[n] is -1).
      let end = close[start]!;
      if (end === -1) {
        out.push({ kind: 'literal', c: '[' });
        continue;
      }
      // `[[:punct:]]`, `[[=a=]]`, `[[.-.]]`: the `]` of a class is not the end. Bracket
      // expressions are short: past a few classes the set is taken to match anything.
      let k = start;
      let classes = 0;
      while (k < end) {
        if (pattern[k] === '[' && reading.classes.includes(pattern[k + 1]!)) {
          const closer = pattern.indexOf(pattern[k + 1]! + ']', k + 2);
          if (closer < 0 || ++classes > 8) break;
          k = closer + 2;
          // The first `]` at or after k: the same end while k has not passed it (-1 ends the loop).
          end = close[k - 1]!;
        } else k++;
      }
      if (end === -1 || classes > 8) {
        out.push({ kind: 'set', negated: false, body: '[:any:]' });
        // Past eight classes where the bracket ends is not worked out: anything may follow it.
        if (classes > 8) out.push({ kind: 'star' });
        i = n;
        continue;
      }
      out.push({ kind: 'set', negated, body: pattern.slice(start, end) });
      i = end;
    } else {
      out.push({ kind: 'literal', c: fold(c) });
    }
  }
  return out;
}

function setMatches(set: { negated: boolean; body: string }, c: string): boolean {
  // Character classes ([:alpha:]) and equivalence classes may match anything: assume they do.
  if (set.body.includes('[:') || set.body.includes('[=') || set.body.includes('[.')) return true;
  let hit = false;
  const upper = c.toUpperCase();
  for (let k = 0; k < set.body.length && !hit; k++) {
    let a = set.body[k]!;
    if (a === '\\' && k + 1 < set.body.length) a = set.body[++k]!;
    if (set.body[k + 1] === '-' && k + 2 < set.body.length) {
      let b = set.body[k + 2]!;
      k += 2;
      if (b === '\\' && k + 1 < set.body.length) b = set.body[++k]!;
      hit = (c >= a && c <= b) || (upper >= a && upper <= b);
    } else {
      hit = fold(a) === c;
    }
  }
  return hit !== set.negated;
}

/**
 * Whether `pattern` (one component) could match `name` (lower case). With `dotMustBeExplicit`
 * a leading `.` of the name is matched only by a literal `.` or a bracket expression, as every
 * shell does for `.` and `..`; without it `*` and `?` may match it too (bash's dotglob).
 */
export function couldMatch(pattern: string, name: string, dotMustBeExplicit: boolean): boolean {
  return READINGS.some((reading) => matches(parse(pattern, reading), name, dotMustBeExplicit));
}

function matches(elements: readonly Element[], name: string, dotMustBeExplicit: boolean): boolean {
  let current = new Uint8Array(name.length + 1);
  let next = new Uint8Array(name.length + 1);
  current[0] = 1;
  // A leading dot that must be matched explicitly: `*`, `?` and `[!…]` cannot take it.
  const explicitDot = dotMustBeExplicit && name[0] === '.';
  for (const e of elements) {
    next.fill(0);
    if (e.kind === 'star') {
      // next[j]: some i <= j reached, and `*` may take name[i..j).
      let fromInside = false;
      for (let j = 0; j <= name.length; j++) {
        if (j >= 1 && current[j] === 1) fromInside = true;
        const fromStart = current[0] === 1 && (j === 0 || !explicitDot);
        if (fromStart || fromInside) next[j] = 1;
      }
    } else {
      for (let j = 0; j < name.length; j++) {
        if (current[j] !== 1) continue;
        const c = name[j]!;
        const leadingDot = j === 0 && explicitDot;
        let ok: boolean;
        if (e.kind === 'literal') ok = e.c === c;
        else if (e.kind === 'any') ok = !leadingDot;
        else ok = !(leadingDot && e.negated) && setMatches(e, c);
        if (ok) next[j + 1] = 1;
      }
    }
    [current, next] = [next, current];
    if (current.indexOf(1) < 0) return false; // nothing reachable: no later element can help
  }
  return current[name.length] === 1;
}

/** Whether a pattern has an active glob character (unescaped `*`, `?`, or a `[` … `]`). */
export function isPattern(component: string): boolean {
  const active = (e: Element): boolean => e.kind !== 'literal';
  return READINGS.some((reading) => parse(component, reading).some(active));
}

/** The component with its escapes removed (for a component that is not a pattern). */
export function unescape(component: string): string {
  let out = '';
  for (let i = 0; i < component.length; i++) {
    const c = component[i]!;
    if (c === '\\' && i + 1 < component.length) out += component[++i]!;
    else out += c;
  }
  return out;
}
