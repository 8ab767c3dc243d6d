// permissions.json mistakes a user makes, named instead of silently meaning "no rules": unknown
// keys (typos, Claude Code's {"permissions": {...}} shape) with a suggestion, lists that are not
// arrays, Claude Code's Bash(...) entries; nothing is then auto-approved, and `brabo check` on
// such a file shows that decision together with the error. Also the HTTP PUT refuses them.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/index.ts';
import { parsePermissions, PermissionsError } from '../../src/policy/index.ts';
import { seedProject, startTestApp, type TestApp } from '../http/helpers.ts';

const LISTS = ['allow', 'deny', 'ask'] as const;

function problems(raw: unknown): string {
  const parsed = parsePermissions(raw);
  if (parsed.ok) throw new Error(`expected a PermissionsError for ${JSON.stringify(raw)}`);
  expect(parsed.error).toBeInstanceOf(PermissionsError);
  expect(parsed.salvaged.allow).toEqual([]);
  return parsed.error.message;
}

describe('unknown keys', () => {
  it.each([
    ['alow', 'allow'],
    ['Allow', 'allow'],
    ['allows', 'allow'],
    ['deni', 'deny'],
    ['DENY', 'deny'],
    ['aks', 'ask'],
    ['asks', 'ask'],
  ])('"%s" is named, with did you mean "%s"', (key, meant) => {
    expect(problems({ [key]: ['Terminal(ls)'] })).toContain(`unknown key "${key}": did you mean "${meant}"?`);
  });

  it('a key far from every list name is named with the keys that exist', () => {
    expect(problems({ rules: [] })).toContain(
      'unknown key "rules": permissions.json has only "allow", "deny" and "ask"',
    );
  });

  it("Claude Code's settings shape is recognised and explained; its deny entries still count", () => {
    const parsed = parsePermissions({ permissions: { allow: ['Terminal(ls)'], deny: ['Terminal(curl:*)'] } });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error.message).toContain("Claude Code's settings shape");
    expect(parsed.salvaged).toEqual({ allow: [], deny: ['Terminal(curl:*)'], ask: [] });
  });

  it('property: any extra key makes the file broken and is named (never silently ignored)', () => {
    fc.assert(
      fc.property(
        fc
          .string({ minLength: 1, maxLength: 30 })
          .filter((key) => !(LISTS as readonly string[]).includes(key) && key !== '__proto__'),
        fc.constantFrom<unknown>([], ['Terminal(ls)'], 'x', 1, null, {}),
        (key, value) => {
          const parsed = parsePermissions({ allow: ['Terminal(ls)'], [key]: value });
          expect(parsed.ok).toBe(false);
          if (!parsed.ok) expect(parsed.error.message).toContain(`unknown key ${JSON.stringify(key)}`);
        },
      ),
    );
  });

  it('property: one edit away from a list name suggests that list', () => {
    const edit = fc
      .tuple(fc.constantFrom(...LISTS), fc.nat(), fc.constantFrom('x', 'q', 'z'))
      .map(([list, at, letter]) => {
        const i = at % (list.length + 1);
        return { list, key: list.slice(0, i) + letter + list.slice(i) };
      });
    fc.assert(
      fc.property(edit, ({ list, key }) => {
        expect(problems({ [key]: [] })).toContain(`did you mean "${list}"?`);
      }),
    );
  });
});

describe('lists and entries', () => {
  it.each([
    [{ allow: 'Terminal(ls)' }, 'allow: must be an array of strings; did you mean ["Terminal(ls)"]?'],
    [{ deny: { curl: true } }, 'deny: must be an array of strings, got object'],
    [{ ask: null }, 'ask: must be an array of strings, got null'],
    [{ allow: 3 }, 'allow: must be an array of strings, got number'],
  ])('%j: %s', (raw, message) => {
    expect(problems(raw)).toContain(message);
  });

  it.each(['Bash(npm run test:*)', 'Bash(git status)', 'bash(ls)', ' Bash (make build) '])(
    '%j says to write Terminal(...)',
    (entry) => {
      const message = problems({ allow: [entry] });
      expect(message).toContain("Claude Code's Bash(...) is Terminal(...) here");
      expect(message).toMatch(/write "Terminal\(.*\)"/);
    },
  );

  it('a broken file never auto-approves what its allow list names', () => {
    const parsed = parsePermissions({ allow: ['Terminal(ls)'], alow: [] });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    const decision = decide({
      actionType: 'terminal',
      payload: { command: 'ls', cwd: '/w/p' },
      role: 'maintainer',
      autonomy: { mode: 'auto_approve', origin: 'curinga' },
      permissions: parsed.salvaged,
      permissionsBroken: true,
      scopeRoot: '/w/p',
      containerRunning: true,
    });
    expect(decision.policy).not.toBe('auto_approve');
  });
});

describe('brabo check on a broken file', () => {
  const BRABO = resolve(import.meta.dirname, '../../bin/brabo');
  function check(root: string, command: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolvePromise) => {
      const child = spawn(
        BRABO,
        ['check', '--root', root, '--container-running', '--autonomy', 'auto_approve:curinga', '--', command],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('exit', (code) => resolvePromise({ code, stdout, stderr }));
    });
  }

  it("shows the server's decision (not auto-approved, even in auto mode with a running container) and the error", async () => {
    const root = mkdtempSync(join(tmpdir(), 'brabo-check-broken-'));
    writeFileSync(join(root, 'permissions.json'), JSON.stringify({ permissions: { allow: ['Bash(ls)'] } }));
    const r = await check(root, 'ls');
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^decision: {4}require_approval/m);
    expect(r.stdout).toContain('is BROKEN');
    expect(r.stderr).toContain('PermissionsError (permissions_invalid)');
    expect(r.stderr).toContain("Claude Code's settings shape");
  });
});

describe('PUT /api/projects/:id/permissions', () => {
  let t: TestApp | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
  });

  it('refuses a typo key by name instead of dropping it (nothing written)', async () => {
    t = await startTestApp();
    const project = await seedProject(t);
    const put = await t.call('PUT', `/api/projects/${project.id}/permissions`, {
      userId: 'olivia',
      alow: ['Terminal(ls)'],
    });
    expect(put.status).toBe(400);
    expect(JSON.stringify(put.body)).toContain('did you mean \\"allow\\"?');
    const got = await t.call('GET', `/api/projects/${project.id}/permissions`);
    expect(got.body).toMatchObject({ exists: false, broken: false });
  });
});
