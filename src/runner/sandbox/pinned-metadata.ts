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
 * Git's redirections that did not exist before the command (.git/commondir would make git read
 * its config and hooks from elsewhere) are deleted once the sandbox is gone: fail closed, nothing
 * of them takes effect. Deleted where they are, never moved: a destination inside the project
 * could be a symlink the command planted. Symlinks are unlinked, not followed; folders the command
 * made unwritable are opened up first. Returns the paths removed; throws if one could not be.
 */
export function removeAppeared(mustNotAppear: readonly string[]): string[] {
  const removed: string[] = [];
  for (const entry of mustNotAppear) {
    if (lstatOrNull(entry) === null) continue;
    forceRemove(entry);
    removed.push(entry);
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
