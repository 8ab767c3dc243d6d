// A thin query helper shared by the Postgres repositories: one pooled client (inside a
// transaction) or the read pool, positional parameters, rows as plain objects.
import type { QueryResultRow } from 'pg';
import { recordMappers } from '../records.ts';

export type Row = QueryResultRow;

/** What both a pg.Pool and a checked-out pg.PoolClient offer. */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Row[]; rowCount: number | null }>;
}

export class Sql {
  readonly #db: Queryable;
  readonly #guard: () => void;

  /** `guard` runs before every statement (the store refuses work once closed). */
  constructor(db: Queryable, guard: () => void = () => {}) {
    this.#db = db;
    this.#guard = guard;
  }

  async all(text: string, ...values: unknown[]): Promise<Row[]> {
    this.#guard();
    return (await this.#db.query(text, values)).rows;
  }

  async one(text: string, ...values: unknown[]): Promise<Row | undefined> {
    return (await this.all(text, ...values))[0];
  }

  /** Returns the number of rows changed. */
  async run(text: string, ...values: unknown[]): Promise<number> {
    this.#guard();
    return (await this.#db.query(text, values)).rowCount ?? 0;
  }
}

/** jsonb arrives parsed; parameters go out as JSON text so arrays are never sent as Postgres arrays. */
export const jsonParam = (value: unknown): string => JSON.stringify(value);
export const records = recordMappers(<T>(value: unknown): T => value as T);
