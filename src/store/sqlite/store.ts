// The embedded store: one SQLite file in the data dir, WAL, synchronous=FULL (a commit is on disk
// when transaction() resolves). One writer connection whose units of work run one at a time and
// are group-committed (group-commit.ts), one read-only connection that sees committed data only;
// reads use the writer's warm cache while it holds no transaction (rows.ts ReadStatements), and a
// worker thread checkpoints the WAL (checkpointer.ts).
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { StoreClosedError, StoreCorruptError } from '../errors.ts';
import { SqlCredentials } from '../credentials.ts';
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
    credentials: new SqlCredentials(sql),
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
    // Node 22.5 to 22.11 ignore { readOnly }: query_only makes this connection refuse writes there too.
    this.#reader.exec('PRAGMA query_only = ON');
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

/**
 * Opens (creating if needed) the embedded store in `dataDir` and applies pending migrations. A
 * file SQLite cannot use (corrupted, not a database, unreadable) is StoreCorruptError naming the
 * path and what to do; so is a zero-length file in a data dir that holds anything else (a store
 * that was emptied must not silently become a new, empty one).
 */
export function openSqliteStore(dataDir: string): SqliteStore {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, SQLITE_FILE_NAME);
  if (existsSync(file) && statSync(file).size === 0 && !isNewDataDir(dataDir)) {
    throw new StoreCorruptError(
      file,
      'is empty (zero bytes) although the data directory is not new: the database was truncated or replaced',
    );
  }
  if (existsSync(file) && statSync(file).size > 0 && !hasSqliteHeader(file)) {
    // SQLite would overwrite a file shorter than its header as a new database: refuse before it opens.
    throw new StoreCorruptError(
      file,
      'cannot be read as a SQLite database (it does not start with the SQLite header: truncated or not a database)',
    );
  }
  try {
    return new SqliteStore(file);
  } catch (error) {
    if (isUnusableFile(error))
      throw new StoreCorruptError(file, `cannot be read as a SQLite database (${(error as Error).message})`, {
        cause: error,
      });
    throw error;
  }
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

function hasSqliteHeader(file: string): boolean {
  const head = Buffer.alloc(SQLITE_HEADER.length);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw new StoreCorruptError(file, `cannot be read (${(error as Error).message})`, { cause: error });
  }
  try {
    return readSync(fd, head, 0, head.length, 0) === head.length && head.equals(SQLITE_HEADER);
  } finally {
    closeSync(fd);
  }
}

/** Nothing in the data dir but the store's own files (a first start that died before writing). */
function isNewDataDir(dataDir: string): boolean {
  return readdirSync(dataDir).every((name) => name.startsWith(SQLITE_FILE_NAME));
}

/** SQLite's primary result codes for a file it cannot use: IOERR 10, CORRUPT 11, CANTOPEN 14, NOTADB 26 (and read-only/permission 8, 23). */
const UNUSABLE_FILE_CODES: ReadonlySet<number> = new Set([8, 10, 11, 14, 23, 26]);

function isUnusableFile(error: unknown): boolean {
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  return typeof errcode === 'number' && UNUSABLE_FILE_CODES.has(errcode & 0xff);
}
