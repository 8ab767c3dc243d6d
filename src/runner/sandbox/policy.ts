// What the runner does with a command, given its --sandbox mode, what the machine offers and who
// approved the command: run it sandboxed, run it as approved, or refuse it. One pure function, so
// every combination is unit-tested without a sandbox.
import type { Availability, SandboxBackend } from './platform.ts';

export const SANDBOX_MODES = ['auto', 'required', 'all', 'off'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

/**
 * --sandbox-git: `read-only` (default) makes the root's whole git directory read-only inside the
 * sandbox (index, refs, objects too: a gitlink to a planted repository cannot be staged);
 * `writable` leaves it writable except its config, hooks and redirections (`git add`/`commit` work).
 */
export const SANDBOX_GIT_MODES = ['read-only', 'writable'] as const;
export type SandboxGit = (typeof SANDBOX_GIT_MODES)[number];

/** Who let the command run: `decide()` on its own (auto) or a human. Unknown counts as auto. */
export type Approval = 'auto' | 'human';

export type SandboxChoice =
  { kind: 'sandboxed'; backend: SandboxBackend } | { kind: 'unsandboxed' } | { kind: 'refused'; message: string };

export function chooseSandbox(mode: SandboxMode, availability: Availability, approval: Approval): SandboxChoice {
  if (mode === 'off') return { kind: 'unsandboxed' };
  const wanted = approval === 'auto' || mode === 'all';
  if (!wanted) return { kind: 'unsandboxed' }; // human-approved: runs as the human approved it
  if (availability.available) return { kind: 'sandboxed', backend: availability.backend };
  if (mode === 'auto') return { kind: 'unsandboxed' }; // announced once at start-up: the host is unprotected
  const which = approval === 'auto' ? 'auto-approved commands' : 'every command (--sandbox all)';
  return {
    kind: 'refused',
    message: `this runner must sandbox ${which} (--sandbox ${mode}) but no sandbox is available: ${availability.why}. Install bubblewrap (apt-get install bubblewrap) or restart the runner with --sandbox auto`,
  };
}

/** The sandbox state a runner reports in its join payload and prints at start-up. */
export interface SandboxState {
  mode: SandboxMode;
  available: boolean;
  backend: SandboxBackend | null;
  network: boolean;
  /** --sandbox-git: whether the root's git directory is read-only inside the sandbox. */
  git: SandboxGit;
  /** True when auto-approved commands run sandboxed (or are refused rather than run unprotected). */
  enforced: boolean;
  /** Why no sandbox is available, when none is. */
  reason: string | null;
}

export function sandboxState(
  mode: SandboxMode,
  availability: Availability,
  network: boolean,
  git: SandboxGit = 'read-only',
): SandboxState {
  return {
    mode,
    available: availability.available,
    backend: availability.available ? availability.backend : null,
    network,
    git,
    enforced: mode === 'off' ? false : availability.available || mode !== 'auto',
    reason: availability.available ? null : availability.why,
  };
}

/** The one start-up line; null when there is nothing to warn about. */
export function startupWarning(state: SandboxState): string | null {
  if (state.mode === 'off')
    return 'the host is unprotected: --sandbox off runs auto-approved commands without a sandbox';
  if (!state.available && state.mode === 'auto') {
    return `the host is unprotected: ${state.reason ?? 'no sandbox is available'}, so auto-approved commands run without a sandbox (install bubblewrap, or pass --sandbox required to refuse them instead)`;
  }
  return null;
}
