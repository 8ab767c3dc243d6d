// A SQLite store that cannot be used stops start-up with one named line (store_corrupt, the path,
// what to do) and is left untouched: a corrupted or foreign file, a damaged schema page, and a
// zero-length file in a data dir that is not new (an emptied store must not become a new one).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreCorruptError } from '../../src/store/errors.ts';
import { openSqliteStore, SQLITE_FILE_NAME } from '../../src/store/sqlite/store.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'brabo-corrupt-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function expectCorrupt(dataDir: string, mention: RegExp): void {
  const file = join(dataDir, SQLITE_FILE_NAME);
  const before = readFileSync(file);
  let caught: unknown = null;
  try {
    openSqliteStore(dataDir);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(StoreCorruptError);
  expect(caught).toMatchObject({ code: 'store_corrupt', path: file });
  const message = (caught as Error).message;
  expect(message).toContain(file);
  expect(message).toMatch(mention);
  expect(message).toMatch(/backup/);
  expect(readFileSync(file).equals(before)).toBe(true); // nothing changed
}

async function storeWithData(dataDir: string): Promise<void> {
  const store = openSqliteStore(dataDir);
  await store.transaction((tx) => tx.runnerTokens.create('p1').catch(() => null));
  await store.close();
  writeFileSync(join(dataDir, 'admin-token'), 'x');
}

describe('store_corrupt', () => {
  it('foreign bytes of many sizes and shapes are store_corrupt, never a stack trace or a new store', () => {
    const shapes = [
      Buffer.from('hello, not a database'),
      Buffer.alloc(4096, 0xff),
      Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(200, 7)]),
      Buffer.alloc(1, 0),
    ];
    for (const [i, bytes] of shapes.entries()) {
      const dataDir = join(dir, `d${i}`);
      mkdirSync(dataDir);
      writeFileSync(join(dataDir, SQLITE_FILE_NAME), bytes);
      expectCorrupt(dataDir, /cannot be read as a SQLite database/);
    }
  });

  it('a damaged schema page of a real store is store_corrupt', async () => {
    const dataDir = join(dir, 'data');
    await storeWithData(dataDir);
    const file = join(dataDir, SQLITE_FILE_NAME);
    const bytes = readFileSync(file);
    bytes.fill(0xa5, 100, Math.min(bytes.length, 4096)); // page 1 after the header: sqlite_schema
    writeFileSync(file, bytes);
    expectCorrupt(dataDir, /cannot be read/);
  });

  it('a zero-length file is refused in a data dir that is not new, accepted in a new one', async () => {
    const used = join(dir, 'used');
    await storeWithData(used);
    for (const suffix of ['-wal', '-shm']) rmSync(join(used, SQLITE_FILE_NAME + suffix), { force: true });
    writeFileSync(join(used, SQLITE_FILE_NAME), '');
    expectCorrupt(used, /zero bytes/);

    const fresh = join(dir, 'fresh');
    mkdirSync(fresh);
    writeFileSync(join(fresh, SQLITE_FILE_NAME), ''); // a first start that died before its first write
    const store = openSqliteStore(fresh);
    await store.close();
  });

  it('brabo serve prints one line with the code and the path, exit 1, no stack', () => {
    const dataDir = join(dir, 'serve');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, SQLITE_FILE_NAME), 'garbage garbage garbage');
    const cli = resolve(import.meta.dirname, '../../src/cli.ts');
    const run = spawnSync(process.execPath, [cli, 'serve', '--port', '0', '--data-dir', dataDir], {
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, BRABO_ADMIN_TOKEN: 'corrupt-test-token-0123456789abcdef', DATABASE_URL: '' },
    });
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^brabo serve: store_corrupt: the store .*brabo\.sqlite cannot be read/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
