// What `brabo check` prints beside a decision: how the command was read, fragment by fragment
// (mutation testing of explain.ts, issue 9). Exact values for concrete commands.
import { describe, expect, it } from 'vitest';
import { explainFragments, MAX_COMMAND_LENGTH } from '../../src/policy/index.ts';

describe('explainFragments', () => {
  it('names each fragment: text, argv, verb, redirections, readings behind wrappers, effect', () => {
    expect(explainFragments('sudo git push > out.txt && ls')).toEqual({
      findings: [],
      fragments: [
        {
          text: 'sudo git push > out.txt',
          argv: ['sudo', 'git', 'push'],
          verb: 'sudo',
          redirects: [{ op: '>', target: 'out.txt' }],
          views: [
            ['sudo', 'git', 'push'],
            ['git', 'push'],
          ],
          nested: [],
          effect: { kind: 'privileged', what: 'sudo' },
        },
        { text: 'ls', argv: ['ls'], verb: 'ls', redirects: [], views: [['ls']], nested: [], effect: null },
      ],
    });
  });

  it('the effect is the first one found in any reading, not only the argv itself', () => {
    const [fragment] = explainFragments('env git push origin').fragments;
    expect(fragment?.views).toEqual([
      ['env', 'git', 'push', 'origin'],
      ['git', 'push', 'origin'],
    ]);
    expect(fragment?.effect).toEqual({ kind: 'external', what: 'git push' });
  });

  it('commands inside sh -c are listed as the fragments of that string', () => {
    expect(explainFragments("sh -c 'ls; rm x'").fragments).toEqual([
      {
        text: "sh -c 'ls; rm x'",
        argv: ['sh', '-c', 'ls; rm x'],
        verb: 'sh',
        redirects: [],
        views: [['sh', '-c', 'ls; rm x']],
        nested: [['ls', 'rm x']],
        effect: null,
      },
    ]);
  });

  it('an assignment before the verb is not the verb', () => {
    const [fragment] = explainFragments('FOO=1 rm -f x').fragments;
    expect(fragment?.verb).toBe('rm');
    expect(fragment?.argv).toEqual(['FOO=1', 'rm', '-f', 'x']);
  });

  it('a fragment of assignments only has no verb', () => {
    expect(explainFragments('FOO=1').fragments[0]?.verb).toBeNull();
  });

  it('unsafe constructs are listed as findings', () => {
    expect(explainFragments('echo $(id)').findings).toEqual([
      { kind: 'command_substitution', what: 'command substitution $(…)' },
    ]);
  });

  it('the readings are copies: changing them does not change a later explanation', () => {
    const first = explainFragments('sudo ls');
    first.fragments[0]?.views[1]?.push('-la');
    expect(explainFragments('sudo ls').fragments[0]?.views).toEqual([['sudo', 'ls'], ['ls']]);
  });

  it(`reads a command of exactly ${MAX_COMMAND_LENGTH} characters, and nothing of a longer one`, () => {
    const at = `ls ${'a'.repeat(MAX_COMMAND_LENGTH - 3)}`;
    expect(at).toHaveLength(MAX_COMMAND_LENGTH);
    expect(explainFragments(at).fragments.map((f) => f.verb)).toEqual(['ls']);
    expect(explainFragments(`${at}a`)).toEqual({ findings: [], fragments: [] });
  });

  it('a command that is not a string explains as nothing', () => {
    expect(explainFragments(undefined as unknown as string)).toEqual({ findings: [], fragments: [] });
    expect(explainFragments(42 as unknown as string)).toEqual({ findings: [], fragments: [] });
  });
});
