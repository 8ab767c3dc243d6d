// Step 6: when several ceilings apply, the first in DESIGN's order names the reason (broken
// file, unsafe construct, git override, protected write, external effect / privileged, git
// smuggling, path scope, compound rule, protected names of issue 9 A.3). Only scope and
// compound are lifted by auto mode.
import { describe, expect, it } from 'vitest';
import { AUTO_MODE, perms, term, typed } from './unit-fixtures.ts';
import type { Options } from './unit-fixtures.ts';

// The container floor starts every terminal command at auto_approve: only the ceilings lower it.
const ALL: Options = {
  permissions: perms({ allow: ['Terminal(git)', 'Terminal(cat)', 'Terminal(echo)', 'Terminal(sudo)'] }),
  containerRunning: true,
};
const AUTO: Options = { ...ALL, autonomy: AUTO_MODE };

describe('ceiling order', () => {
  it.each([
    ['git -c a=b status $(x)', 'unsafe_shell_construct'],
    ['git -c a=b log > permissions.json', 'git_config_override'],
    ['git push > .git/config', 'protected_file_write'],
    ['sudo cat x > permissions.json', 'protected_file_write'],
    ['GIT_SSH_COMMAND=x git push', 'ceiling_external_effect'],
    ['sudo git config alias.x y', 'ceiling_privileged'],
    ['GIT_DIR=/tmp git status', 'git_config_override'],
    ['cat /etc/passwd ; bar', 'ceiling_path_scope'],
    ['bar ; cat x', 'ceiling_compound_unmatched'],
    ['bar ; git log --output=permissions.json', 'ceiling_compound_unmatched'],
    ['git log --output=permissions.json', 'protected_file_write'],
  ])('%s -> %s', (command, code) => {
    expect(term(command, ALL).reasonCode).toBe(code);
  });
  it.each([
    ['cat /etc/passwd ; bar', 'auto_approve', 'agent_autonomy_auto_approve'],
    ['bar ; git log --output=permissions.json', 'require_approval', 'protected_file_write'],
    ['git log --output=permissions.json ; cat /etc/x', 'require_approval', 'protected_file_write'],
    ['cat x > .git/config', 'require_approval', 'protected_file_write'],
  ])('auto mode lifts scope and compound only: %s -> %s', (command, policy, code) => {
    expect(term(command, AUTO)).toMatchObject({ policy, reasonCode: code });
  });
  it('a broken permissions.json comes first', () => {
    expect(
      term('echo $(x) > permissions.json', { ...ALL, containerRunning: true, permissionsBroken: true }).reasonCode,
    ).toBe('permissions_file_invalid');
  });
  it('the reasons name what they found', () => {
    expect(term('git log --output=permissions.json', ALL).reason).toBe(
      'writes the protected file --output=permissions.json; approval required',
    );
    expect(term('cd $X && echo x > notes', AUTO).reason).toBe(
      'writes the protected file notes (could name a protected path); approval required',
    );
    expect(term('cd .git && make', AUTO).reason).toContain('(the working directory is inside .git)');
    expect(term('cd .git && git init', AUTO).reason).toBe('writes the protected file init; approval required');
    expect(term('cat /etc/passwd', ALL).reason).toBe(
      'ceiling: path scope: /etc/passwd is outside the project folder (RN-075)',
    );
    expect(term('cd ..', ALL).reason).toBe('ceiling: path scope: cd .. is outside the project folder (RN-075)');
  });
});

// Mutation testing of ceilings.ts (issue 9): the sentence a person reads names what the ceiling
// found, not only its code.
describe('ceiling sentences name what was found', () => {
  it.each([
    ['git -c a=b status', 'git_config_override', 'git option -c changes what git runs'],
    ['git status > .git/config', 'protected_file_write', 'writes the protected file .git/config'],
    ['git config alias.x status', 'git_config_override', 'git config alias.x'],
    ['bar ; cat x', 'ceiling_compound_unmatched', 'fragment "bar" has no rule'],
  ])('%s -> %s: "%s"', (command, code, text) => {
    const d = term(command, ALL);
    expect(d.reasonCode).toBe(code);
    expect(d.reason).toContain(text);
  });
  it.each([
    [{ branch: '   ' }, 'merge without a valid target branch'],
    [{ branch: 'main' }, 'merge into protected branch main'],
  ])('git_merge %j: "%s"', (payload, text) => {
    const d = typed('git_merge', payload, { permissions: perms({ allow: ['GitMerge()'] }) });
    expect(d.reasonCode).toBe('ceiling_protected_branch_merge');
    expect(d.reason).toContain(text);
  });
  it('a typed external effect names its type', () => {
    const d = typed('pr_open', {}, { permissions: perms({ allow: ['PrOpen()'] }) });
    expect(d.reasonCode).toBe('ceiling_typed_external_effect');
    expect(d.reason).toContain('pr_open');
  });
});
