// The one description of what a sandboxed command may do. Both back-ends are generated from it:
// bubblewrap arguments on Linux (bwrap.ts) and a Seatbelt profile on macOS (seatbelt.ts), so the
// two platforms cannot drift apart rule by rule.
import path from 'node:path';

/** Files and folders inside the root that the agent must never change (issue 9 B.1). */
export const PROTECTED_IN_ROOT = {
  /** Git runs what these say (core.fsmonitor, hooks): planted, they run as the user next time. */
  gitConfig: '.git/config',
  gitHooks: '.git/hooks',
  /** The project's own rules: rewriting them would widen what is auto-approved. */
  permissions: 'permissions.json',
} as const;

export interface ProtectedPath {
  /** Absolute real path. */
  path: string;
  kind: 'file' | 'dir';
}

export interface SandboxRules {
  /** Real path of the project root: the only writable place of the host. */
  root: string;
  /** Real path of the command's cwd (inside root). */
  cwd: string;
  /**
   * Read-only inside the writable root; all exist (see prepare.ts). Parents before children (as
   * are `pinned`), so a mount of a folder never covers one made inside it.
   */
  readOnly: ProtectedPath[];
  /**
   * Folders pinned in place: they stay writable inside, but cannot be renamed, removed or
   * replaced (so `.git` cannot be swapped for a copy without the read-only files).
   */
  pinned: string[];
  /**
   * Protected names that do not exist (git's redirections: .git/commondir ...). Seatbelt denies
   * creating them; bwrap has nothing to mount over, so the runner deletes any the command
   * created once the sandbox is gone (pinned-metadata.ts).
   */
  mustNotAppear: string[];
  /** Outside the root, unreadable: credential folders and files (hidden.ts). */
  hidden: ProtectedPath[];
  /** Outbound network (TCP/UDP). Unix sockets are never reachable (docker.sock, ssh-agent). */
  network: boolean;
  /** A private, empty /tmp that disappears with the command. */
  privateTmp: true;
  /** Other processes (the runner's environ, its token) are invisible: own PID namespace. */
  isolateProcesses: true;
  /** The command's whole tree dies when the runner dies. */
  dieWithRunner: true;
}

export interface RulesInput {
  root: string;
  cwd: string;
  network: boolean;
  readOnly: ProtectedPath[];
  pinned: string[];
  mustNotAppear?: string[];
  hidden?: ProtectedPath[];
}

export function sandboxRules(input: RulesInput): SandboxRules {
  for (const entry of [
    input.root,
    input.cwd,
    ...input.readOnly.map((p) => p.path),
    ...input.pinned,
    ...(input.mustNotAppear ?? []),
    ...(input.hidden ?? []).map((p) => p.path),
  ]) {
    if (!path.isAbsolute(entry) || entry.includes('\0'))
      throw new SandboxRuleError(`sandbox paths must be absolute, got ${JSON.stringify(entry)}`);
  }
  return {
    root: input.root,
    cwd: input.cwd,
    readOnly: parentsFirst(dedupe(input.readOnly), (entry) => entry.path),
    pinned: parentsFirst([...new Set(input.pinned)], (folder) => folder),
    mustNotAppear: [...new Set(input.mustNotAppear ?? [])],
    hidden: dedupe(input.hidden ?? []),
    network: input.network,
    privateTmp: true,
    isolateProcesses: true,
    dieWithRunner: true,
  };
}

export class SandboxRuleError extends Error {
  override name = 'SandboxRuleError';
}

function dedupe(list: ProtectedPath[]): ProtectedPath[] {
  const seen = new Map<string, ProtectedPath>();
  for (const entry of list) seen.set(entry.path, entry);
  return [...seen.values()];
}

/** Stable: entries of equal depth keep their order. */
function parentsFirst<T>(list: T[], pathOf: (entry: T) => string): T[] {
  const depth = (entry: T) => pathOf(entry).split('/').length;
  return [...list].sort((a, b) => depth(a) - depth(b));
}
