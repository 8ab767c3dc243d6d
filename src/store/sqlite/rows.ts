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

/** JSON columns are TEXT in SQLite: parsed on the way out. */
export const records = recordMappers(<T>(value: unknown): T => JSON.parse(String(value)) as T);
