// External executors, attacked for resource exhaustion: one executor token opened any number of
// claim long-polls (each holds a request and looks at the store on every offer). Now a credential
// holds at most MAX_WAITING_CLAIMS_PER_CREDENTIAL waiting at once; more answer 429
// too_many_waiting_claims at once and wait for nothing, other credentials are not affected, and a
// slot comes back when a waiting claim returns.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_WAITING_CLAIMS_PER_CREDENTIAL } from '../../src/execution/executors.ts';
import { waitUntil } from '../e2e/support.ts';
import { type ExecutorFixture, executorFixture } from './executor-support.ts';

let f: ExecutorFixture;
beforeEach(async () => {
  f = await executorFixture();
});
afterEach(async () => f.t.close());

describe('claim long-polls per executor credential', () => {
  it('beyond the bound every further long-poll is refused 429 at once; another credential still waits; a returned claim frees a slot', async () => {
    const service = f.t.app.execution?.dispatcher.executors;
    if (!service) throw new Error('no execution side');
    const wait = 'wait=60';
    const held = Array.from({ length: MAX_WAITING_CLAIMS_PER_CREDENTIAL }, () => f.claim('git_push', undefined, wait));
    await waitUntil(() => service.waitingClaims === MAX_WAITING_CLAIMS_PER_CREDENTIAL, 'the long-polls to wait');

    const refused = await Promise.all(
      Array.from({ length: 12 }, (_, k) => f.claim(k % 2 === 0 ? 'git_push' : 'pr_open', undefined, wait)),
    );
    expect(refused.map((r) => [r.status, r.body.error])).toEqual(
      Array.from({ length: 12 }, () => [429, 'too_many_waiting_claims']),
    );
    expect(refused[0]!.body.message).toContain(`at most ${MAX_WAITING_CLAIMS_PER_CREDENTIAL}`);
    expect(service.waitingClaims).toBe(MAX_WAITING_CLAIMS_PER_CREDENTIAL);

    const other = await f.t.mint({ kind: 'executor', name: 'pr-bot' });
    const otherWaits = f.claim('pr_open', other.token, wait);
    await waitUntil(() => service.waitingClaims === MAX_WAITING_CLAIMS_PER_CREDENTIAL + 1, 'pr-bot to wait');

    // A claim that finds an action is never limited: one waiting long-poll takes it and returns.
    const actionId = await f.approved('git_push', { branch: 'x' });
    const firstBack = await Promise.race(held);
    expect(firstBack).toMatchObject({ status: 200, body: { actionId } });
    await waitUntil(() => service.waitingClaims === MAX_WAITING_CLAIMS_PER_CREDENTIAL, 'the slot to come back');
    const again = f.claim('git_push', undefined, wait);
    await waitUntil(() => service.waitingClaims === MAX_WAITING_CLAIMS_PER_CREDENTIAL + 1, 'the new long-poll to wait');
    expect((await f.claim('git_push', undefined, wait)).status).toBe(429);

    service.close(); // every waiting long-poll ends with 204
    const ends = await Promise.all([...held, again, otherWaits]);
    expect(ends.filter((r) => r.status === 204).length).toBe(MAX_WAITING_CLAIMS_PER_CREDENTIAL + 1);
    expect(service.waitingClaims).toBe(0);
  });
});
