// "Always allow" units (RN-642, RN-675, RN-689) and the pre-seeded dev patterns.
import { describe, expect, it } from 'vitest';
import { DEV_TERMINAL_ALLOW_PATTERNS, patternsForAction, TIPOS_SEM_SEMPRE_PERMITIR } from '../../src/policy/index.ts';
import { allowing, term } from './unit-fixtures.ts';

const plan = (command: string) => patternsForAction('terminal', { command });

describe('RN-675 one pattern per fragment: verb + subcommand', () => {
  it.each([
    ['npm test', ['Terminal(npm test)']],
    ['git status', ['Terminal(git status)']],
    ['mix test', ['Terminal(mix test)']],
    ['cat src/x.ts', ['Terminal(cat)']],
    ['cd ../lib', ['Terminal(cd)']],
    ['ls -la src', ['Terminal(ls -la src)']],
    ['pwd', ['Terminal(pwd)']],
    ['git remote -v', ['Terminal(git remote -v)']],
    ['gh pr list', ['Terminal(gh pr list)']],
    ['cd src/app && npm test', ['Terminal(cd)', 'Terminal(npm test)']],
    ['npm test && npm test', ['Terminal(npm test)']],
    ['git', []],
  ])('RN-675 %s -> %j', (command, patterns) => {
    expect(plan(command)).toEqual({ kind: 'patterns', patterns });
  });
  // Issue 9 A.6 (a documented deviation from RN-675): npx is a runner, its unit would allow any
  // package; the whole fragment is written and the plan says so (was Terminal(npx vitest)).
  it('RN-675 npx vitest run -> the whole fragment, kept whole', () => {
    expect(plan('npx vitest run')).toEqual({
      kind: 'patterns',
      patterns: ['Terminal(npx vitest run)'],
      keptWhole: ['Terminal(npx vitest run)'],
    });
  });
  it('RN-675 after the click, the next cd + npm test with other arguments runs without asking', () => {
    const first = plan('cd src/app && npm test');
    if (first.kind !== 'patterns') throw new Error('expected patterns');
    expect(term('cd lib/core && npm test -- --coverage', allowing(...first.patterns)).policy).toBe('auto_approve');
  });
  it('RN-675 a unit never becomes a prefix of an RN-418 ceiling', () => {
    const p = plan('git remote -v');
    if (p.kind !== 'patterns') throw new Error('expected patterns');
    expect(term('git remote add evil x', allowing(...p.patterns)).policy).toBe('require_approval');
  });
});

describe('RN-418 / RN-642 refusals: nothing is written', () => {
  it.each(['git push origin main', 'npm test && git push', 'kubectl -n x apply -f y', "sh -c 'git push'"])(
    'RN-418 external effect "%s"',
    (command) => {
      expect(plan(command)).toMatchObject({ kind: 'refused', reason: 'external_effect' });
    },
  );
  it.each(['sudo ls', 'doas make'])('RN-418 privileged "%s"', (command) => {
    expect(plan(command)).toMatchObject({ kind: 'refused', reason: 'privileged' });
  });
  it.each(['echo $(id)', 'ls `pwd`', 'cat <<EOF', 'ls # x'])('RN-642 unsafe construct "%s"', (command) => {
    expect(plan(command)).toMatchObject({ kind: 'refused', reason: 'unsafe_command' });
  });
});

describe('RN-689 TIPOS_SEM_SEMPRE_PERMITIR', () => {
  it('RN-689 is exactly the seven types of the specification, in the order of the table', () => {
    expect([...TIPOS_SEM_SEMPRE_PERMITIR]).toEqual([
      'git_push',
      'pr_open',
      'git_merge',
      'instruction_patch',
      'parallelize',
      'raise_max_parallel',
      'container_remove',
    ]);
  });
  it.each([...TIPOS_SEM_SEMPRE_PERMITIR])('RN-689 %s is refused with teto_do_sempre_permitir', (type) => {
    expect(patternsForAction(type, {})).toMatchObject({ kind: 'refused', reason: 'teto_do_sempre_permitir' });
  });
  it('RN-642 other types write Label()', () => {
    expect(patternsForAction('git_commit', {})).toEqual({ kind: 'patterns', patterns: ['GitCommit()'] });
    expect(patternsForAction('container_start', {})).toEqual({ kind: 'patterns', patterns: ['ContainerStart()'] });
  });
});

describe('seed: pre-seeded DEV_TERMINAL_ALLOW_PATTERNS', () => {
  it('holds the three families and never a bare branch/remote/worktree/config', () => {
    for (const p of [
      'Terminal(ls)',
      'Terminal(git log)',
      'Terminal(git branch -a)',
      'Terminal(git worktree list)',
      'Terminal(git config --get)',
      'Terminal(pnpm install)',
      'Terminal(cargo test)',
    ]) {
      expect(DEV_TERMINAL_ALLOW_PATTERNS).toContain(p);
    }
    for (const bare of [
      'Terminal(git branch)',
      'Terminal(git remote)',
      'Terminal(git worktree)',
      'Terminal(git config)',
    ])
      expect(DEV_TERMINAL_ALLOW_PATTERNS).not.toContain(bare);
  });
  it('does not loosen: deny beats allow, built-ins apply, prefix matching, compound needs every fragment', () => {
    const seeded = { permissions: { allow: [...DEV_TERMINAL_ALLOW_PATTERNS], deny: ['Terminal(cat)'] } };
    expect(term('cat x', seeded).policy).toBe('deny');
    expect(term('ls && rm -rf /', seeded).policy).toBe('deny');
    expect(term('lsof', seeded).policy).toBe('require_approval');
    expect(term('git branch -D x', seeded).policy).toBe('require_approval');
    expect(term('git worktree add x', seeded).policy).toBe('require_approval');
    expect(term('git config user.name x', seeded).policy).toBe('require_approval');
    expect(term('ls && curl x', seeded).policy).toBe('require_approval');
    expect(term('ls -la && git status && git branch -a', seeded).policy).toBe('auto_approve');
  });
});
