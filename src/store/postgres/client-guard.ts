// Every session a pg.Pool opens gets a permanent 'error' listener, for its whole life.
//
// Why: pg-pool listens on a session only while it is idle. Handing a session to a waiter removes
// that listener, and the waiter attaches its own only when its promise continuation runs. When the
// release that hands it over happens inside the session's own socket read (pool.query's callback
// runs in the parser loop), the rest of that read is parsed first: a backend terminated right
// after its last answer puts the FATAL 57P01 in that same read, and with no listener it is an
// unhandled 'error' that kills the process (seen under the chaos suite's load, 2 in 911 kills).
// A lost session also makes its query reject and is dropped by the pool on release, so the
// listener only has to report.
import type pg from 'pg';

export function guardPoolClients(pool: pg.Pool, onLost: (err: Error) => void): pg.Pool {
  pool.on('connect', (client) => {
    client.on('error', onLost);
  });
  return pool;
}
