// Commands that only read the paths they are given (read-only.ts, issue 9 A.3): isReadOnly
// verb by verb, and the options that make a reader a writer again. decide() rows show what the
// table changes for a user: a reader of permissions.json is approved by its allow rule, any
// other command naming it asks (`git log --output=permissions.json` rewrote the deny list).
import { describe, expect, it } from 'vitest';
import { isReadOnly, readsWithAnyArguments } from '../../src/policy/read-only.ts';
import { decide } from '../../src/policy/index.ts';
import { MANUAL, terminalInput } from './adversarial-harness.ts';

type Row = readonly [command: string, readOnly: boolean];

function table(title: string, rows: readonly Row[]): void {
  describe(title, () => {
    for (const [command, expected] of rows) {
      it(`${JSON.stringify(command)} ${expected ? 'only reads' : 'may write'}`, () => {
        expect(isReadOnly(command === '' ? [] : command.split(' '))).toBe(expected);
      });
    }
  });
}

const READERS = [
  ...['cat', 'head', 'tail', 'wc', 'ls', 'stat', 'file', 'grep', 'egrep', 'fgrep', 'diff', 'cmp', 'echo', 'printf'],
  ...['pwd', 'basename', 'dirname', 'realpath', 'readlink', 'test', '[', 'md5sum', 'sha1sum', 'sha256sum'],
  ...['sha512sum', 'du', 'jq', 'nl', 'od', 'strings'],
];

table('issue 9 A.3: readers, with or without options', [
  ['cat -n permissions.json', true],
  ['LANG=C cat permissions.json', true],
  ['A=1 B=2 grep -r x .git/config', true],
  ['LANG=C', true],
  ['', true],
  ['mytool permissions.json', false],
  ['cp permissions.json x', false],
  ['tee permissions.json', false],
  ['/bin/cat permissions.json', false],
]);

table('issue 9 A.3: sort, tree and find write with these options', [
  ['sort -u permissions.json', true],
  ['sort --numeric-sort permissions.json', true],
  ['sort -o out permissions.json', false],
  ['sort -uo out permissions.json', false],
  ['sort -oout permissions.json', false],
  ['sort --output out permissions.json', false],
  ['sort --output=out permissions.json', false],
  ['sort permissions.json -o out', false],
  ['tree -a .git', true],
  ['tree -o out .git', false],
  ['tree -ao out .git', false],
  ['find . -name permissions.json', true],
  ['find . -delete', false],
  ['find . -exec rm {} ;', false],
  ['find . -execdir rm {} ;', false],
  ['find . -ok rm {} ;', false],
  ['find . -okdir rm {} ;', false],
  ['find . -fprint out', false],
  ['find . -fprint0 out', false],
  ['find . -fprintf out %p', false],
  ['find . -fls out', false],
  // An expansion may be any option, a writing one too; a reader with no writing option keeps reading.
  ['sort $OPTS f', false],
  ['sort -u f${X}', false],
  ['tree $T', false],
  ['find . $E', false],
  ['git log $X', false],
  ['cat $F', true],
  ['grep -r x $D', true],
]);

describe('issue 9 A.5: readsWithAnyArguments: still a reader whatever words xargs appends', () => {
  const rows: readonly (readonly [string, boolean])[] = [
    ['cat', true],
    ['grep -l x', true],
    ['LANG=C wc -l', true],
    ['sort -u', false],
    ['tree', false],
    ['find .', false],
    ['git log', false],
    ['git', false],
    ['mytool', false],
  ];
  for (const [command, expected] of rows) {
    it(`${command} -> ${expected}`, () => {
      expect(readsWithAnyArguments(command.split(' '))).toBe(expected);
    });
  }
});

table('issue 9 A.3: git reads only with a read-only subcommand right after git', [
  ...['status', 'log', 'diff', 'show', 'blame', 'ls-files', 'ls-tree', 'rev-parse', 'grep', 'cat-file']
    .concat(['check-ignore', 'shortlog', 'describe'])
    .map((sub): Row => [`git ${sub} permissions.json`, true]),
  ['git log -p permissions.json', true],
  ['git push', false],
  ['git add permissions.json', false],
  ['git', false],
  ['git -C x log', false],
  ['git --no-pager log', false],
  ['git log --output=permissions.json', false],
  ['git log --output permissions.json', false],
  ['git log -o permissions.json', false],
  ['git log -po permissions.json', false],
  ['git format-patch --output-directory .git/hooks', false],
  ['git log --output-directory=x', false],
  ['git diff --ext-diff', false],
  ['git diff --textconv permissions.json', false],
  ['git log --oneline permissions.json', true],
]);

describe('issue 9 A.3: a reader allowed by its own rule reads permissions.json without asking (decide)', () => {
  for (const verb of READERS) {
    it(`Terminal(${verb}:*): ${verb} permissions.json -> auto_approve`, () => {
      const permissions = { ...MANUAL.permissions, allow: [`Terminal(${verb}:*)`] };
      const decision = decide(terminalInput(MANUAL, { command: `${verb} permissions.json`, permissions }));
      expect(decision.policy, decision.reason).toBe('auto_approve');
    });
  }
});

describe('issue 9 A.3: decide() on a protected path, reader or not', () => {
  const permissions = {
    ...MANUAL.permissions,
    allow: ['Terminal(jq:*)', 'Terminal(sort:*)', 'Terminal(mytool:*)', 'Terminal(git log:*)'],
  };
  const rows: readonly (readonly [string, string])[] = [
    ['jq . permissions.json', 'auto_approve'],
    ['sort -u permissions.json', 'auto_approve'],
    ['sort -o permissions.json permissions.json', 'require_approval'],
    ['mytool permissions.json', 'require_approval'],
    ['git log -p .git/config', 'auto_approve'],
    ['git log --output=permissions.json', 'require_approval'],
  ];
  for (const [command, policy] of rows) {
    it(`${command} -> ${policy}`, () => {
      const decision = decide(terminalInput(MANUAL, { command, permissions }));
      expect(decision.policy, decision.reason).toBe(policy);
    });
  }
});
