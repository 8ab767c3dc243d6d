// /readyz: 200 only when every part the node needs answers; otherwise 503 naming the part, its
// code and what to do. /healthz keeps answering (liveness is not readiness).
import { afterEach, describe, expect, it } from 'vitest';
import { createReadiness } from '../../src/http/readiness.ts';
import type { Store } from '../../src/store/types.ts';
import { startTestApp, type TestApp } from '../http/helpers.ts';

function storeWith(get: () => Promise<unknown>): Pick<Store, 'read'> {
  return { read: { projects: { get } } } as unknown as Pick<Store, 'read'>;
}

describe('createReadiness', () => {
  it('is ready when the store answers and Docker is off (no docker check at all)', async () => {
    const report = await createReadiness({ store: storeWith(async () => null), docker: null })();
    expect(report).toEqual({ status: 'ready', checks: [{ name: 'store', ok: true }] });
  });

  it('names the store with its error code when a read fails, and the Docker check still runs', async () => {
    const failing = storeWith(async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    });
    const report = await createReadiness({ store: failing, docker: async () => ({ ok: true, value: [] }) })();
    expect(report.status).toBe('not_ready');
    expect(report.checks).toEqual([
      { name: 'store', ok: false, code: 'ECONNREFUSED', message: expect.stringContaining('check the database') },
      { name: 'docker', ok: true },
    ]);
  });

  it('a store that hangs is not ready after the timeout (store_timeout), not a hung probe', async () => {
    const hanging = storeWith(() => new Promise(() => {}));
    const report = await createReadiness({ store: hanging, docker: null, timeoutMs: 50 })();
    expect(report.checks[0]).toMatchObject({ name: 'store', ok: false, code: 'store_timeout' });
  });

  it.each([
    [
      'a broker failure result',
      async () => ({
        ok: false as const,
        failure: { code: 'broker_unavailable' as const, message: 'connect ENOENT /var/run/docker.sock' },
      }),
      'broker_unavailable',
    ],
    ['a thrown error', async () => Promise.reject(new Error('socket hang up')), 'broker_unavailable'],
    ['no answer in time', () => new Promise<never>(() => {}), 'broker_unavailable'],
  ])('Docker enabled and failing (%s): 503 names docker', async (_what, docker, code) => {
    const report = await createReadiness({ store: storeWith(async () => null), docker, timeoutMs: 50 })();
    expect(report.status).toBe('not_ready');
    expect(report.checks[1]).toMatchObject({ name: 'docker', ok: false, code });
    expect(report.checks[1]?.message).toMatch(/\S/);
  });
});

describe('GET /readyz on a real app', () => {
  let t: TestApp | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
  });

  it('answers 200 without a token while the store answers, and 503 naming the store once it is closed', async () => {
    t = await startTestApp();
    const ready = await t.app.http.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: [{ name: 'store', ok: true }] });
    await t.app.store.close();
    const down = await t.app.http.inject({ method: 'GET', url: '/readyz' });
    expect(down.statusCode).toBe(503);
    expect(down.json().checks[0]).toMatchObject({ name: 'store', ok: false });
    expect((await t.app.http.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});
