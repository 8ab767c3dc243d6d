// The pinned `.git` is a writable mount point (so it cannot be renamed, and git can still create
// its lock files in it), which also lets a sandboxed command chmod, chgrp or touch that one folder
// of the host. Its mode, group/owner and times are captured before the command and put back once
// the sandbox is gone (its whole PID namespace dies with the command, so nothing races the
// restore); extended attributes cannot be set at all (seccomp.ts).
import { chmodSync, chownSync, lstatSync, readdirSync, rmdirSync, unlinkSync, utimesSync } from 'node:fs';
import type { Stats } from 'node:fs';
import path from 'node:path';

export interface PinnedMetadata {
  path: string;
  mode: number;
  uid: number;
  gid: number;
  atimeMs: number;
  mtimeMs: number;
}

export function capturePinned(paths: readonly string[]): PinnedMetadata[] {
  return paths.map((path) => {
    const stat = lstatSync(path);
    return {
      path,
      mode: stat.mode & 0o7777,
      uid: stat.uid,
      gid: stat.gid,
      atimeMs: stat.atimeMs,
      mtimeMs: stat.mtimeMs,
    };
  });
}

/** Puts the captured metadata back; returns the paths whose mode or ownership had been changed. */
export function restorePinned(captured: readonly PinnedMetadata[]): string[] {
  const changed: string[] = [];
  for (const before of captured) {
    let now;
    try {
      now = lstatSync(before.path);
    } catch {
      continue; // gone: the pin kept it from being removed, so this is not the sandbox's doing
    }
    if (!now.isDirectory()) continue;
    if ((now.mode & 0o7777) !== before.mode || now.uid !== before.uid || now.gid !== before.gid)
      changed.push(before.path);
    if (now.uid !== before.uid || now.gid !== before.gid) chownSync(before.path, before.uid, before.gid);
    if ((now.mode & 0o7777) !== before.mode) chmodSync(before.path, before.mode);
    if (now.atimeMs !== before.atimeMs || now.mtimeMs !== before.mtimeMs)
      utimesSync(before.path, before.atimeMs / 1000, before.mtimeMs / 1000);
  }
  return changed;
}

/**
 * What must not appear (rules.ts: git's redirections such as .git/commondir, which would make git
 * read its config and hooks from elsewhere; a submodule's `.git` where none was; a program a config
 * value names that did not exist) is deleted once the sandbox is gone: fail closed, nothing of it
 * takes effect. Each entry lies inside `root` and is reached from it one name at a time, never
 * through a symbolic link: a link on the way appeared during the command (one that was there
 * before is refused at the start, prepare.ts), and it is the link that is removed, not what it
 * points to (it could point outside the root); a file on the way (it appeared: one that was there
 * is kept read-only) is removed too, as it could become the folder on the way. Deleted where they
 * are, never moved; folders the command made unwritable are opened up first. Returns the paths
 * removed; throws if one could not be.
 */
export function removeAppeared(root: string, mustNotAppear: readonly string[]): string[] {
  const removed: string[] = [];
  for (const entry of mustNotAppear) {
    const rel = path.relative(root, entry);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) continue; // rules.ts never makes one
    let current = root;
    const parts = rel.split(path.sep);
    for (const [index, part] of parts.entries()) {
      current = path.join(current, part);
      const stat = lstatOrNull(current);
      if (stat === null) break;
      if (index === parts.length - 1 || !stat.isDirectory()) {
        forceRemove(current);
        removed.push(current);
        break;
      }
    }
  }
  return removed;
}

function forceRemove(entry: string): void {
  const stat = lstatOrNull(entry);
  if (stat === null) return;
  if (!stat.isDirectory()) {
    unlinkSync(entry); // a file or a symlink itself, never its target
    return;
  }
  chmodSync(entry, 0o700); // a folder made read-only or unlistable by the command
  for (const name of readdirSync(entry)) forceRemove(path.join(entry, name));
  rmdirSync(entry);
}

function lstatOrNull(entry: string): Stats | null {
  try {
    return lstatSync(entry);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
