import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PermissionsFile, PermissionsWriteError } from '../../src/store/permissions-file.ts';

let root: string;
const file = new PermissionsFile();
const onDisk = () => JSON.parse(readFileSync(join(root, 'permissions.json'), 'utf8'));

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'brabo-perms-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('PermissionsFile', () => {
  it('a missing file is empty, not broken (no rule is not permission)', async () => {
    expect(await file.read(root)).toMatchObject({
      exists: false,
      broken: false,
      permissions: { allow: [], deny: [], ask: [] },
    });
  });

  it("replace validates with the engine's named errors and leaves the file untouched on error", async () => {
    await file.replace(root, { allow: ['Terminal(ls)'], deny: [], ask: [] });
    const error = await file.replace(root, { allow: ['GitPush(algo'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionsWriteError);
    expect(error).toMatchObject({ code: 'permissions_invalid' });
    expect((error as PermissionsWriteError).issues?.[0]).toMatchObject({ list: 'allow', index: 0 });
    expect(onDisk()).toEqual({ allow: ['Terminal(ls)'], deny: [], ask: [] });
  });

  it('a broken file yields the salvage (deny/ask only, allow empty) and the error; update refuses to write over it', async () => {
    writeFileSync(
      join(root, 'permissions.json'),
      '{"allow":["Terminal(ls)"],"deny":["Terminal(curl:*)", "Nope(x)"],"ask":[]}',
    );
    const snapshot = await file.read(root);
    expect(snapshot).toMatchObject({
      broken: true,
      exists: true,
      permissions: { allow: [], deny: ['Terminal(curl:*)'] },
    });
    expect(snapshot.problem?.code).toBe('permissions_invalid');
    await expect(file.update(root, (p) => p)).rejects.toMatchObject({ code: 'permissions_file_invalid' });
    expect(readFileSync(join(root, 'permissions.json'), 'utf8')).toContain('Nope(x)');
  });

  it('any bytes on disk: read never throws, and a broken file never yields an allow entry', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (text) => {
        writeFileSync(join(root, 'permissions.json'), text);
        const snapshot = await file.read(root);
        expect(snapshot.permissions.allow.length === 0 || !snapshot.broken).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('concurrent read-modify-writes are serialized per root: no lost update, no temp file left', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        file.update(root, (p) => ({ ...p, allow: [...p.allow, `Terminal(cmd${i})`] })),
      ),
    );
    expect(onDisk().allow).toHaveLength(20);
    expect(readdirSync(root)).toEqual(['permissions.json']);
  });

  it('writing into a folder that does not exist is project_folder_missing', async () => {
    await expect(file.replace(join(root, 'nope'), { allow: [] })).rejects.toMatchObject({
      code: 'project_folder_missing',
    });
  });

  it('a write that cannot complete is permissions_write_failed and removes its temp file', async () => {
    mkdirSync(join(root, 'permissions.json')); // rename onto a directory fails
    await expect(file.replace(root, { allow: [] })).rejects.toMatchObject({ code: 'permissions_write_failed' });
    expect(readdirSync(root)).toEqual(['permissions.json']);
  });

  it('a hand edit takes effect on the very next read, even in place, same size, within the same millisecond', async () => {
    const path = join(root, 'permissions.json');
    const versions = ['Terminal(aa)', 'Terminal(bb)', 'Terminal(cc)'].map((rule) =>
      JSON.stringify({ allow: [rule], deny: [], ask: [] }),
    );
    for (let round = 0; round < 50; round++) {
      for (const text of versions) {
        writeFileSync(path, text); // in place: same inode, same size
        expect((await file.read(root)).permissions.allow).toEqual(JSON.parse(text).allow);
      }
    }
  });

  it('a FIFO planted as permissions.json is refused as not a regular file, without blocking on the open', async () => {
    execFileSync('mkfifo', [join(root, 'permissions.json')]);
    const snapshot = await file.read(root);
    expect(snapshot).toMatchObject({ broken: true, exists: true, permissions: { allow: [] } });
    expect(snapshot.problem?.code).toBe('permissions_not_regular_file');
  });
});
