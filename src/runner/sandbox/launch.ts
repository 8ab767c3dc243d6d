// Turns "run this command here" plus the sandbox choice into what to spawn: plain `/bin/sh -c`, or
// the same inside bwrap / sandbox-exec with the rules of this root. Protected files are created
// first (prepare.ts), so the read-only mounts always have something to cover.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BWRAP, bwrapArgs } from './bwrap.ts';
import { hiddenPaths } from './hidden.ts';
import { capturePinned, removeAppeared, restorePinned } from './pinned-metadata.ts';
import type { SandboxBackend } from './platform.ts';
import type { SandboxGit } from './policy.ts';
import { prepareProtection, withoutCovered } from './prepare.ts';
import { sandboxRules } from './rules.ts';
import { SANDBOX_EXEC, seatbeltArgs } from './seatbelt.ts';
import { seccompProgram } from './seccomp.ts';

export class SandboxRepairError extends Error {
  override name = 'SandboxRepairError';
}

/** The descriptor bwrap reads its seccomp program from (after stdin/out/err and the supervisor pipe). */
export const SECCOMP_FD = 4;

export interface Launch {
  file: string;
  args: string[];
  /** Written to SECCOMP_FD right after the spawn, then closed; null: no extra descriptor. */
  input: Buffer | null;
  env: NodeJS.ProcessEnv;
  sandboxed: SandboxBackend | null;
  /**
   * After the command: puts back the pinned folders' metadata (returns the paths a command had
   * changed) and removes what the launch created for this command only (macOS private temp).
   */
  cleanup: () => string[];
}

export interface LaunchRequest {
  command: string;
  /** Real paths. */
  root: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  backend: SandboxBackend | null;
  network: boolean;
  /** --sandbox-git; absent: read-only. */
  git?: SandboxGit;
  /** bwrap only: whether this machine's bwrap takes the seccomp program (probed). */
  seccomp?: boolean;
  /** Files and folders to hide besides the credentials under $HOME (the runner's journal). */
  hide?: readonly string[];
}

export function launchFor(request: LaunchRequest): Launch {
  const { command, root, cwd, env, backend } = request;
  if (backend === null)
    return { file: '/bin/sh', args: ['-c', command], input: null, env, sandboxed: null, cleanup: () => [] };
  const protection = withoutCovered(prepareProtection(root, request.git ?? 'read-only', env));
  const hidden = hiddenPaths(env.HOME ?? os.homedir(), root, request.hide ?? []);
  const rules = sandboxRules({
    root,
    cwd,
    network: request.network,
    readOnly: protection.readOnly,
    pinned: protection.pinned,
    mustNotAppear: protection.mustNotAppear,
    hidden,
  });
  const pinnedBefore = capturePinned(rules.pinned);
  // Both steps always run, whatever the other did; an error in either is thrown after both.
  const repair = (): string[] => {
    const done: string[] = [];
    const errors: string[] = [];
    for (const step of [() => removeAppeared(root, rules.mustNotAppear), () => restorePinned(pinnedBefore)]) {
      try {
        done.push(...step());
      } catch (error) {
        errors.push((error as Error).message);
      }
    }
    if (errors.length > 0)
      throw new SandboxRepairError(
        `after the command, protected git metadata could not be repaired (${errors.join('; ')}); repaired: ${done.join(', ') || 'nothing'}`,
      );
    return done;
  };
  if (backend === 'bwrap') {
    const input = request.seccomp === false ? null : seccompProgram();
    return {
      file: BWRAP,
      args: bwrapArgs(rules, command, { seccompFd: input === null ? null : SECCOMP_FD }),
      input,
      env,
      sandboxed: 'bwrap',
      cleanup: repair,
    };
  }
  const privateTmp = mkdtempSync(path.join(os.tmpdir(), 'brabo-sandbox-'));
  return {
    file: SANDBOX_EXEC,
    args: seatbeltArgs(rules, command, { privateTmp }),
    input: null,
    env: { ...env, TMPDIR: privateTmp },
    sandboxed: 'seatbelt',
    cleanup: () => {
      rmSync(privateTmp, { recursive: true, force: true });
      return repair();
    },
  };
}
