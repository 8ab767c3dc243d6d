// A session a pool handed out has an 'error' listener even before its holder attaches one
// (client-guard.ts): a backend terminated then is reported, never an unhandled 'error' that kills
// the process, and the pool opens a new session for the next query.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { guardPoolClients } from '../../src/store/postgres/client-guard.ts';
import { POSTGRES_TEST_URL, quiet } from './contract-postgres.ts';

const admin = quiet(new pg.Pool({ connectionString: POSTGRES_TEST_URL, max: 1 }));
afterAll(() => admin.end());

describe('pool sessions always have an error listener', () => {
  it('3 checked-out sessions with no listener of their own, their backends terminated: 3 reported, none unhandled, the pool carries on', async () => {
    const lost: Error[] = [];
    const pool = guardPoolClients(
      new pg.Pool({ connectionString: POSTGRES_TEST_URL, max: 3 }),
      (err) => void lost.push(err),
    );
    pool.on('error', () => {}); // idle sessions: pg-pool's own listener (not what this test is about)
    try {
      const clients = await Promise.all([pool.connect(), pool.connect(), pool.connect()]);
      for (const client of clients) expect(client.listenerCount('error')).toBeGreaterThan(0);
      const pids = await Promise.all(
        clients.map(async (client) => Number((await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid)),
      );
      // (events.once would reject on the 'error' this test expects; only the end is awaited)
      const ended = clients.map((client) => new Promise((resolve) => client.once('end', resolve)));
      const { rowCount } = await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids]);
      expect(rowCount).toBe(3);
      await Promise.all(ended);
      // One report per session at least (the FATAL 57P01, and the connection's end after it).
      expect(new Set(lost.map((err) => (err as { code?: string }).code ?? err.message)).has('57P01')).toBe(true);
      expect(lost.length).toBeGreaterThanOrEqual(3);
      for (const client of clients) client.release(true);
      expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });
});
