import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCwd, checkCwdLexically } from '../../src/runner/cwd-guard.ts';
import { tempDir } from './support/fixtures.ts';

let base: string;
let root: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir: base, cleanup } = await tempDir('cwd'));
  root = path.join(base, 'project');
  await mkdir(path.join(root, 'src', 'deep'), { recursive: true });
  await mkdir(path.join(base, 'project-evil'), { recursive: true });
  await mkdir(path.join(base, 'outside'), { recursive: true });
  await writeFile(path.join(root, 'file.txt'), 'x');
  await symlink(path.join(base, 'outside'), path.join(root, 'escape'));
  await symlink('/', path.join(root, 'src', 'to-slash'));
  await symlink(path.join(root, 'src'), path.join(root, 'inner-link'));
});
afterAll(async () => cleanup());

describe('cwd guard (RN-497: the runner only runs inside its root)', () => {
  it('accepts the root itself and folders below it, and returns the real path', async () => {
    expect(await checkCwd(root, root)).toEqual({ ok: true, realCwd: root, realRoot: root });
    expect(await checkCwd(root, path.join(root, 'src', 'deep'))).toEqual({
      ok: true,
      realCwd: path.join(root, 'src', 'deep'),
      realRoot: root,
    });
    expect(await checkCwd(root, path.join(root, 'inner-link'))).toEqual({
      ok: true,
      realCwd: path.join(root, 'src'),
      realRoot: root,
    });
  });

  it.each([
    ['a relative cwd', 'src'],
    ['a cwd with ..', '__ROOT__/src/../../outside'],
    ['a .. that stays inside (still refused: never normalized away)', '__ROOT__/src/..'],
    ['a sibling sharing the prefix', '__BASE__/project-evil'],
    ['the parent', '__BASE__'],
    ['the file system root', '/'],
    ['/etc', '/etc'],
  ])('refuses %s with cwd_outside_root', async (_label, template) => {
    const cwd = template.replace('__ROOT__', root).replace('__BASE__', base);
    const verdict = await checkCwd(root, cwd);
    expect(verdict).toMatchObject({ ok: false, status: 'refused', code: 'cwd_outside_root' });
  });

  it('refuses a symlink inside the root that points outside it (adversarial)', async () => {
    for (const cwd of [
      path.join(root, 'escape'),
      path.join(root, 'src', 'to-slash'),
      path.join(root, 'src', 'to-slash', 'etc'),
    ]) {
      const verdict = await checkCwd(root, cwd);
      expect(verdict, cwd).toMatchObject({ ok: false, status: 'refused', code: 'cwd_outside_root' });
      if (!verdict.ok) expect(verdict.message).toContain('resolves to');
    }
  });

  it('a cwd that does not exist or is a file fails as cwd_missing (not a refusal)', async () => {
    expect(await checkCwd(root, path.join(root, 'nope'))).toMatchObject({
      ok: false,
      status: 'failed',
      code: 'cwd_missing',
    });
    expect(await checkCwd(root, path.join(root, 'file.txt'))).toMatchObject({
      ok: false,
      status: 'failed',
      code: 'cwd_missing',
    });
  });

  it('lexical check (property): any path with a .. segment is refused', () => {
    const segment = fc.stringMatching(/^[a-z0-9._-]{1,8}$/).filter((s) => s !== '..');
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 5 }), fc.array(segment, { maxLength: 5 }), (before, after) => {
        const cwd = [root, ...before, '..', ...after].join('/');
        expect(checkCwdLexically(root, cwd)).not.toBeNull();
      }),
    );
  });

  it('lexical check (property): root plus plain segments is accepted, anything not under root is refused', () => {
    const segment = fc.stringMatching(/^[a-z0-9_-]{1,8}$/);
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 6 }), (segments) => {
        expect(checkCwdLexically(root, [root, ...segments].join('/'))).toBeNull();
        expect(checkCwdLexically(root, ['/elsewhere', ...segments].join('/'))).not.toBeNull();
        expect(checkCwdLexically(root, `${root}x/${segments.join('/')}`)).not.toBeNull();
      }),
    );
  });
});
