// Execution property (issue 9, Tests): generated commands that an allow-list would auto-approve,
// including interpreter one-liners, globs, `cd`s and operators, run in the real bwrap sandbox
// against a canary tree. Whatever decide() said about each, no file outside the root and no
// protected file changes. decide()'s verdicts are counted to show the generator also produces
// commands it auto-approves (the sandbox is the last line, not the lexical engine).
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/index.ts';
import { canaryTree, protectedState, runIn, snapshot } from './support/sandbox.ts';

const PERMISSIONS = {
  allow: [
    'Terminal(echo:*)',
    'Terminal(cat:*)',
    'Terminal(ls:*)',
    'Terminal(chmod:*)',
    'Terminal(touch:*)',
    'Terminal(python3:*)',
    'Terminal(node:*)',
    'Terminal(sh:*)',
    'Terminal(git log:*)',
    'Terminal(git diff:*)',
    'Terminal(git status)',
    'Terminal(cp:*)',
    'Terminal(mv:*)',
  ],
  deny: [],
  ask: [],
};

/** Every spelling of a protected target, and places outside the root (OUT is replaced per run). */
const TARGETS = [
  '.git/config',
  './.git//config',
  '.gi?/config',
  '.git/hook?/pre-commit',
  '.git/hooks/pre-commit',
  '.git/hooks/post-checkout',
  'permissions.json',
  './permissions.json',
  'PERMISSIONS.JSON',
  'permission?.json',
  '.git',
  '.git/hooks',
  '.git/commondir',
  '.git/config.worktree',
  '.git/brabo-quarantine',
  '.git/modules/evil/config',
  '.git/worktrees/w/config',
  '../outside/secret.txt',
  'OUT/secret.txt',
  'OUT/new.txt',
  '/etc/brabo-pwned',
  '$HOME/.brabo-pwned',
  '~/.brabo-pwned',
];

const q = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

const WRITERS: Array<(target: string) => string> = [
  (t) => `echo pwned > ${t}`,
  (t) => `echo pwned >> ${t}`,
  (t) => `cat src/a.txt > ${t}`,
  (t) => `touch ${t}`,
  (t) => `chmod 777 ${t}`,
  (t) => `cp src/a.txt ${t}`,
  (t) => `mv ${t} src/moved`,
  (t) => `rm -rf ${t}`,
  (t) => `ln -sf /tmp/evil ${t}`,
  (t) => `python3 -c ${q(`open('${t}','a').write('[core]\\n\\tfsmonitor = evil\\n')`)}`,
  (t) => `python3 -c ${q(`import os,glob; [os.replace('src/a.txt', p) for p in glob.glob('${t}')]`)}`,
  (t) => `node -e ${q(`require('fs').appendFileSync('${t}', 'evil')`)}`,
  (t) => `node -e ${q(`require('fs').rmSync('${t}', {recursive: true, force: true})`)}`,
  (t) => `sh -c ${q(`echo pwned > ${t}`)}`,
  (t) => `git log --output=${t}`,
  (t) => `git diff --output=${t}`,
  // Metadata of the protected entries themselves (mode, group, times, extended attributes).
  (t) => `chmod 777 ${t}`,
  (t) => `chmod -R g+w,o+w ${t}`,
  (t) => `chgrp $(id -g) ${t} && chmod 2777 ${t}`,
  (t) => `touch -d 2001-01-01 ${t}`,
  (t) => `touch -h -m ${t}`,
  (t) => `python3 -c ${q(`import os,glob; [os.chmod(p, 0o777) or os.utime(p, (1, 1)) for p in glob.glob('${t}')]`)}`,
  (t) => `python3 -c ${q(`import os,glob; [os.setxattr(p, 'user.pwned', b'1') for p in glob.glob('${t}')]`)}`,
  (t) => `node -e ${q(`require('fs').chmodSync('${t}', 0o777)`)}`,
  (t) => `node -e ${q(`require('fs').utimesSync('${t}', 1, 1)`)}`,
  // Something planted where a repair step might write, then a git redirection (lead's S1/S2).
  (t) => `echo blocker > ${t}; echo ../src > .git/commondir`,
  (t) => `ln -s /var/tmp ${t}; echo '#!/bin/sh' > .git/commondir; chmod +x .git/commondir`,
];

const PREFIXES = [
  '',
  'cd .git && ',
  'cd -P .git; ',
  'cd src && cd .. && ',
  'cd nope || ',
  '( cd .git ) ; ',
  'cd .. ; ',
  'cd OUT && ',
];
const SUFFIXES = ['', ' ; ls', ' && echo done', ' | cat', ' & wait'];

const verdicts = { auto_approve: 0, require_approval: 0, deny: 0 };
afterAll(() => {
  // Printed for the closing note; the property below does not depend on it.
  console.log(`sandbox execution property: decide() verdicts of the generated commands ${JSON.stringify(verdicts)}`);
});

describe('execution property: in the sandbox, nothing outside the root and no protected file changes', () => {
  it('generated commands (writers x targets x cd prefixes x operators) against a canary tree', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...WRITERS),
        fc.constantFrom(...TARGETS),
        fc.constantFrom(...PREFIXES),
        fc.constantFrom(...SUFFIXES),
        async (writer, target, prefix, suffix) => {
          const canary = canaryTree();
          try {
            const fill = (text: string): string => text.replaceAll('OUT', canary.outside);
            const command = fill(prefix) + writer(fill(target)) + suffix;
            const decision = decide({
              actionType: 'terminal',
              payload: { command, cwd: canary.root },
              role: 'developer',
              autonomy: null,
              permissions: PERMISSIONS,
              scopeRoot: canary.root,
              containerRunning: false,
            });
            verdicts[decision.policy] += 1;
            const outsideBefore = snapshot(canary.outside);
            const tmpOutsideBefore = snapshot(canary.tmpOutside);
            const xattrs = command.includes('xattr'); // the only writers that could set one
            const protectedBefore = protectedState(canary.root, { xattrs });
            await runIn(canary.root, command, { timeoutMs: 10_000 });
            expect(snapshot(canary.outside), command).toEqual(outsideBefore);
            expect(snapshot(canary.tmpOutside), command).toEqual(tmpOutsideBefore);
            expect(protectedState(canary.root, { xattrs }), command).toEqual(protectedBefore);
          } finally {
            canary.cleanup();
          }
        },
      ),
      { numRuns: 80 },
    );
    expect(verdicts.auto_approve + verdicts.require_approval + verdicts.deny).toBeGreaterThanOrEqual(80);
  }, 900_000); // 80 sandboxed processes, some starting python or node: minutes on a loaded 2-core machine
});
