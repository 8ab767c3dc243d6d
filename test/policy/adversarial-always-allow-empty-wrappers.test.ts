// RN-675 "Always allow" on a wrapper or interpreter given only its own options (found by m4 after
// issue 9 A.6): the fragment was written whole, and since patterns match by token prefix,
// Terminal(env CI=1) then auto-approved `env CI=1 rm -rf src`, Terminal(timeout 60) `timeout 60
// rm -rf src`, Terminal(sh -x) `sh -x -c id`, Terminal(docker run --rm) `docker run --rm
// --privileged alpine sh`. Such a fragment names nothing to run: the click writes nothing.
import { describe, expect, it } from 'vitest';
import { decide, patternsForAction } from '../../src/policy/index.ts';
import { MANUAL, terminalInput } from './adversarial-harness.ts';

const plan = (command: string) => patternsForAction('terminal', { command });

const EMPTY: Array<[clicked: string, broader: string]> = [
  ['env CI=1', 'env CI=1 rm -rf src'],
  ['env -u HOME', 'env -u HOME rm -rf src'],
  ['env -i', 'env -i rm -rf src'],
  ['timeout 60', 'timeout 60 rm -rf src'],
  ['timeout 60s', 'timeout 60s rm -rf src'],
  ['timeout -s KILL 5', 'timeout -s KILL 5 rm -rf src'],
  ['nice -n 5', 'nice -n 5 rm -rf src'],
  ['nice', 'nice rm -rf src'],
  ['nohup', 'nohup rm -rf src'],
  ['time -p', 'time -p rm -rf src'],
  ['stdbuf -oL', 'stdbuf -oL rm -rf src'],
  ['sh -x', 'sh -x -c "rm -rf src"'],
  ['bash -e', 'bash -e -c "rm -rf src"'],
  ['python3 -q', 'python3 -q -c \'import shutil; shutil.rmtree("src")\''],
  ['node --inspect', 'node --inspect -e \'require("fs").rmSync("src",{recursive:true})\''],
  ['erl -noshell', 'erl -noshell -eval \'os:cmd("rm -rf src")\''],
  ['docker run --rm', 'docker run --rm --privileged alpine sh'],
  ['npm exec --yes', 'npm exec --yes cowsay'],
  ['sg docker', "sg docker 'rm -rf src'"],
  ['watch -n 1', 'watch -n 1 rm -rf src'],
];

describe('RN-675 issue 9 A.6: a wrapper or interpreter with only its options writes nothing', () => {
  it.each(EMPTY)('RN-675 %s writes nothing (its pattern would allow %s)', (clicked, broader) => {
    const answer = plan(clicked);
    expect(answer.kind).toBe('refused');
    // What the refusal prevents: the would-be pattern does allow the broader command.
    const allowed = decide(
      terminalInput(
        { ...MANUAL, permissions: { allow: [`Terminal(${clicked})`], deny: [], ask: [] } },
        { command: broader },
      ),
    );
    expect(allowed.policy, broader).toBe('auto_approve');
  });

  it.each([
    'env CI=1 make',
    'timeout 60 make test',
    'nice -n 5 make build',
    'sh ./build.sh',
    'bash -e scripts/test.sh',
    'python3 -q manage.py check',
    'node --inspect ./server.js',
    'docker run --rm alpine true',
    'cargo run --release',
    'xargs -0 echo',
  ])('RN-675 %s names what it runs: written whole', (clicked) => {
    expect(plan(clicked)).toEqual({
      kind: 'patterns',
      patterns: [`Terminal(${clicked})`],
      keptWhole: [`Terminal(${clicked})`],
    });
  });
});
