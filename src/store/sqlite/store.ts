// The embedded store: one SQLite file in the data dir, WAL, synchronous=FULL (a commit is on disk
// when transaction() resolves). One writer connection whose units of work run one at a time and
// are group-committed (group-commit.ts), one read-only connection that sees committed data only;
// reads use the writer's warm cache while it holds no transaction (rows.ts ReadStatements), and a
// worker thread checkpoints the WAL (checkpointer.ts).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { StoreClosedError } from '../errors.ts';
import { runnerTokensOf } from '../runner-tokens.ts';
import type { Repositories, RunnerTokenRepository, Store } from '../types.ts';
import { SqliteActions } from './actions.ts';
import { SqliteAgentAutonomy } from './autonomy.ts';
import { SqliteDispatches } from './dispatches.ts';
import { SqliteEvents } from './events.ts';
import { SqliteContainers, SqliteHandoffs, SqliteMerges } from './execution.ts';
import { Checkpointer, WRITER_AUTOCHECKPOINT_PAGES } from './checkpointer.ts';
import { GroupCommitWriter } from './group-commit.ts';
import { applyMigrations } from './migrations.ts';
import { SqliteMembers, SqliteProjects } from './projects.ts';
import { ReadStatements, Statements } from './rows.ts';
import { SqliteRunnerTokens } from './runner-tokens.ts';
import { SqliteTasks } from './tasks.ts';
import { SqliteTurns } from './turns.ts';

export const SQLITE_FILE_NAME = 'brabo.sqlite';

/** Transactions after which WAL checkpoints move to their worker thread (checkpointer.ts). */
const CHECKPOINTER_AFTER = 100;

function repositories(sql: Statements): Repositories {
  return {
    projects: new SqliteProjects(sql),
    members: new SqliteMembers(sql),
    autonomy: new SqliteAgentAutonomy(sql),
    actions: new SqliteActions(sql),
    events: new SqliteEvents(sql),
    containers: new SqliteContainers(sql),
    handoffs: new SqliteHandoffs(sql),
    dispatches: new SqliteDispatches(sql),
    turns: new SqliteTurns(sql),
    merges: new SqliteMerges(sql),
    tasks: new SqliteTasks(sql),
    runnerTokens: new SqliteRunnerTokens(sql),
  };
}

export class SqliteStore implements Store {
  readonly read: Repositories;
  readonly runnerTokens: RunnerTokenRepository;
  readonly #writer: DatabaseSync;
  readonly #reader: DatabaseSync;
  readonly #writes: GroupCommitWriter;
  readonly #file: string;
  /** Started by the CHECKPOINTER_AFTER-th transaction: short-lived stores (CLI, tests) never need it. */
  #checkpointer: Checkpointer | null = null;
  #transactions = 0;
  #closed = false;

  constructor(file: string) {
    this.#writer = new DatabaseSync(file);
    this.#writer.exec('PRAGMA journal_mode = WAL');
    this.#writer.exec('PRAGMA synchronous = FULL');
    this.#writer.exec('PRAGMA busy_timeout = 5000');
    this.#writer.exec('PRAGMA foreign_keys = ON');
    this.#writer.exec(`PRAGMA wal_autocheckpoint = ${WRITER_AUTOCHECKPOINT_PAGES}`);
    applyMigrations(this.#writer);
    this.#reader = new DatabaseSync(file, { readOnly: true });
    this.#file = file;
    this.#reader.exec('PRAGMA busy_timeout = 5000');
    this.#writes = new GroupCommitWriter(this.#writer, repositories(new Statements(this.#writer)));
    this.read = repositories(new ReadStatements(this.#reader, this.#writer));
    this.runnerTokens = runnerTokensOf(this);
  }

  transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new StoreClosedError());
    if (++this.#transactions === CHECKPOINTER_AFTER) this.#checkpointer = new Checkpointer(this.#file);
    return this.#writes.submit(work);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#writes.idle();
    await this.#checkpointer?.close();
    this.#reader.close();
    this.#writer.close();
  }
}

/** Opens (creating if needed) the embedded store in `dataDir` and applies pending migrations. */
export function openSqliteStore(dataDir: string): SqliteStore {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return new SqliteStore(join(dataDir, SQLITE_FILE_NAME));
}
