// The published server runs on any Node 22; its SQLite store only where node:sqlite is there and
// right. Where it is not, starting fails as sqlite_unavailable saying why and what to do.
import { describe, expect, it } from 'vitest';
import { SqliteUnavailableError } from '../../src/store/errors.ts';
import { assertSqliteUsable, type SqliteModule } from '../../src/store/sqlite-support.ts';

/** A node:sqlite whose every query answers `row` from get(). */
function sqliteAnswering(row: unknown): SqliteModule {
  return {
    DatabaseSync: class {
      prepare() {
        return { get: () => row };
      }
      close() {}
    },
  };
}

async function refusal(check: Promise<void>): Promise<SqliteUnavailableError> {
  const error = await check.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(SqliteUnavailableError);
  return error as SqliteUnavailableError;
}

describe('assertSqliteUsable', () => {
  it("accepts this Node's node:sqlite", async () => {
    await expect(assertSqliteUsable()).resolves.toBeUndefined();
  });

  it('a Node without node:sqlite (22.0 to 22.4, or 22.5 to 22.12 without the flag) is sqlite_unavailable naming Postgres and the Node to upgrade to', async () => {
    const missing = Object.assign(new Error('No such built-in module: node:sqlite'), {
      code: 'ERR_UNKNOWN_BUILTIN_MODULE',
    });
    const error = await refusal(assertSqliteUsable(() => Promise.reject(missing), '22.4.1'));
    expect(error.code).toBe('sqlite_unavailable');
    expect(error.message).toBe(
      'the embedded SQLite store cannot run on Node 22.4.1: it has no node:sqlite (that comes with Node 22.5, behind ' +
        '--experimental-sqlite until 22.13); set BRABO_DATABASE_URL to a Postgres database, or upgrade Node to 22.13 or later',
    );
    expect(error.cause).toBe(missing);
  });

  it("Node 22.5's node:sqlite, which answers a query matching nothing with a row of NULLs, is refused the same way", async () => {
    const error = await refusal(assertSqliteUsable(async () => sqliteAnswering({ one: null }), '22.5.1'));
    expect(error.code).toBe('sqlite_unavailable');
    expect(error.message).toContain(
      'Node 22.5.1: its node:sqlite answers a query that matches nothing with a row of NULLs',
    );
    expect(error.message).toContain('BRABO_DATABASE_URL');
  });
});
