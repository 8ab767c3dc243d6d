// The tokenizer wrapper and decide()'s totality: unsafe constructs are named, nothing throws,
// large inputs stay linear.
import { describe, expect, it } from 'vitest';
import { decide, tokenize, tokenizerSelfTest } from '../../src/policy/index.ts';
import { allowing, AUTO_MODE, ROOT, term } from './unit-fixtures.ts';

describe('tokenizer', () => {
  it('the shell-quote self-test passes on this installation', () => {
    expect(tokenizerSelfTest()).toEqual({ ok: true });
  });
  it('never expands variables and splits on every separator and newline', () => {
    expect(tokenize('echo $HOME ${X}').fragments[0]?.argv).toEqual(['echo', '$HOME', '${X}']);
    expect(tokenize('a && b || c ; d | e |& f & g\nh').fragments.map((f) => f.argv[0])).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
      'g',
      'h',
    ]);
  });
  it.each([
    ['echo $(id)', 'command substitution $(…)'],
    ['echo `id`', 'command substitution `…`'],
    ['diff <(a) b', 'process substitution'],
    ['(cd x; ls)', 'subshell'],
    ['{ ls; }', 'brace group'],
    ['cat <<EOF', 'here-document'],
    ['cat <<< x', 'here-document'],
    ['ls -la \\', 'line continuation'],
    ['ls # rm', 'comment'],
    ["echo 'x", 'unbalanced quotes'],
    ['ls\u0007', 'control character'],
    ['l\u0455 x', 'non-ASCII'],
    ['ls\u00a0-la', 'Unicode space'],
    ["echo $'\\x41'", 'ANSI-C'],
  ])('%j is unsafe and the reason names it (%s), even in auto mode', (command, what) => {
    const d = term(command, {
      ...allowing(
        'Terminal(ls)',
        'Terminal(echo)',
        'Terminal(cat)',
        'Terminal(diff)',
        'Terminal(cd)',
        'Terminal(l\u0455)',
      ),
      autonomy: AUTO_MODE,
    });
    expect(d.policy).toBe('require_approval');
    expect(d.reasonCode).toBe('unsafe_shell_construct');
    expect(d.reason).toContain(what);
  });
  it('globs are literal tokens, not unsafe', () => {
    expect(term('ls *.ts', allowing('Terminal(ls)')).policy).toBe('auto_approve');
  });
  it('deny is found inside substitutions and sh -c strings (bounded depth)', () => {
    expect(term('echo "$(rm -rf /)"').reasonCode).toBe('builtin_deny');
    expect(term('echo `rm -rf /`').reasonCode).toBe('builtin_deny');
    expect(term(`sh -c "bash -c 'rm -rf /'"`).reasonCode).toBe('builtin_deny');
    const deep = `sh -c "sh -c 'sh -c \\"sh -c ls\\"'"`;
    expect(term(deep, { autonomy: AUTO_MODE }).policy).toBe('require_approval');
  });
});

describe('decide() is total and linear', () => {
  it('never throws on garbage input and never auto-approves it', () => {
    const garbage: unknown[] = [
      null,
      undefined,
      1,
      'x',
      [],
      {},
      { actionType: 'terminal' },
      { actionType: 'nope', role: 'owner' },
      { actionType: 'terminal', role: 'owner', payload: { command: 5 } },
      { actionType: 'terminal', role: 'owner', payload: null, permissions: null },
      { actionType: 'terminal', role: 'god', payload: { command: 'ls' } },
    ];
    for (const g of garbage) {
      const d = decide(g as never);
      expect(d.policy).not.toBe('auto_approve');
      expect(typeof d.reason).toBe('string');
    }
  });
  it('an empty or blank command is an invalid payload', () => {
    expect(term('   ', { autonomy: AUTO_MODE }).reasonCode).toBe('invalid_payload');
  });
  it('a 15 000-slash path and 5 000 fragments complete', () => {
    expect(term('cat ' + '/'.repeat(15_000) + 'etc', allowing('Terminal(cat)')).reasonCode).toBe('ceiling_path_scope');
    expect(term(`cat ${ROOT}` + '/'.repeat(15_000), allowing('Terminal(cat)')).policy).toBe('auto_approve');
    // Issue 9 A.7: over the cap nothing is parsed.
    expect(term('cat ' + '/'.repeat(100_000) + 'etc', allowing('Terminal(cat)')).reasonCode).toBe('command_too_long');
    expect(term('ls;'.repeat(5_000), allowing('Terminal(ls)')).policy).toBe('auto_approve');
    expect(term('ls && '.repeat(2_500) + 'rm -rf /').policy).toBe('deny');
    expect(term('sudo '.repeat(3_000) + 'rm -rf /').policy).toBe('deny');
    expect(term('$a'.repeat(50_000)).policy).toBe('require_approval');
  });
});
