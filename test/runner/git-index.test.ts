// The index reader behind the protection of existing submodules (src/runner/sandbox/git-index.ts):
// hand-made index files of each version, truncated and corrupt ones (each refused, never guessed
// at), and a property: random entries written by the real `git update-index` (versions 2, 3, 4,
// SHA-1 and SHA-256) read back exactly as `git ls-files -s` lists them.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { GitIndexError, indexGitlinks, parseIndex } from '../../src/runner/sandbox/git-index.ts';
import type { IndexEntry } from '../../src/runner/sandbox/git-index.ts';

interface Raw extends IndexEntry {
  /** Extended flags (version 3 and 4): skip-worktree, intent-to-add. */
  extended?: number;
}

/** An index file as git writes one (gitformat-index.txt), optionally bent by `tweak`. */
function encode(
  version: number,
  entries: Raw[],
  options: { hash?: 'sha1' | 'sha256'; extensions?: Buffer[]; skipHash?: boolean; count?: number } = {},
): Buffer {
  const hash = options.hash ?? 'sha1';
  const header = Buffer.alloc(12);
  header.write('DIRC', 0, 'latin1');
  header.writeUInt32BE(version, 4);
  header.writeUInt32BE(options.count ?? entries.length, 8);
  const parts: Buffer[] = [header];
  let previous: Buffer = Buffer.alloc(0);
  for (const entry of entries) {
    const name = Buffer.from(entry.path);
    const stat = Buffer.alloc(40);
    stat.writeUInt32BE(entry.mode, 24);
    const oid = Buffer.from(entry.oid, 'hex');
    const flags = Buffer.alloc(entry.extended === undefined ? 2 : 4);
    flags.writeUInt16BE(
      Math.min(name.length, 0xfff) | (entry.stage << 12) | (entry.extended === undefined ? 0 : 0x4000),
      0,
    );
    if (entry.extended !== undefined) flags.writeUInt16BE(entry.extended, 2);
    const fixed = Buffer.concat([stat, oid, flags]);
    if (version === 4) {
      let common = 0;
      while (common < previous.length && common < name.length && previous[common] === name[common]) common++;
      parts.push(fixed, varint(previous.length - common), name.subarray(common), Buffer.alloc(1));
    } else {
      const length = fixed.length + name.length;
      parts.push(fixed, name, Buffer.alloc(8 - (length % 8)));
    }
    previous = name;
  }
  parts.push(...(options.extensions ?? []));
  const body = Buffer.concat(parts);
  const digest = options.skipHash ? Buffer.alloc(hash === 'sha1' ? 20 : 32) : createHash(hash).update(body).digest();
  return Buffer.concat([body, digest]);
}

/** git's varint.c encoding. */
function varint(value: number): Buffer {
  const bytes = [value & 0x7f];
  while ((value >>= 7) > 0) bytes.unshift(0x80 | (--value & 0x7f));
  return Buffer.from(bytes);
}

const extension = (signature: string, data: Buffer): Buffer => {
  const head = Buffer.alloc(8);
  head.write(signature, 0, 'latin1');
  head.writeUInt32BE(data.length, 4);
  return Buffer.concat([head, data]);
};

const oid = (n: number, bytes = 20) =>
  createHash('sha256')
    .update(String(n))
    .digest('hex')
    .slice(0, bytes * 2);
const ENTRIES: Raw[] = [
  { mode: 0o100644, oid: oid(1), stage: 0, path: 'README.md' },
  { mode: 0o160000, oid: oid(2), stage: 0, path: 'lib/core' },
  { mode: 0o100755, oid: oid(3), stage: 0, path: 'lib/core.sh' },
  { mode: 0o120000, oid: oid(4), stage: 0, path: 'lib/link' },
  { mode: 0o160000, oid: oid(5), stage: 0, path: 'vendor/deep/er/mod' },
];
const plain = (entries: Raw[]) =>
  entries.map(({ mode, oid: id, stage, path: name }) => ({ mode, oid: id, stage, path: name }));

describe('parseIndex: hand-made index files', () => {
  it.each([2, 3, 4])('version %i: every entry read back, gitlinks among them', (version) => {
    const entries =
      version === 2 ? ENTRIES : ENTRIES.map((entry, i) => (i === 2 ? { ...entry, extended: 0x4000 } : entry));
    expect(parseIndex(encode(version, entries))).toEqual(plain(ENTRIES));
  });

  it('a path of 0xfff bytes or more (the length field saturates), a conflict (stages 1-3), SHA-256, skipHash, optional extensions, a sparse directory', () => {
    const long = `${'d/'.repeat(2100)}gitlink`;
    const entries: Raw[] = [
      { mode: 0o100644, oid: oid(1, 32), stage: 1, path: 'c' },
      { mode: 0o160000, oid: oid(2, 32), stage: 2, path: 'c' },
      { mode: 0o160000, oid: oid(3, 32), stage: 3, path: 'c' },
      { mode: 0o160000, oid: oid(4, 32), stage: 0, path: long },
      { mode: 0o40000, oid: oid(5, 32), stage: 0, path: 'sparse/', extended: 0x4000 },
    ];
    for (const version of [2, 3, 4]) {
      const data = encode(version === 2 ? 3 : version, entries, {
        hash: 'sha256',
        skipHash: version === 4,
        extensions: [extension('TREE', Buffer.from('anything')), extension('sdir', Buffer.alloc(0))],
      });
      expect(parseIndex(data, 32)).toEqual(plain(entries));
    }
  });

  it('an empty index (no entries) has no gitlinks', () => {
    expect(parseIndex(encode(2, []))).toEqual([]);
  });

  const good = encode(3, ENTRIES);
  it.each<[string, Buffer, RegExp]>([
    ['no DIRC signature', Buffer.from(good).fill('X', 0, 4), /DIRC/],
    ['version 1', encode(1, ENTRIES), /version 1/],
    ['version 5', encode(5, ENTRIES), /version 5/],
    [
      'a checksum that does not match',
      Buffer.concat([good.subarray(0, -1), Buffer.from([good.at(-1)! ^ 1])]),
      /checksum/,
    ],
    [
      'a byte flipped inside an entry',
      (() => {
        const b = Buffer.from(good);
        b[70] = (b[70] as number) ^ 0x20;
        return b;
      })(),
      /checksum/,
    ],
    ['more entries than bytes', encode(2, ENTRIES, { count: 1_000_000 }), /cannot fit/],
    [
      'more entries than written',
      encode(2, ENTRIES, { count: 6 }),
      /past the end|no end|out of order|path of|flags say|bad padding|extension/,
    ],
    [
      'a split index (link extension)',
      encode(2, ENTRIES, { extensions: [extension('link', Buffer.alloc(20))] }),
      /split index/,
    ],
    [
      'an unknown required extension',
      encode(2, ENTRIES, { extensions: [extension('zzzz', Buffer.alloc(4))] }),
      /required extension "zzzz"/,
    ],
    [
      'an extension running past the end',
      encode(2, ENTRIES, { extensions: [Buffer.from('TREE\0\0\x10\0')] }),
      /past the end/,
    ],
    ['entries out of order', encode(2, [ENTRIES[1]!, ENTRIES[0]!]), /out of order/],
    ['extended flags in a version 2 index', encode(2, [{ ...ENTRIES[0]!, extended: 0x4000 }]), /extended flags/],
    ['a path with ..', encode(2, [{ ...ENTRIES[1]!, path: 'a/../b' }]), /not one git writes/],
    ['an absolute path', encode(2, [{ ...ENTRIES[1]!, path: '/etc' }]), /not one git writes/],
    ['a path with an empty part', encode(2, [{ ...ENTRIES[1]!, path: 'a//b' }]), /not one git writes/],
    [
      'a v4 entry stripping more than the previous path',
      withStrip(encode(4, [ENTRIES[0]!, ENTRIES[1]!]), 10),
      /strips/,
    ],
  ])('%s: refused with GitIndexError', (_name, data, message) => {
    expect(() => parseIndex(data)).toThrow(GitIndexError);
    expect(() => parseIndex(data)).toThrow(message);
  });

  it('a SHA-1 index read as a SHA-256 one: refused', () => {
    expect(() => parseIndex(good, 32)).toThrow(GitIndexError);
  });

  it('a length field that disagrees with the path (checksum recomputed): refused', () => {
    const body = encode(2, [ENTRIES[1]!]).subarray(0, -20);
    body.writeUInt16BE(3, 12 + 60); // flags: length 3, the path is 8 bytes
    const data = Buffer.concat([body, createHash('sha1').update(body).digest()]);
    expect(() => parseIndex(data)).toThrow(/flags say 3/);
  });

  it('bad padding (checksum recomputed): refused', () => {
    // 62 fixed bytes and a 6-byte path: 4 NULs pad the entry to 72.
    const body = encode(2, [{ ...ENTRIES[0]!, path: 'README' }]).subarray(0, -20);
    body[12 + 62 + 6 + 2] = 0x41;
    const data = Buffer.concat([body, createHash('sha1').update(body).digest()]);
    expect(() => parseIndex(data)).toThrow(/padding/);
  });

  it('every truncation of a valid index of each version is refused, none read as fewer gitlinks', () => {
    for (const version of [2, 3, 4]) {
      for (const skipHash of [false, true]) {
        const data = encode(version, ENTRIES, { skipHash, extensions: [extension('TREE', Buffer.alloc(12))] });
        for (let length = 0; length < data.length; length++) {
          const cut = data.subarray(0, length);
          // With skipHash a cut can end in zeros that look like one: refused or read whole, never fewer.
          let entries: IndexEntry[] | null = null;
          try {
            entries = parseIndex(cut);
          } catch (error) {
            expect(error, `version ${version} cut at ${length}`).toBeInstanceOf(GitIndexError);
          }
          if (entries !== null) expect(entries, `version ${version} cut at ${length}`).toEqual(plain(ENTRIES));
        }
      }
    }
  });
});

/** Re-encodes the second v4 entry's prefix-strip varint (first byte after its flags). */
function withStrip(data: Buffer, strip: number): Buffer {
  const body = Buffer.from(data.subarray(0, -20));
  const second = 12 + 62 + 1 + 'README.md'.length + 1; // header, entry 1 (strip varint, name, NUL)
  body[second + 62] = strip;
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

describe('indexGitlinks: what the real git writes', () => {
  const part = fc
    .stringMatching(/^[a-z0-9 _\-+éü☃]{1,12}$/)
    .filter((name) => name.trim() === name && !name.startsWith('.'));
  const entry = fc.record({
    dirs: fc.array(part, { maxLength: 3 }),
    leaf: part,
    kind: fc.constantFrom('blob', 'exec', 'link', 'gitlink'),
    n: fc.nat(),
    long: fc.boolean(),
    stage: fc.constantFrom(0, 0, 0, 1, 2, 3),
  });

  it('random entries (files, links, gitlinks, conflicts, long paths) in versions 2, 3, 4 and SHA-256: read back as git ls-files -s lists them', () => {
    const runs: Array<{ format: 'sha1' | 'sha256'; dir: string }> = (['sha1', 'sha256'] as const).map((format) => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'brabo-index-'));
      dirs.push(dir);
      execFileSync('git', ['init', '-q', `--object-format=${format}`, dir], { env: ENV });
      return { format, dir };
    });
    fc.assert(
      fc.property(
        fc.array(entry, { minLength: 1, maxLength: 25 }),
        fc.constantFrom(2, 3, 4),
        fc.constantFrom(0, 1),
        fc.boolean(),
        (raw, version, which, skipWorktree) => {
          const { format, dir } = runs[which]!;
          const bytes = format === 'sha1' ? 20 : 32;
          // Leaves `f-…`, folders `d-…`: no path is both a file and a folder.
          const lines = new Map<string, string>(); // one stage per path
          lines.set('f-fixed', `100644 ${oid(0, bytes)} 0\tf-fixed`);
          for (const item of raw) {
            const folders = item.dirs.map((name) => `d-${name}`);
            if (item.long)
              folders.unshift('d-'.padEnd(250, 'x'), 'd-'.padEnd(250, 'y'), ...Array(16).fill('d-'.padEnd(250, 'z')));
            const file = [...folders, `f-${item.leaf}`].join('/');
            const mode = { blob: '100644', exec: '100755', link: '120000', gitlink: '160000' }[item.kind];
            lines.set(file, `${mode} ${oid(item.n, bytes)} ${item.stage}\t${file}`);
          }
          rmSync(path.join(dir, '.git', 'index'), { force: true });
          execFileSync('git', ['update-index', '--index-info'], {
            cwd: dir,
            env: ENV,
            input: [...lines.values()].join('\n') + '\n',
          });
          execFileSync('git', ['update-index', `--index-version=${version}`], { cwd: dir, env: ENV });
          // git writes version 3 only when an entry has extended flags: one gets skip-worktree.
          if (version === 3 || (skipWorktree && version === 4)) {
            const first = [...lines.values()].find((line) => / 0\t/.test(line));
            if (first)
              execFileSync('git', ['update-index', '--skip-worktree', first.split('\t')[1]!], { cwd: dir, env: ENV });
          }
          const listed = execFileSync('git', ['ls-files', '-s', '-z'], { cwd: dir, env: ENV })
            .toString('utf8')
            .split('\0')
            .filter((line) => line !== '')
            .map((line) => {
              const [meta, name] = line.split('\t') as [string, string];
              const [mode, id, stage] = meta.split(' ') as [string, string, string];
              return { mode: Number.parseInt(mode, 8), oid: id, stage: Number(stage), path: name };
            });
          const data = readFileSync(path.join(dir, '.git', 'index'));
          expect(data.readUInt32BE(4)).toBe(version);
          expect(parseIndex(data, bytes)).toEqual(listed);
          const gitlinks = [...new Set(listed.filter((item) => item.mode === 0o160000).map((item) => item.path))];
          expect(indexGitlinks(path.join(dir, '.git', 'index'), bytes)).toEqual(gitlinks);
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);

  it('cached by the index stat: a rewrite (a new ctime) is read again; no index: no gitlinks; garbage: refused', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'brabo-index-'));
    dirs.push(dir);
    const file = path.join(dir, 'index');
    writeFileSync(file, encode(2, ENTRIES));
    expect(indexGitlinks(file)).toEqual(['lib/core', 'vendor/deep/er/mod']);
    const other = encode(2, [{ ...ENTRIES[1]!, path: 'lib/cora' }, ...ENTRIES.slice(2)]);
    writeFileSync(file, other);
    utimesSync(file, new Date(2001, 1, 1), new Date(2001, 1, 1));
    expect(indexGitlinks(file)).toEqual(['lib/cora', 'vendor/deep/er/mod']);
    expect(indexGitlinks(path.join(dir, 'absent'))).toEqual([]);
    writeFileSync(file, Buffer.from('DIRC garbage'));
    expect(() => indexGitlinks(file)).toThrow(GitIndexError);
  });
});
