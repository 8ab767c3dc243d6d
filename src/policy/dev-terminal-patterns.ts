// What activating execution pre-seeds into `allow` (spec "What is pre-seeded"). Family 2 anchors
// branch/remote/worktree/config on a read-only flag: a bare `Terminal(git branch)` would also
// match `git branch -D x` (token prefix).

const READ_WORKTREE = [
  'ls',
  'pwd',
  'find',
  'cat',
  'head',
  'tail',
  'grep',
  'wc',
  'echo',
  'git status',
  'git diff',
  'git log',
];

const READ_HISTORY = [
  'git branch -a',
  'git branch -r',
  'git branch -v',
  'git branch --list',
  'git branch --show-current',
  'git remote -v',
  'git remote show',
  'git worktree list',
  'git show',
  'git for-each-ref',
  'git ls-tree',
  'git rev-parse',
  'git config --get',
];

const BUILD_AND_TEST = [
  'pnpm install',
  'pnpm test',
  'npm test',
  'npm run',
  'npx vitest',
  'mix test',
  'pytest',
  'go test',
  'cargo test',
  'yarn test',
  'make test',
];

export const DEV_TERMINAL_ALLOW_PATTERNS: readonly string[] = Object.freeze(
  [...READ_WORKTREE, ...READ_HISTORY, ...BUILD_AND_TEST].map((command) => `Terminal(${command})`),
);
