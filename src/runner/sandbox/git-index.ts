// A reader of git's index file (`.git/index`, versions 2, 3 and 4), for one purpose: the gitlinks
// (mode 160000 entries: submodules) it records. `git status` recurses into each gitlink whose
// `<path>/.git` exists and runs that repository's config (core.fsmonitor ...), so the sandbox must
// know them to keep `<path>/.git` in place (prepare.ts).
//
// Bounded and fail-closed: a file it cannot read exactly (truncated, corrupt, a checksum that does
// not match, an unknown version or a mandatory extension it does not know, such as a split
// index's `link`) is a GitIndexError, never a guess: a gitlink missed would be a submodule left
// unprotected. Format: Documentation/gitformat-index.txt in git's sources.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

export class GitIndexError extends Error {
  override name = 'GitIndexError';
}

export interface IndexEntry {
  /** The mode as git writes it (0o100644, 0o120000, 0o160000 ...). */
  mode: number;
  /** Object id, lower-case hex. */
  oid: string;
  /** 0, or 1-3 for a conflict. */
  stage: number;
  /** Path relative to the work tree, `/`-separated, as bytes decoded as UTF-8. */
  path: string;
}

export const GITLINK_MODE = 0o160000;
const SPARSE_DIR_MODE = 0o40000;
/** Larger indexes are refused (git's own are a few MB for 100k files). */
export const MAX_INDEX_BYTES = 256 * 1024 * 1024;
/** git's limit on a path is the OS's; beyond this something is wrong. */
const MAX_PATH_BYTES = 64 * 1024;

/** Object id length: 20 bytes for SHA-1 repositories, 32 for SHA-256 (extensions.objectFormat). */
export type HashBytes = 20 | 32;

/** Parses a whole index file's bytes; throws GitIndexError. */
export function parseIndex(data: Buffer, hashBytes: HashBytes = 20): IndexEntry[] {
  const fail = (what: string): never => {
    throw new GitIndexError(`the git index cannot be read: ${what}`);
  };
  if (data.length < 12 + hashBytes) fail(`${data.length} bytes, shorter than a header and checksum`);
  if (data.toString('latin1', 0, 4) !== 'DIRC') fail('no DIRC signature');
  const version = data.readUInt32BE(4);
  if (version < 2 || version > 4) fail(`version ${version} (2, 3 and 4 are known)`);
  const count = data.readUInt32BE(8);
  const end = data.length - hashBytes;
  // The trailing checksum covers everything before it; all zeros: index.skipHash (git 2.40+).
  const stored = data.subarray(end);
  if (stored.some((byte) => byte !== 0)) {
    const actual = createHash(hashBytes === 20 ? 'sha1' : 'sha256')
      .update(data.subarray(0, end))
      .digest();
    if (!actual.equals(stored)) fail('the checksum does not match (truncated, corrupt, or another hash)');
  }
  // The smallest entry is 40 bytes of stat data, the id, 2 of flags and 1 of path.
  if (count > (end - 12) / (40 + hashBytes + 3)) fail(`${count} entries cannot fit in ${data.length} bytes`);

  const entries: IndexEntry[] = [];
  let offset = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const start = offset;
    if (offset + 40 + hashBytes + 2 > end) fail(`entry ${i} runs past the end`);
    const mode = data.readUInt32BE(offset + 24);
    offset += 40;
    const oid = data.toString('hex', offset, offset + hashBytes);
    offset += hashBytes;
    const flags = data.readUInt16BE(offset);
    offset += 2;
    if (flags & 0x4000) {
      if (version < 3) fail(`entry ${i} has extended flags in a version ${version} index`);
      if (offset + 2 > end) fail(`entry ${i} runs past the end`);
      offset += 2;
    }
    let name: Buffer;
    if (version === 4) {
      const strip = readVarint(data, offset, end);
      if (strip === null) fail(`entry ${i}: a bad path prefix length`);
      const [remove, next] = strip as [number, number];
      if (remove > previous.length) fail(`entry ${i} strips ${remove} bytes of a ${previous.length}-byte path`);
      const nul = data.indexOf(0, next);
      if (nul === -1 || nul >= end) fail(`entry ${i}: its path has no end`);
      name = Buffer.concat([previous.subarray(0, previous.length - remove), data.subarray(next, nul)]);
      offset = nul + 1;
    } else {
      const nul = data.indexOf(0, offset);
      if (nul === -1 || nul >= end) fail(`entry ${i}: its path has no end`);
      name = data.subarray(offset, nul);
      // 1-8 NULs pad the entry to a multiple of 8 bytes.
      const padded = start + ((nul - start + 8) & ~7);
      if (padded > end) fail(`entry ${i} runs past the end`);
      for (let at = nul; at < padded; at++) if (data[at] !== 0) fail(`entry ${i}: bad padding`);
      offset = padded;
    }
    const length = flags & 0xfff;
    if (name.length === 0 || name.length > MAX_PATH_BYTES) fail(`entry ${i}: a path of ${name.length} bytes`);
    if (length !== 0xfff ? length !== name.length : name.length < 0xfff)
      fail(`entry ${i}: its path is ${name.length} bytes, its flags say ${length}`);
    // Sorted by path bytes, then stage (a conflict lists one path once per stage).
    if (previous.length > 0 && Buffer.compare(previous, name) > 0) fail(`entry ${i} is out of order`);
    const path = name.toString('utf8');
    // A sparse directory entry (mode 040000, `sdir`) is a folder's path with a trailing slash.
    const bare = mode === SPARSE_DIR_MODE && path.endsWith('/') ? path.slice(0, -1) : path;
    if (bare.startsWith('/') || bare.split('/').some((part) => part === '' || part === '.' || part === '..'))
      fail(`entry ${i}: the path ${JSON.stringify(path)} is not one git writes`);
    entries.push({ mode, oid, stage: (flags >> 12) & 0x3, path });
    previous = name;
  }

  // Extensions: a 4-byte signature and a 32-bit size each. An upper-case first letter is optional
  // (cache tree, untracked cache, fsmonitor ...: nothing of the entries); lower-case ones change
  // what the entries mean: `sdir` (sparse directories: gitlinks below them are not checked out)
  // is understood, `link` (split index: more entries in another file) and anything else is not.
  while (offset < end) {
    if (offset + 8 > end) fail('an extension header runs past the end');
    const signature = data.toString('latin1', offset, offset + 4);
    const size = data.readUInt32BE(offset + 4);
    if (offset + 8 + size > end) fail(`extension ${JSON.stringify(signature)} runs past the end`);
    const first = signature.charCodeAt(0);
    if (!(first >= 0x41 && first <= 0x5a) && signature !== 'sdir')
      fail(
        signature === 'link'
          ? 'it is a split index (core.splitIndex), whose entries live in another file; run `git update-index --no-split-index`'
          : `a required extension ${JSON.stringify(signature)} this reader does not know`,
      );
    offset += 8 + size;
  }
  return entries;
}

/** git's offset varint (varint.c): 7 bits a byte, high bit "more", each continuation adds one. */
function readVarint(data: Buffer, offset: number, end: number): [number, number] | null {
  if (offset >= end) return null;
  let byte = data[offset++] as number;
  let value = byte & 0x7f;
  while (byte & 0x80) {
    if (offset >= end || value > 0xffffff) return null;
    byte = data[offset++] as number;
    value = ((value + 1) << 7) | (byte & 0x7f);
  }
  return [value, offset];
}

interface Cached {
  key: string;
  gitlinks: string[];
}
const cache = new Map<string, Cached>();
const MAX_CACHED = 64;

/**
 * The gitlink paths (every stage, each once) of the index at `file`; [] when there is no index.
 * Cached by the file's device, inode, size, mtime and ctime (nanoseconds): a command's start
 * re-reads it only after git rewrote it. Throws GitIndexError.
 */
export function indexGitlinks(file: string, hashBytes: HashBytes = 20): string[] {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new GitIndexError(`the git index ${file} cannot be opened (${(error as NodeJS.ErrnoException).code})`);
  }
  try {
    const stat = fstatSync(fd, { bigint: true });
    if (!stat.isFile()) throw new GitIndexError(`the git index ${file} is not a regular file`);
    const key = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}:${hashBytes}`;
    const hit = cache.get(file);
    if (hit?.key === key) return hit.gitlinks;
    if (stat.size > BigInt(MAX_INDEX_BYTES))
      throw new GitIndexError(`the git index ${file} is ${stat.size} bytes, more than this reader takes`);
    const data = Buffer.alloc(Number(stat.size));
    let read = 0;
    while (read < data.length) {
      const n = readSync(fd, data, read, data.length - read, read);
      if (n === 0) break;
      read += n;
    }
    let entries: IndexEntry[];
    try {
      entries = parseIndex(data.subarray(0, read), hashBytes);
    } catch (error) {
      if (error instanceof GitIndexError) throw new GitIndexError(`${error.message} (${file})`);
      throw error;
    }
    const gitlinks = [...new Set(entries.filter((entry) => entry.mode === GITLINK_MODE).map((entry) => entry.path))];
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(file, { key, gitlinks });
    return gitlinks;
  } finally {
    closeSync(fd);
  }
}
