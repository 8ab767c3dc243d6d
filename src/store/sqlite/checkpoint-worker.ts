// The checkpointer's thread (see checkpointer.ts): one connection, a PASSIVE checkpoint on a timer.
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

const { file, intervalMs } = workerData as { file: string; intervalMs: number };
const db = new DatabaseSync(file);
// The checkpoint's fsyncs of the WAL and the database file follow this connection's setting.
db.exec('PRAGMA synchronous = FULL');
db.exec('PRAGMA wal_autocheckpoint = 0');

const timer = setInterval(() => {
  try {
    db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  } catch {
    // Transient (the file being closed at shutdown) or fatal for the writer too, whose own
    // commits then fail with the error; the writer's automatic checkpoint remains the safety net.
  }
}, intervalMs);

parentPort?.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(timer);
  db.close();
  parentPort?.close();
});
