// Row <-> record helpers shared by the SQLite repositories.
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';

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

export const str = (value: SQLInputValue | undefined): string => String(value);
export const strOrNull = (value: SQLInputValue | undefined): string | null =>
  value === null || value === undefined ? null : String(value);
export const json = <T>(value: SQLInputValue | undefined): T => JSON.parse(String(value)) as T;
