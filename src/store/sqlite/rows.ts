// Statement cache and record mappers shared by the SQLite repositories.
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { recordMappers } from '../records.ts';

export type Row = Record<string, SQLInputValue>;

/** Prepared statements cached per connection and SQL text. */
export class Statements {
  readonly #db: DatabaseSync;
  readonly #cache = new Map<string, StatementSync>();

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  get(sql: string): StatementSync {
    let statement = this.#cache.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#cache.set(sql, statement);
    }
    return statement;
  }

  one(sql: string, ...params: SQLInputValue[]): Row | undefined {
    return this.get(sql).get(...params) as Row | undefined;
  }

  all(sql: string, ...params: SQLInputValue[]): Row[] {
    return this.get(sql).all(...params) as Row[];
  }

  /** Returns the number of rows changed. */
  run(sql: string, ...params: SQLInputValue[]): number {
    return Number(this.get(sql).run(...params).changes);
  }
}

/**
 * The store's read side. A second connection's page cache is dropped every time the writer
 * commits (SQLite re-validates it against the WAL), so under steady writes every read there
 * re-fetches its pages. The writer connection's own cache stays warm, and whenever it holds no
 * transaction it sees exactly the committed state: reads go there then, and to the read-only
 * connection while a (group-commit) transaction is open, so no read ever sees uncommitted rows.
 * Writes never go through here: `run` stays on the read-only connection, which refuses them.
 * `isTransaction` exists from Node 22.16: before, it is undefined and every read goes to the
 * read-only connection, which is always correct, only with a colder cache.
 */
export class ReadStatements extends Statements {
  readonly #writerDb: DatabaseSync;
  readonly #writer: Statements;

  constructor(reader: DatabaseSync, writer: DatabaseSync) {
    super(reader);
    this.#writerDb = writer;
    this.#writer = new Statements(writer);
  }

  override one(sql: string, ...params: SQLInputValue[]): Row | undefined {
    return this.#writerDb.isTransaction === false ? this.#writer.one(sql, ...params) : super.one(sql, ...params);
  }

  override all(sql: string, ...params: SQLInputValue[]): Row[] {
    return this.#writerDb.isTransaction === false ? this.#writer.all(sql, ...params) : super.all(sql, ...params);
  }
}

/** JSON columns are TEXT in SQLite: parsed on the way out. */
export const records = recordMappers(<T>(value: unknown): T => JSON.parse(String(value)) as T);
