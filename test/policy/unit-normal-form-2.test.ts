// Mutation testing of normal-form.ts (issue 9 "Tests"; issue 9 A.4): the long options a deny or
// ask pattern's short option also matches, per CLI, checked against the tools' own --help where
// the tool is on the machine (coreutils, git, docker, kubectl), and the edges of reading a pattern
// (a final `:*`, `--`, kubectl's `kind/name`).
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { matchNormalForm, normalFormOf } from '../../src/policy/normal-form.ts';

const match = (pattern: string, command: string) => {
  const form = normalFormOf(pattern.split(' '));
  if (form === null) throw new Error(`${pattern}: no normal form`);
  return matchNormalForm(form, command.split(' '));
};

/** `cmd --help` (or -h) as the machine's tool prints it; null when the tool is not installed. */
function helpOf(argv: readonly string[]): string | null {
  try {
    return execFileSync(argv[0]!, argv.slice(1), { encoding: 'utf8', timeout: 10_000, stdio: 'pipe' });
  } catch (error) {
    // git -h exits 129 and prints the usage: the text is still the tool's own.
    const out = (error as { stdout?: string }).stdout;
    return typeof out === 'string' && out !== '' ? out : null;
  }
}

// [the help to read, its line naming both spellings, pattern with the short option, command with the long one]
const SYNONYMS: Array<[help: string, line: RegExp, pattern: string, command: string]> = [
  ['rm --help', /^\s+-r, -R, --recursive\s/m, 'rm -r', 'rm --recursive build'],
  ['rm --help', /^\s+-r, -R, --recursive\s/m, 'rm -r', 'rm -R build'],
  ['rm --help', /^\s+-f, --force\s/m, 'rm -f', 'rm --force x'],
  ['rm --help', /^\s+-d, --dir\s/m, 'rm -d', 'rm --dir x'],
  ['cp --help', /^\s+-R, -r, --recursive\s/m, 'cp -r', 'cp --recursive a b'],
  ['cp --help', /^\s+-R, -r, --recursive\s/m, 'cp -r', 'cp -R a b'],
  ['cp --help', /^\s+-f, --force\s/m, 'cp -f', 'cp --force a b'],
  ['chmod --help', /^\s+-R, --recursive\s/m, 'chmod -R', 'chmod --recursive 700 .'],
  ['chmod --help', /^\s+-f, --silent, --quiet\s/m, 'chmod -f', 'chmod --silent 700 x'],
  ['chmod --help', /^\s+-f, --silent, --quiet\s/m, 'chmod -f', 'chmod --quiet 700 x'],
  ['chown --help', /^\s+-R, --recursive\s/m, 'chown -R', 'chown --recursive app .'],
  ['chown --help', /^\s+-f, --silent, --quiet\s/m, 'chown -f', 'chown --quiet app x'],
  ['chgrp --help', /^\s+-R, --recursive\s/m, 'chgrp -R', 'chgrp --recursive staff .'],
  ['chgrp --help', /^\s+-f, --silent, --quiet\s/m, 'chgrp -f', 'chgrp --silent staff x'],
  ['git branch -h', /^\s+-d, --delete\s/m, 'git branch -d', 'git branch --delete topic'],
  ['git branch -h', /^\s+-m, --move\s/m, 'git branch -m', 'git branch --move a b'],
  ['git branch -h', /^\s+-f, --force\s/m, 'git branch -f', 'git branch --force a b'],
  ['git branch -h', /^\s+-a, --all\s/m, 'git branch -a', 'git branch --all'],
  ['docker rm --help', /^\s+-f, --force\s/m, 'docker rm -f', 'docker rm --force web'],
  ['docker rm --help', /^\s+-v, --volumes\s/m, 'docker rm -v', 'docker rm --volumes web'],
  ['docker ps --help', /^\s+-a, --all\s/m, 'docker ps -a', 'docker ps --all'],
  ['kubectl apply --help', /^\s+-f, --filename=/m, 'kubectl apply -f', 'kubectl apply --filename x.yaml'],
  ['kubectl apply --help', /^\s+-R, --recursive=/m, 'kubectl apply -R', 'kubectl apply --recursive -f d'],
  ['kubectl get --help', /^\s+-A, --all-namespaces=/m, 'kubectl get pods -A', 'kubectl get pods --all-namespaces'],
  ['kubectl get --help', /^\s+-l, --selector=/m, 'kubectl get pods -l', 'kubectl get pods --selector app=x'],
];

describe('issue 9 A.4 a short option in a pattern matches its long spelling, per CLI', () => {
  it.each(SYNONYMS)('%s lists it (%s): pattern %s matches %s', (help, line, pattern, command) => {
    const text = helpOf(help.split(' '));
    if (text !== null) expect(text).toMatch(line);
    expect(match(pattern, command)).toBe('certain');
  });
  it.each([
    // The long spelling in the pattern reads the same.
    ['rm --recursive', 'rm -r x', 'certain'],
    ['rm --force', 'rm -f x', 'certain'],
    ['chmod --recursive', 'chmod -R 700 .', 'certain'],
    ['git branch --delete', 'git branch -d x', 'certain'],
    // git's -D is --delete --force, -M is --move --force (`git branch -h`: "-D  delete branch (even if not merged)").
    ['git branch -D', 'git branch --delete --force x', 'certain'],
    ['git branch -D', 'git branch -d -f x', 'certain'],
    ['git branch -D', 'git branch -d x', null],
    ['git branch -M', 'git branch --move --force a b', 'certain'],
    ['git branch -M', 'git branch -m a b', null],
    ['git stash -a', 'git stash --all', 'certain'],
    ['podman rm -f', 'podman rm --force web', 'certain'],
    ['podman rm -v', 'podman rm --volumes web', 'certain'],
    ['podman ps -a', 'podman ps --all', 'certain'],
    ['kubectl delete pods -n', 'kubectl delete pods --namespace prod', 'certain'],
    ['npm install -g', 'npm install --global x', 'certain'],
    ['npm cache clean -f', 'npm cache clean --force', 'certain'],
    // Elsewhere --force is -f and --recursive is -r.
    ['pnpm store prune -f', 'pnpm store prune --force', 'certain'],
    ['scp -r', 'scp --recursive a b', 'certain'],
  ])('pattern %s vs %s -> %s', (pattern, command, expected) => {
    expect(match(pattern, command)).toBe(expected);
  });
  it.each([
    // Per CLI: chmod's --recursive is -R, never -r; cp has no --dir; rm's -R is -r.
    ['chmod -r', 'chmod --recursive 700 .', null],
    ['cp -d', 'cp --dir a', null],
    ['rm -R', 'rm --recursive x', 'certain'],
    ['git clean -r', 'git clean --recursive', null],
    ['rm -x', 'rm --dir x', null],
    ['kubectl get pods -A', 'kubectl get pods -a', null],
  ])("only that CLI's spellings: pattern %s vs %s -> %s", (pattern, command, expected) => {
    expect(match(pattern, command)).toBe(expected);
  });
});

describe('issue 9 A.4 normalFormOf: how a pattern is read', () => {
  it.each([
    // After `--` every word is positional, and a final `name:*` there is a prefix.
    [['git', '--', 'x:*'], { verb: 'git', words: [['x']], lastIsPrefix: true, options: [] }],
    [['git', 'reset', '--', '--hard'], { verb: 'git', words: [['reset', '--hard']], lastIsPrefix: false, options: [] }],
    // A final option with `:*` is the option; `:*` alone is a literal word.
    [['git', 'log', '-n:*'], { verb: 'git', words: [['log']], lastIsPrefix: false, options: ['-n'] }],
    [['git', 'reset', ':*'], { verb: 'git', words: [['reset', ':*']], lastIsPrefix: false, options: [] }],
    [['git', 'reset', '--hard=HEAD'], { verb: 'git', words: [['reset']], lastIsPrefix: false, options: ['--hard'] }],
    [['rm', '-Rfv'], { verb: 'rm', words: [[]], lastIsPrefix: false, options: ['-r', '-f', '-v'] }],
    // kubectl's `kind/name` is two words, canonical; a slash at either end is one word.
    [
      ['kubectl', 'delete', 'pods/api'],
      { verb: 'kubectl', words: [['delete', 'pod', 'api']], lastIsPrefix: false, options: [] },
    ],
    [['kubectl', 'delete', 'pod/'], { verb: 'kubectl', words: [['delete', 'pod/']], lastIsPrefix: false, options: [] }],
    [['kubectl', 'delete', '/api'], { verb: 'kubectl', words: [['delete', '/api']], lastIsPrefix: false, options: [] }],
    [['docker', 'rm', 'a/b'], { verb: 'docker', words: [['rm', 'a/b']], lastIsPrefix: false, options: [] }],
  ] as const)('%j -> %j', (argv, form) => {
    expect(normalFormOf(argv)).toEqual(form);
  });
});

describe('issue 9 A.4 matchNormalForm: what a CLI reads as the pattern', () => {
  it.each([
    ['kubectl delete pod api', 'kubectl delete pod/api', 'certain'],
    ['kubectl delete pod/api', 'kubectl delete pods/api -n x', 'certain'],
    ['kubectl delete pod api', 'kubectl -n x delete pod api', 'certain'],
    ['kubectl delete pod api', 'kubectl delete pod/api/x', null],
    ['git reset HEAD x', 'git reset HEAD -- x', 'certain'],
    ['git reset HEAD', 'git reset -- HEAD', 'certain'],
    ['git reset a b', 'git reset -- a', null],
    ['rm -r', 'rm -- -r', null],
    ['git reset --hard', 'git reset --', null],
    ['git reset --hard', 'git -C dir reset --hard', 'certain'],
    ['git reset --hard', 'git -C reset --hard', null],
    ['git reset x --hard', 'git reset -q x', null],
    ['rm -rf', 'rm --rec --forc x', 'certain'],
    ['rm -r', 'rm -v x', null],
    ['npm run test:*', 'npm run test:unit', 'certain'],
    ['npm run test:*', 'npm run testing', null],
    ['npm run test', 'npm run test:unit', null],
    ['git stash drop', 'git stash drop:x', null],
    ['docker container rm x', 'docker rm x', 'certain'],
    ['rm -f', 'cp -f x y', null],
    // An ambiguous npm abbreviation: `pr` may be prefix (uncertain), then publish matches certainly.
    ['npm p', 'npm --zzz pr publish', 'certain'],
  ])('pattern %s vs %s -> %s', (pattern, command, expected) => {
    expect(match(pattern, command)).toBe(expected);
  });
});
