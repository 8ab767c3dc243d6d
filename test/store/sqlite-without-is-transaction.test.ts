// node:sqlite before Node 22.16 (the published server runs on any Node 22) has no
// `isTransaction`: it reads undefined. The store must still never let a read see rows the writer
// has not committed, and must still end a transaction it could not commit.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { rollbackIfOpen } from '../../src/store/sqlite/group-commit.ts';
import { ReadStatements } from '../../src/store/sqlite/rows.ts';

/** A connection as Node 22.5 to 22.15 offer it: everything but `isTransaction`. */
function asBefore22_16(db: DatabaseSync): DatabaseSync {
  return new Proxy(db, {
    get(target, key) {
      if (key === 'isTransaction') return undefined;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function openPair(): { writer: DatabaseSync; reader: DatabaseSync } {
  const file = join(mkdtempSync(join(tmpdir(), 'brabo-no-is-transaction-')), 'store.sqlite');
  const writer = new DatabaseSync(file);
  writer.exec('PRAGMA journal_mode = WAL');
  writer.exec('CREATE TABLE notes (body TEXT)');
  return { writer, reader: new DatabaseSync(file, { readOnly: true }) };
}

describe('the SQLite store where node:sqlite has no isTransaction', () => {
  it('reads never see what the writer has not committed, and see it once committed', () => {
    const { writer, reader } = openPair();
    const reads = new ReadStatements(reader, asBefore22_16(writer));
    writer.exec('BEGIN IMMEDIATE');
    writer.exec("INSERT INTO notes VALUES ('uncommitted')");
    expect(reads.all('SELECT body FROM notes')).toEqual([]);
    expect(reads.one('SELECT COUNT(*) AS n FROM notes')).toEqual({ n: 0 });
    writer.exec('COMMIT');
    expect(reads.all('SELECT body FROM notes')).toEqual([{ body: 'uncommitted' }]);
  });

  it('rollbackIfOpen ends an open transaction, does nothing when none is open, and passes on any other refusal', () => {
    const { writer } = openPair();
    const old = asBefore22_16(writer);
    old.exec('BEGIN IMMEDIATE');
    old.exec("INSERT INTO notes VALUES ('rolled back')");
    rollbackIfOpen(old);
    expect(writer.isTransaction).toBe(false);
    expect(writer.prepare('SELECT COUNT(*) AS n FROM notes').get()).toEqual({ n: 0 });
    expect(() => rollbackIfOpen(old)).not.toThrow();
    writer.close();
    expect(() => rollbackIfOpen(old)).toThrow(/not open/);
  });
});
