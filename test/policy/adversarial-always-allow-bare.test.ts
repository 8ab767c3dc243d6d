// RN-675 "Always allow" and bare runners (issue 9 A.6), attacked while mutation-testing
// always-allow.ts (issue 9 "Tests"). A click on a bare runner writes nothing because its pattern
// would allow every use of it (`Terminal(make)` allows `make deploy`). Three spellings of a bare
// runner slipped past that rule, and the pattern written then auto-approved the broader command:
// - with a redirection: `make 2>&1` wrote Terminal(make); `sh < build.sh` wrote a pattern that
//   also matches `sh < build.sh -c id`;
// - `bun run`, `bun x`, `bun create`: `bun` is a whole verb, so the pair was never looked at;
// - after assignments: `FOO=1` wrote Terminal(FOO=1) (then `FOO=1 rm -rf src`), `FOO=1 git`
//   Terminal(FOO=1 git) (then `FOO=1 git reset --hard`);
// - the verb alone of a runner CLI: `bundle` wrote Terminal(bundle), `make build/app` Terminal(make).
// Every `later` below was auto-approved by what the click wrote before the fix.
import { describe, expect, it } from 'vitest';
import { patternsForAction } from '../../src/policy/index.ts';
import { decideAllowing } from './adversarial-harness.ts';

const written = (command: string): string[] => {
  const plan = patternsForAction('terminal', { command });
  return plan.kind === 'patterns' ? plan.patterns : [];
};
const policyWith = (allow: string[], command: string) => decideAllowing(allow, command).policy;
const refusal = (runner: string) => ({
  kind: 'refused',
  reason: 'unsafe_command',
  message: `"${runner}" alone as a pattern would allow every ${runner} command: approve this instance; "Always allow" writes nothing.`,
});

// [clicked, the bare runner the refusal names, a broader command the old pattern auto-approved]
type Row = [clicked: string, runner: string, later: string];

const REDIRECTED: Row[] = [
  ['make 2>&1', 'make', 'make deploy'],
  ['make > build.log', 'make', 'make install'],
  ['make >> build.log', 'make', 'make clean'],
  ['gmake 2>/dev/null', 'gmake', 'gmake install'],
  ['sh < build.sh', 'sh', 'sh < build.sh -c id'],
  ['bash < ci.sh', 'bash', 'bash < ci.sh -c id'],
  ['python3 < x.py', 'python3', "python3 < x.py -c 'import os'"],
  ['node < tool.js', 'node', 'node < tool.js -e 1'],
  ['npm run 2>&1', 'npm run', 'npm run 2>&1 deploy'],
  ['docker run 2>/dev/null', 'docker run', 'docker run 2>/dev/null --privileged alpine sh'],
  ['cd src && make 2>&1', 'make', 'cd lib && make deploy'],
];

const BUN_PAIRS: Row[] = [
  ['bun run', 'bun run', 'bun run deploy'],
  ['bun x', 'bun x', 'bun x cowsay'],
  ['bun create', 'bun create', 'bun create evil-template'],
  ['./node_modules/.bin/bun x', './node_modules/.bin/bun x', './node_modules/.bin/bun x cowsay'],
  ['bun run 2>&1', 'bun run', 'bun run 2>&1 deploy'],
  ['bun run > scripts.txt', 'bun run', 'bun run > scripts.txt deploy'],
  ['cd app && bun run', 'bun run', 'cd app && bun run deploy'],
  ['npm test && bun x', 'bun x', 'npm test && bun x cowsay'],
  ['CI=1 bun run', 'bun run', 'CI=1 bun run deploy'],
  ['CI=1 bun x', 'bun x', 'CI=1 bun x cowsay'],
];

const ASSIGNED_RUNNERS: Row[] = [
  ['NODE_ENV=test make', 'make', 'NODE_ENV=test make deploy'],
  ['CI=1 npm run', 'npm run', 'CI=1 npm run deploy'],
  ['CI=1 sh', 'sh', 'CI=1 sh -c id'],
  ['RUST_LOG=debug cargo run', 'cargo run', 'RUST_LOG=debug cargo run --bin evil'],
  ['DEBUG=1 npx', 'npx', 'DEBUG=1 npx cowsay'],
  ['LANG=C find', 'find', 'LANG=C find . -fprint out.txt'],
  ['A=1 B=2 make', 'make', 'A=1 B=2 make deploy'],
];

describe('RN-675 issue 9 A.6: a bare runner writes nothing, however it is spelled', () => {
  it.each([...REDIRECTED, ...BUN_PAIRS, ...ASSIGNED_RUNNERS])(
    'RN-675 %s writes nothing (bare %s), so %s still asks',
    (clicked, runner, later) => {
      expect(patternsForAction('terminal', { command: clicked })).toEqual(refusal(runner));
      expect(policyWith(written(clicked), later)).toBe('require_approval');
    },
  );
});

// The verb alone as a unit, for a CLI with a runner subcommand or for make: `bundle` (which runs
// `bundle install`) wrote Terminal(bundle), then `bundle exec ruby -e …`; `make build/app` (the
// target is not a word) wrote Terminal(make), then `make deploy`. Now the exact fragment, or
// nothing for the bare CLI (like `git` alone).
describe('RN-675 issue 9 A.6: a runner CLI is never written as its verb alone', () => {
  it.each([
    ['make build/app', ['Terminal(make build/app)'], 'make deploy'],
    ['make out/main.o', ['Terminal(make out/main.o)'], 'make install'],
    ['make 2', ['Terminal(make 2)'], 'make clean'],
    ['gmake dist/app.tar', ['Terminal(gmake dist/app.tar)'], 'gmake install'],
    ['cd src && make build/app', ['Terminal(cd src)', 'Terminal(make build/app)'], 'cd src && make deploy'],
    ['bundle', [], 'bundle exec ruby -e 1'],
    ['uv', [], 'uv run evil.py'],
    ['go', [], 'go run ./evil'],
    ['poetry', [], 'poetry run evil'],
    ['pipenv', [], 'pipenv run evil'],
    ['conda', [], 'conda run python -c 1'],
    ['nix', [], 'nix run nixpkgs#hello'],
    ['mise', [], 'mise x -- sh -c id'],
    ['direnv', [], 'direnv exec . sh -c id'],
    ['perf', [], 'perf stat sh -c id'],
    ['CI=1 bundle', [], 'CI=1 bundle exec ruby -e 1'],
  ])('RN-675 %s writes %j, so %s still asks', (clicked, patterns, later) => {
    expect(written(clicked)).toEqual(patterns);
    expect(policyWith(written(clicked), later)).toBe('require_approval');
  });
  it.each([
    ['bundle install', 'Terminal(bundle install)'],
    ['uv sync', 'Terminal(uv sync)'],
    ['go vet ./...', 'Terminal(go vet)'],
    ['poetry install', 'Terminal(poetry install)'],
  ])('RN-675 a subcommand word keeps its unit: %s -> %s', (clicked, pattern) => {
    expect(written(clicked)).toEqual([pattern]);
  });
});

// `FOO=1 cmd` is judged as `cmd`: where `cmd` alone writes nothing (an assignment alone, a bare
// CLI, a bare unit with destructive forms), so does the assigned form.
describe('RN-675 after assignments, what the command alone writes nothing for writes nothing', () => {
  it.each([
    ['FOO=1', 'FOO=1 rm -rf src'],
    ['A=1 B=2', 'A=1 B=2 rm -rf src'],
    ['FOO=1 git', 'FOO=1 git reset --hard'],
    ['FOO=1 git', 'FOO=1 git clean -fdx'],
    ['CI=1 git branch', 'CI=1 git branch -D main'],
    ['CI=1 git stash', 'CI=1 git stash clear'],
    ['CI=1 docker', 'CI=1 docker rm -f web'],
    ['CI=1 git worktree', 'CI=1 git worktree remove ../wt'],
    ['CI=1 docker image', 'CI=1 docker image prune -af'],
    ['CI=1 npm cache', 'CI=1 npm cache clean --force'],
  ])('RN-675 %s writes nothing, so %s still asks', (clicked, later) => {
    expect(patternsForAction('terminal', { command: clicked })).toEqual({ kind: 'patterns', patterns: [] });
    expect(policyWith(written(clicked), later)).toBe('require_approval');
  });
});

describe('RN-675 the same commands with something to run keep their pattern', () => {
  it.each([
    ['make build 2>&1', ['Terminal(make build)']],
    ['CI=1 npm test', ['Terminal(CI=1 npm test)']],
    ['NODE_ENV=test make build', ['Terminal(NODE_ENV=test make build)']],
    ['CI=1 git status', ['Terminal(CI=1 git status)']],
    ['bun run dev', ['Terminal(bun run dev)']],
    ['CI=1 sh ./build.sh', ['Terminal(CI=1 sh ./build.sh)']],
    ['cd src && make build', ['Terminal(cd src)', 'Terminal(make build)']],
  ])('RN-675 %s -> %j, and the click still lets the same command through', (clicked, patterns) => {
    expect(written(clicked)).toEqual(patterns);
    expect(policyWith(patterns, clicked)).toBe('auto_approve');
  });
  it('RN-675 a whole verb after assignments is listed as kept whole', () => {
    expect(patternsForAction('terminal', { command: 'CI=1 sh ./build.sh' })).toEqual({
      kind: 'patterns',
      patterns: ['Terminal(CI=1 sh ./build.sh)'],
      keptWhole: ['Terminal(CI=1 sh ./build.sh)'],
    });
  });
});
