// The pinned `.git` is a writable mount point (so it cannot be renamed, and git can still create
// its lock files in it), which also lets a sandboxed command chmod, chgrp or touch that one folder
// of the host. Its mode, group/owner and times are captured before the command and put back once
// the sandbox is gone (its whole PID namespace dies with the command, so nothing races the
// restore); extended attributes cannot be set at all (seccomp.ts).
import { chmodSync, chownSync, lstatSync, mkdirSync, renameSync, utimesSync } from 'node:fs';
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
    return { path, mode: stat.mode & 0o7777, uid: stat.uid, gid: stat.gid, atimeMs: stat.atimeMs, mtimeMs: stat.mtimeMs };
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
    if ((now.mode & 0o7777) !== before.mode || now.uid !== before.uid || now.gid !== before.gid) changed.push(before.path);
    if (now.uid !== before.uid || now.gid !== before.gid) chownSync(before.path, before.uid, before.gid);
    if ((now.mode & 0o7777) !== before.mode) chmodSync(before.path, before.mode);
    if (now.atimeMs !== before.atimeMs || now.mtimeMs !== before.mtimeMs) utimesSync(before.path, before.atimeMs / 1000, before.mtimeMs / 1000);
  }
  return changed;
}

/**
 * Git's redirections that did not exist before the command (.git/commondir would make git read
 * its config and hooks from elsewhere) are moved into `<git dir>/brabo-quarantine/`, where git
 * never looks, instead of being deleted: nothing is lost, nothing takes effect. Returns the paths
 * moved. The sandbox is gone by now, so nothing races the move.
 */
export function quarantineAppeared(mustNotAppear: readonly string[]): string[] {
  const moved: string[] = [];
  for (const entry of mustNotAppear) {
    try {
      lstatSync(entry);
    } catch {
      continue;
    }
    const quarantine = path.join(path.dirname(entry), 'brabo-quarantine');
    mkdirSync(quarantine, { recursive: true, mode: 0o700 });
    renameSync(entry, path.join(quarantine, `${new Date().toISOString().replaceAll(':', '-')}-${path.basename(entry)}`));
    moved.push(entry);
  }
  return moved;
}
