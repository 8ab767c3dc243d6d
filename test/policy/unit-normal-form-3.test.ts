// matchNormalForm(), rows from the Stryker survivors of normal-form.ts (86.65% at e962915): the
// words after `--`, a final `:*` there and elsewhere, a word an option may take, kubectl's
// `kind/name` split, `-` as a positional, long names before `=` and their prefixes.
import { describe, expect, it } from 'vitest';
import { matchNormalForm, normalFormOf } from '../../src/policy/normal-form.ts';

const form = (pattern: string) => {
  const found = normalFormOf(pattern.split(' '));
  if (found === null) throw new Error(`${pattern}: no normal form`);
  return found;
};
const match = (pattern: string, command: string) => matchNormalForm(form(pattern), command.split(' '));

type Row = readonly [pattern: string, command: string, expected: 'certain' | 'uncertain' | null];
const matchRows = (rows: readonly Row[]): void => {
  it.each(rows)('%s vs %s -> %s', (pattern, command, expected) => {
    expect(match(pattern, command)).toBe(expected);
  });
};

describe('issue 9 A.4: after `--` every word is positional, in order', () => {
  matchRows([
    ['git checkout -- .', 'git checkout -- .', 'certain'],
    ['git checkout -- .', 'git checkout -- src', null],
    ['git checkout -- .', 'git checkout --', null],
    ['git checkout -- a b', 'git checkout -- a b', 'certain'],
    ['git checkout -- a b', 'git checkout -- a c', null],
    ['git checkout -- a b', 'git checkout -- b a', null],
    ['git checkout -- a b', 'git checkout -- a', null],
    ['rm -- -rf', 'rm -- -rf', 'certain'],
    ['rm -- -rf', 'rm -rf', null],
    // A final `:*` after `--`: the word or `word:…`, and only the last word.
    ['git checkout -- src:*', 'git checkout -- src', 'certain'],
    ['git checkout -- src:*', 'git checkout -- src:a', 'certain'],
    ['git checkout -- src:*', 'git checkout -- srcx', null],
    ['git checkout -- src:*', 'git checkout --', null],
    ['git checkout -- a b:*', 'git checkout -- a:x b', null],
    ['git checkout -- a b:*', 'git checkout -- a b:x', 'certain'],
    ['git checkout -- src', 'git checkout -- src:x', null],
  ]);
});

describe('issue 9 A.4: positional words, in order, past the options', () => {
  matchRows([
    // `--repo=x` carries its value: the next word is positional.
    ['git push origin', 'git push --repo=x evil origin', null],
    ['git push origin', 'git push --repo x origin', 'certain'],
    ['git push origin', 'git push evil origin', null],
    ['git push origin main', 'git push origin:x main', null],
    ['git push origin main:*', 'git push origin main:x', 'certain'],
    ['git push origin main:*', 'git push origin:y main', null],
    // kubectl's `kind/name` is two words, both must match.
    ['kubectl delete pod', 'kubectl delete deploy/pod', null],
    ['kubectl delete pod api', 'kubectl delete pod/api', 'certain'],
    ['kubectl delete pod api', 'kubectl delete pod/web', null],
    // A `:*` that is not on the last word is part of the word.
    ['git push:* origin', 'git push origin', null],
  ]);

  it('an empty command and a bare verb match nothing', () => {
    expect(matchNormalForm(form('git push'), [])).toBeNull();
    expect(matchNormalForm(form('git push'), ['git'])).toBeNull();
    expect(matchNormalForm(form('rm -rf'), ['rm'])).toBeNull();
  });
});

describe('issue 9 A.4: options', () => {
  matchRows([
    // `-` alone is a positional word, not an option.
    ['git checkout -', 'git checkout x -', null],
    ['git checkout -', 'git checkout -', 'certain'],
    ['git checkout -', 'git checkout main', null],
    // A positional word's letters are not options.
    ['git branch -a', 'git branch main', null],
    ['rm -f', 'rm fx', null],
    // A long name is the word before `=`; in the pattern too.
    ['rm --force=1', 'rm -f x', 'certain'],
    ['rm --force', 'rm -f x', 'certain'],
    ['rm -f', 'rm --forcex x', null],
    ['rm -f', 'rm --forc=1 x', 'certain'],
    ['rm -f', 'rm --f x', 'certain'],
    // `--` alone abbreviates nothing.
    ['git reset --hard', 'git reset --=x', null],
    ['rm -f', 'rm --=x a', null],
  ]);
});

describe('issue 9 A.4: an ambiguous npm abbreviation in a pattern reads every command it may be', () => {
  matchRows([
    ['npm p', 'npm publish', 'certain'],
    ['npm p', 'npm pack', 'certain'],
    ['npm p', 'npm pu', 'certain'],
    ['npm p', 'npm install', null],
  ]);
});
