// The protected paths of a project, in one place: the policy asks before anything writes them,
// and the runner sandbox (src/runner, through src/policy/index.ts) and the broker mount them
// read-only. A command that rewrites permissions.json wipes its own deny list; one that writes
// .git/config or .git/hooks makes the next auto-approved git command run arbitrary code.

/** Relative to the project root; `.git/hooks` is the folder and everything in it. */
export const PROTECTED_PATHS: readonly string[] = Object.freeze(['permissions.json', '.git/config', '.git/hooks']);

/**
 * The path components that make a path protected (compared case-folded): a glob component that
 * could match one of them is treated as that name (issue 9 A.1).
 */
export const PROTECTED_NAMES: readonly string[] = Object.freeze(['.git', 'hooks', 'config', 'permissions.json']);
