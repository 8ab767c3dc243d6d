// Issue 9 A.5: false positives that cost approvals every day. A `$` inside single quotes, or
// escaped, is not an expansion; a backslash-newline joins two lines into one command.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decide, tokenize } from '../../src/policy/index.ts';
import type { Permissions } from '../../src/policy/index.ts';
import { MANUAL, NEVER_AUTO, ask, auto, c, runCases, terminalInput } from './adversarial-harness.ts';

const TOOLS: Permissions = {
  allow: [
    'Terminal(grep)',
    'Terminal(awk)',
    'Terminal(sed)',
    'Terminal(echo)',
    'Terminal(git add)',
    'Terminal(ls)',
    'Terminal(printf)',
    'Terminal(jq)',
  ],
  deny: ['Terminal(curl:*)'],
  ask: [],
};
const SETUP = { ...MANUAL, label: 'text tools allowed', permissions: TOOLS };
const ALLOWED = auto('permissions_allow');

runCases('issue 9 A.5 a quoted or escaped $ is literal', SETUP, [
  c("grep -n 'TODO$' src/a.ts", ALLOWED),
  c("awk '{print $1}' f", ALLOWED),
  c("sed -i 's/$/x/' f", ALLOWED),
  c("echo '$(pwd)'", ALLOWED),
  c("echo '$HOME/etc'", ALLOWED),
  c("echo '~/x' '~'", ALLOWED, { note: 'a quoted ~ is literal' }),
  c('echo ~/x', ask('ceiling_path_scope')),
  c('echo \\$HOME', ALLOWED),
  c("grep -E 'a$|^b$' src/x.ts", ALLOWED),
  c('echo "cost: \\$5"', ALLOWED),
  c("echo 'a $(b) `c` ${d}'", ALLOWED),
  c("awk 'BEGIN{x=$0} END{print NR}' f", ALLOWED),
  c('echo $', ALLOWED, { note: 'a lone $ is literal' }),
  c("jq '.a | .[$x]' f.json", ALLOWED),
  c("printf '%s$\\n' x", ALLOWED),
  c("sed -n '$p' f", ALLOWED),
]);

runCases('issue 9 A.5 an expansion still counts', SETUP, [
  c('grep x $FILE', ask('ceiling_path_scope')),
  c('echo "$HOME/x" > out', ask('ceiling_path_scope')),
  c('cat ${X}', ask()),
  c('echo "$(pwd)"', ask('unsafe_shell_construct')),
  c('awk "{print $1}" f', ask('ceiling_path_scope'), { note: 'in double quotes $1 expands' }),
  c('sed -i "s/$X/y/" f', ask('ceiling_path_scope')),
]);

runCases('issue 9 A.5 backslash-newline joins two lines into one command', SETUP, [
  c('git add a \\\n b', ALLOWED),
  c('ls \\\n -la \\\n src', ALLOWED),
  c('grep -rn \\\n TODO \\\n src', ALLOWED),
  c('echo "a\\\nb"', ALLOWED),
  c('r\\\nm -rf /', NEVER_AUTO),
  c('cur\\\nl x', { policy: 'deny', reasonCode: 'permissions_deny' }),
  c('ls \\\n; curl x', { policy: 'deny', reasonCode: 'permissions_deny' }),
  c('git add a \\', ask('unsafe_shell_construct'), { note: 'a dangling backslash at the end' }),
  c("echo 'a\\\nb'", ALLOWED, { note: 'inside single quotes the backslash stays' }),
  c('ls \\\n\\\n src', ALLOWED),
]);

describe('issue 9 A.5 properties', () => {
  // No `/` nor `.`: a quoted `..` or `/etc` is still a path (outside the scope), not a false positive.
  const LITERAL = [...'abcXYZ019 -_,:;|&<>(){}[]*?!#$`"~=+%^@\\'];
  it('whatever stands in single quotes, a grep of it is judged like a grep of a plain word', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...LITERAL), { minLength: 1, maxLength: 20 }), (chars) => {
        const text = chars.join('');
        const d = decide(terminalInput(SETUP, { command: `grep -n '${text}' src/a.ts` }));
        expect(d.policy, text).toBe('auto_approve');
      }),
      { numRuns: 500 },
    );
  });
  it('a backslash-newline between words changes neither the words nor the decision', () => {
    const WORDS = ['git', 'add', 'ls', '-la', 'src', 'a.ts', 'grep', '-n', 'x', 'echo', 'hi'];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        (words, breaks) => {
          const plain = words.join(' ');
          const broken = words.map((w, i) => (i > 0 && breaks[i] === true ? `\\\n${w}` : w)).join(' ');
          expect(tokenize(broken).fragments.map((f) => f.argv)).toEqual(tokenize(plain).fragments.map((f) => f.argv));
          expect(decide(terminalInput(SETUP, { command: broken })).policy).toBe(
            decide(terminalInput(SETUP, { command: plain })).policy,
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
