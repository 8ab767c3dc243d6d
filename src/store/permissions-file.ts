// permissions.json is a real file at the project root (spec "File"): read on every decision so a
// hand edit takes effect, written atomically (temp file + fsync + rename), one writer per root at a
// time, validated with the engine's named errors before anything touches the disk.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  EMPTY_PERMISSIONS,
  parsePermissions,
  parsePermissionsText,
  type PermissionsError,
  type PermissionsIssue,
} from '../policy/index.ts';
import type { Permissions } from '../policy/index.ts';

export const PERMISSIONS_FILE_NAME = 'permissions.json';

export interface PermissionsProblem {
  code: string;
  message: string;
  issues?: PermissionsError['issues'];
}

export interface PermissionsSnapshot {
  /** What decide() gets: the file, or only its salvaged deny/ask when broken. */
  permissions: Permissions;
  /** True when the file exists but cannot be used as written: decisions never auto-approve. */
  broken: boolean;
  problem: PermissionsProblem | null;
  exists: boolean;
  path: string;
  /** Entries kept but matching nothing (`GitPush(algo)`), to warn about; empty otherwise. */
  warnings: PermissionsIssue[];
}

/** A write refused before touching the file; `code` is the wire code. */
export class PermissionsWriteError extends Error {
  override name = 'PermissionsWriteError';
  readonly code: string;
  readonly issues: PermissionsError['issues'] | undefined;
  constructor(code: string, message: string, issues?: PermissionsError['issues']) {
    super(message);
    this.code = code;
    this.issues = issues;
  }
}

const errnoOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | null)?.code;

/** Larger than any hand-written rule list; a bigger file is refused rather than read. */
export const MAX_PERMISSIONS_FILE_BYTES = 1024 * 1024;

class NotARegularFileError extends Error {
  override name = 'NotARegularFileError';
}

/**
 * Reads permissions.json only when it is a regular file at that very path: a symlink (an agent can
 * plant one with a checkout) would make another file on the gateway's disk govern the project, so
 * it is opened with O_NOFOLLOW and checked on the open descriptor (no race with a swap).
 *
 * Synchronous on purpose: it runs on every proposal, and a small file in the page cache costs a
 * few microseconds of system calls, where the promise API pays five thread-pool round trips
 * (open, stat, stat, read, close) on the event loop. O_NONBLOCK keeps a FIFO planted there from
 * blocking the open (it is then refused as not a regular file); regular files ignore the flag.
 */
function readRegularFile(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if (errnoOf(error) === 'ELOOP') {
      throw new NotARegularFileError(
        `${path} is a symbolic link; the gateway does not follow links for permissions.json, so nothing is auto-approved until it is a regular file`,
      );
    }
    throw error;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) {
      throw new NotARegularFileError(`${path} is not a regular file; nothing is auto-approved until it is one`);
    }
    if (info.size > MAX_PERMISSIONS_FILE_BYTES) {
      throw new NotARegularFileError(
        `${path} is ${info.size} bytes, over the ${MAX_PERMISSIONS_FILE_BYTES}-byte limit; nothing is auto-approved until it is smaller`,
      );
    }
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

export class PermissionsFile {
  readonly #locks = new Map<string, Promise<unknown>>();

  pathOf(root: string): string {
    return join(root, PERMISSIONS_FILE_NAME);
  }

  async read(root: string): Promise<PermissionsSnapshot> {
    const path = this.pathOf(root);
    let text: string;
    try {
      text = readRegularFile(path);
    } catch (error) {
      if (errnoOf(error) === 'ENOENT')
        return { permissions: EMPTY_PERMISSIONS, broken: false, problem: null, exists: false, path, warnings: [] };
      if (error instanceof NotARegularFileError) {
        return {
          permissions: EMPTY_PERMISSIONS,
          broken: true,
          problem: { code: 'permissions_not_regular_file', message: error.message },
          exists: true,
          path,
          warnings: [],
        };
      }
      const message = `${path} cannot be read (${errnoOf(error) ?? String(error)}); nothing is auto-approved until the gateway can read it`;
      return {
        permissions: EMPTY_PERMISSIONS,
        broken: true,
        problem: { code: 'permissions_unreadable', message },
        exists: true,
        path,
        warnings: [],
      };
    }
    const parsed = parsePermissionsText(text);
    if (parsed.ok)
      return { permissions: parsed.value, broken: false, problem: null, exists: true, path, warnings: parsed.warnings };
    return {
      permissions: parsed.salvaged,
      broken: true,
      problem: { code: parsed.error.code, message: `${path}: ${parsed.error.message}`, issues: parsed.error.issues },
      exists: true,
      path,
      warnings: [],
    };
  }

  /** Replaces the whole file with `raw` after validating it; returns it with its warnings. */
  async replace(root: string, raw: unknown): Promise<{ permissions: Permissions; warnings: PermissionsIssue[] }> {
    const parsed = parsePermissions(raw);
    if (!parsed.ok) throw new PermissionsWriteError(parsed.error.code, parsed.error.message, parsed.error.issues);
    return this.#serialized(root, async () => {
      await this.#write(root, parsed.value);
      return { permissions: parsed.value, warnings: parsed.warnings };
    });
  }

  /**
   * Read-modify-write under the root's lock. `change` returns the next content, or null to leave
   * the file alone. A broken file is never rewritten from its salvage (that would drop the user's
   * allow list silently): the caller gets `permissions_file_invalid`.
   */
  async update(
    root: string,
    change: (current: Permissions) => Permissions | null,
  ): Promise<{ before: Permissions; after: Permissions }> {
    return this.#serialized(root, async () => {
      const snapshot = await this.read(root);
      if (snapshot.broken) {
        throw new PermissionsWriteError(
          'permissions_file_invalid',
          `${snapshot.problem?.message ?? snapshot.path} - fix or replace the file (PUT /api/projects/:id/permissions) before writing to it`,
          snapshot.problem?.issues,
        );
      }
      const next = change(snapshot.permissions);
      if (next === null) return { before: snapshot.permissions, after: snapshot.permissions };
      const parsed = parsePermissions(next);
      if (!parsed.ok) throw new PermissionsWriteError(parsed.error.code, parsed.error.message, parsed.error.issues);
      await this.#write(root, parsed.value);
      return { before: snapshot.permissions, after: parsed.value };
    });
  }

  async #serialized<T>(root: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#locks.get(root) ?? Promise.resolve();
    const current = previous.then(work, work);
    const settled = current.then(
      () => undefined,
      () => undefined,
    );
    this.#locks.set(root, settled);
    try {
      return await current;
    } finally {
      if (this.#locks.get(root) === settled) this.#locks.delete(root);
    }
  }

  async #write(root: string, permissions: Permissions): Promise<void> {
    const folder = await stat(root).catch(() => null);
    if (!folder?.isDirectory()) {
      throw new PermissionsWriteError(
        'project_folder_missing',
        `the project folder ${root} does not exist yet; a mounted project's folder is created by its first container_start`,
      );
    }
    const path = this.pathOf(root);
    const temp = join(root, `.${PERMISSIONS_FILE_NAME}.${randomBytes(6).toString('hex')}.tmp`);
    const text = `${JSON.stringify({ allow: permissions.allow, deny: permissions.deny, ask: permissions.ask }, null, 2)}\n`;
    try {
      const handle = await open(temp, 'wx', 0o644);
      try {
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, path);
      const dir = await open(root, 'r');
      try {
        await dir.sync();
      } finally {
        await dir.close();
      }
    } catch (error) {
      await rm(temp, { force: true });
      if (error instanceof PermissionsWriteError) throw error;
      throw new PermissionsWriteError(
        'permissions_write_failed',
        `could not write ${path} (${errnoOf(error) ?? String(error)}); check that the gateway's user can write the project folder`,
      );
    }
  }
}
