// External executors under attack and misuse: wrong type, wrong credential kind or claimant,
// stale attempts, double reports and reports after the lease ran out. Each refusal is a named
// code, nothing is settled by a refused call, and every truthful report lands exactly once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../http/helpers.ts';
import { AFTER_EVERY_LEASE, type ExecutorFixture, executorFixture } from './executor-support.ts';

let f: ExecutorFixture;
beforeEach(async () => {
  f = await executorFixture();
});
afterEach(async () => f.t.close());

/** An approved git_push claimed by git-bot (with a lease of `leaseSeconds`, else the default). */
async function claimedPush(leaseSeconds?: number): Promise<{ actionId: string; dispatchId: string }> {
  const actionId = await f.approved('git_push', { branch: 'x' });
  const claimed = await f.claim('git_push', undefined, leaseSeconds ? `wait=0&leaseSeconds=${leaseSeconds}` : 'wait=0');
  expect(claimed.status).toBe(200);
  return { actionId, dispatchId: claimed.body.dispatchId };
}

const dispatchOf = async (actionId: string) => (await f.t.call('GET', `/api/actions/${actionId}`)).body.execution;

describe('wrong type', () => {
  it.each([
    ['terminal', 'not_an_executor_type'],
    ['container_start', 'not_an_executor_type'],
    ['container_stop', 'not_an_executor_type'],
    ['container_remove', 'not_an_executor_type'],
    ['bogus', 'not_an_executor_type'],
    ['GIT_PUSH', 'not_an_executor_type'],
    ['git_push%20', 'not_an_executor_type'],
    ['git_push%3Brm', 'not_an_executor_type'],
    ['..%2F..%2Fapi', 'not_an_executor_type'],
    ['__proto__', 'not_an_executor_type'],
    ['constructor', 'not_an_executor_type'],
    ['x'.repeat(65), 'invalid_request'],
  ])('claiming type %s is refused with %s and claims nothing', async (type, code) => {
    await f.approved('git_push', { branch: 'x' });
    const r = await f.claim(type);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(code);
    expect((await f.events('action.claimed')).length).toBe(0);
  });

  it.each(['pr_open', 'git_merge', 'git_commit', 'open_adr_pr', 'spend'])(
    'a git_push dispatch reported on the %s route is refused dispatch_type_mismatch and stays in flight',
    async (type) => {
      const { actionId, dispatchId } = await claimedPush();
      const r = await f.report(type, dispatchId, { attempt: 1, status: 'executed' });
      expect(r).toMatchObject({ status: 409, body: { error: 'dispatch_type_mismatch' } });
      expect((await dispatchOf(actionId)).status).toBe('dispatched');
    },
  );
});

describe('wrong credential', () => {
  it('every other kind is refused on the three executor routes with a named 403', async () => {
    const { dispatchId } = await claimedPush();
    const others: Array<[string, string, string]> = [
      ['admin', ADMIN_TOKEN, 'executor_token_required'],
      ['service', f.t.serviceToken, 'executor_token_required'],
      ['human', (await f.t.mint({ kind: 'human', memberId: 'olivia' })).token, 'executor_token_required'],
      [
        'agent',
        (await f.t.mint({ kind: 'agent', projectId: f.projectId, agentId: 'agent-lead' })).token,
        'executor_token_required',
      ],
      ['runner', (await f.t.mint({ kind: 'runner', projectId: f.projectId })).token, 'runner_token_socket_only'],
    ];
    let refusals = 0;
    for (const [, token, code] of others) {
      for (const [url, body] of [
        ['/api/executors/git_push/claim?wait=0', undefined],
        [`/api/executors/git_push/dispatches/${dispatchId}/report`, { attempt: 1, status: 'executed' }],
        [`/api/executors/git_push/dispatches/${dispatchId}/extend`, { attempt: 1 }],
      ] as const) {
        const r = await f.t.callAs(token, 'POST', url, body);
        expect(r.status).toBe(403);
        expect(r.body.error).toBe(code);
        refusals += 1;
      }
    }
    expect(refusals).toBe(15);
    expect(await f.events('action.executed')).toHaveLength(0);
  });

  it.each([
    ['POST', '/api/projects/:p/actions', { agentId: 'agent-lead', actionType: 'git_push', payload: {} }],
    ['POST', '/api/actions/:a/approve', { userId: 'max' }],
    ['POST', '/api/actions/:a/deny', { userId: 'max', reason: 'x' }],
    ['GET', '/api/actions/:a', undefined],
    ['GET', '/api/actions/:a/settlement', undefined],
    ['GET', '/api/projects/:p/events', undefined],
    ['PUT', '/api/projects/:p/permissions', { userId: 'olivia', allow: ['GitPush()'], deny: [], ask: [] }],
    [
      'PUT',
      '/api/projects/:p/agent-autonomy',
      { userId: 'olivia', agentId: 'agent-lead', actionType: 'git_push', mode: 'auto_approve' },
    ],
    ['GET', '/api/console/queue', undefined],
  ] as const)('an executor token may not call %s %s (executor_token_scope)', async (method, template, body) => {
    const pending = await f.t.call('POST', `/api/projects/${f.projectId}/actions`, {
      agentId: 'agent-lead',
      actionType: 'pr_open',
      payload: {},
    });
    const url = template.replace(':p', f.projectId).replace(':a', pending.body.id);
    const r = await f.t.callAs(f.executor.token, method, url, body);
    expect(r).toMatchObject({ status: 403, body: { error: 'executor_token_scope' } });
    expect((await f.t.call('GET', `/api/actions/${pending.body.id}`)).body.status).toBe('pending');
  });

  it('an executor token cannot mint credentials (provisioning)', async () => {
    const r = await f.t.callAs(f.executor.token, 'POST', '/api/credentials', { kind: 'executor', name: 'more' });
    expect(r).toMatchObject({ status: 403, body: { error: 'executor_token_scope' } });
  });

  it('another executor credential cannot report or extend the claim (not_claimant)', async () => {
    const { actionId, dispatchId } = await claimedPush();
    const other = await f.t.mint({ kind: 'executor', name: 'rogue' });
    const report = await f.report('git_push', dispatchId, { attempt: 1, status: 'executed' }, other.token);
    expect(report).toMatchObject({ status: 403, body: { error: 'not_claimant' } });
    const extend = await f.t.callAs(other.token, 'POST', `/api/executors/git_push/dispatches/${dispatchId}/extend`, {
      attempt: 1,
    });
    expect(extend).toMatchObject({ status: 403, body: { error: 'not_claimant' } });
    expect((await dispatchOf(actionId)).status).toBe('dispatched');
  });

  it('an executor bound to another project neither claims nor reports this project', async () => {
    const other = await f.t.call('POST', '/api/projects', {
      name: 'Other',
      executionMode: 'container',
      ownerId: 'quinn',
    });
    const bound = await f.t.mint({ kind: 'executor', name: 'other-bot', projectId: other.body.id });
    await f.approved('git_push', { branch: 'x' });
    expect((await f.claim('git_push', bound.token)).status).toBe(204);
    const { dispatchId } = await claimedPush();
    const r = await f.report('git_push', dispatchId, { attempt: 1, status: 'executed' }, bound.token);
    expect(r).toMatchObject({ status: 404, body: { error: 'unknown_dispatch' } });
  });

  it('a revoked or expired executor token is 401 with a named code', async () => {
    await f.approved('git_push', { branch: 'x' });
    const revoked = await f.t.mint({ kind: 'executor', name: 'old-bot' });
    await f.t.callAs(ADMIN_TOKEN, 'DELETE', `/api/credentials/${revoked.id}`);
    expect((await f.claim('git_push', revoked.token)).body.error).toBe('credential_revoked');
    expect((await f.claim('git_push', 'brabo_executor_not-a-real-token')).status).toBe(401);
    expect(await f.events('action.claimed')).toHaveLength(0);
  });
});

describe('attempts, repeats and late reports', () => {
  it('stale attempts are refused stale_attempt, kept once each as action.late_result, and the real report still settles', async () => {
    const { actionId, dispatchId } = await claimedPush();
    for (const attempt of [2, 3, 99, 2, 3]) {
      const r = await f.report('git_push', dispatchId, { attempt, status: 'executed' });
      expect(r).toMatchObject({ status: 409, body: { error: 'stale_attempt', recorded: 'late_result' } });
    }
    expect(await f.events('action.late_result', actionId)).toHaveLength(3);
    expect((await f.report('git_push', dispatchId, { attempt: 0, status: 'executed' })).body.error).toBe(
      'invalid_request',
    );
    expect((await f.report('git_push', dispatchId, { attempt: 1, status: 'executed' })).body.recorded).toBe('settled');
    expect(await f.events('action.executed', actionId)).toHaveLength(1);
  });

  it('a report for a dispatch never claimed is refused stale_attempt and settles nothing', async () => {
    const actionId = await f.approved('git_push', { branch: 'x' });
    const dispatch = await f.t.app.store.read.dispatches.getByAction(actionId);
    const r = await f.report('git_push', dispatch?.id ?? '', { attempt: 1, status: 'executed' });
    expect(r).toMatchObject({ status: 409, body: { error: 'stale_attempt' } });
    expect((await f.claim('git_push')).body.actionId).toBe(actionId); // still offered
  });

  it('double report: the same report twice is one outcome; a contradicting one is one late_result, then nothing', async () => {
    const { actionId, dispatchId } = await claimedPush();
    const executed = { attempt: 1, status: 'executed' };
    expect((await f.report('git_push', dispatchId, executed)).body.recorded).toBe('settled');
    expect((await f.report('git_push', dispatchId, executed)).body.recorded).toBe('duplicate');
    const contradicting = { attempt: 1, status: 'failed', code: 'provider_down', message: 'GitHub answered 502.' };
    for (let i = 0; i < 3; i += 1) {
      const r = await f.report('git_push', dispatchId, contradicting);
      expect(r).toMatchObject({ status: 409, body: { error: 'dispatch_settled' } });
    }
    expect(await f.events('action.executed', actionId)).toHaveLength(1);
    expect(await f.events('action.failed', actionId)).toHaveLength(0);
    expect(await f.events('action.late_result', actionId)).toHaveLength(1);
    expect((await dispatchOf(actionId)).status).toBe('executed');
  });

  it('a failed report after the lease ran out replaces outcome_unknown with that failure', async () => {
    const { actionId, dispatchId } = await claimedPush();
    const service = f.t.app.execution?.dispatcher.executors;
    expect(await service?.expireLeases(AFTER_EVERY_LEASE())).toBe(1);
    expect((await dispatchOf(actionId)).outcome).toMatchObject({
      code: 'outcome_unknown',
      detail: { cause: 'executor_lease_expired' },
    });
    const extend = await f.t.callAs(
      f.executor.token,
      'POST',
      `/api/executors/git_push/dispatches/${dispatchId}/extend`,
      {
        attempt: 1,
      },
    );
    expect(extend).toMatchObject({ status: 409, body: { error: 'dispatch_settled' } });
    const r = await f.report('git_push', dispatchId, {
      attempt: 1,
      status: 'failed',
      code: 'push_rejected',
      message: 'origin rejected the push (non-fast-forward); rebase and propose again.',
    });
    expect(r.body).toEqual({ recorded: 'replaced_outcome_unknown', state: 'failed' });
    expect((await dispatchOf(actionId)).outcome).toMatchObject({ code: 'push_rejected', origin: 'executor' });
    // Expiring again finds nothing: the lease sweep never touches a settled dispatch.
    expect(await service?.expireLeases(AFTER_EVERY_LEASE())).toBe(0);
  });

  it('issue 10.6: no lease is expired before one grace window after the gateway started, however old it is', async () => {
    await f.t.close();
    f = await executorFixture({ runnerGraceMs: 120_000 });
    const { actionId } = await claimedPush(1);
    const service = f.t.app.execution?.dispatcher.executors;
    if (!service) throw new Error('no execution side');
    const leaseEnded = await f.t.app.store.read.dispatches.getByAction(actionId);
    expect(Date.parse(leaseEnded?.leaseUntil ?? '')).toBeLessThan(service.graceEndsAt - 1_000);
    expect(await service.expireLeases(new Date(service.graceEndsAt - 1_000))).toBe(0);
    expect((await dispatchOf(actionId)).status).toBe('dispatched');
    expect(await service.expireLeases(new Date(service.graceEndsAt + 1_000))).toBe(1);
    expect((await dispatchOf(actionId)).outcome).toMatchObject({ code: 'outcome_unknown' });
  });

  it.each([
    [{ attempt: 1, status: 'failed' }],
    [{ attempt: 1, status: 'failed', code: 'x_failed' }],
    [{ attempt: 1, status: 'failed', message: 'it broke' }],
    [{ attempt: 1, status: 'failed', code: 'Not Snake', message: 'it broke' }],
    [{ attempt: 1, status: 'failed', code: 'x_failed', message: '   ' }],
  ])('a failed report without a snake_case code and a sentence is refused (%j) and settles nothing', async (body) => {
    const { actionId, dispatchId } = await claimedPush();
    const r = await f.report('git_push', dispatchId, body);
    expect(r.status).toBe(400);
    expect(['failure_needs_code_and_message', 'invalid_request']).toContain(r.body.error);
    expect((await dispatchOf(actionId)).status).toBe('dispatched');
  });
});
