// External executors (issue 15.1): approved git, PR and plan actions are claimed by an executor
// with its own credential, and its report settles them, wakes the agent (RN-073), records a
// merge (RN-628) and never loses a truthful report. Runs on SQLite and Postgres (vitest projects).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AFTER_EVERY_LEASE, type ExecutorFixture, executorFixture } from './executor-support.ts';

let f: ExecutorFixture;
beforeEach(async () => {
  f = await executorFixture();
});
afterEach(async () => f.t.close());

const executors = () => {
  const service = f.t.app.execution?.dispatcher.executors;
  if (!service) throw new Error('the execution side is not running');
  return service;
};

describe('external executors', () => {
  it('RN-073: an approved git_push waits queued for an executor; its report settles the action and ends the turn', async () => {
    const actionId = await f.approved('git_push', { branch: 'feature/x' });
    const before = await f.t.call('GET', `/api/actions/${actionId}/settlement`);
    expect(before.body).toMatchObject({
      state: 'executing',
      turn: { state: 'awaiting_approval' },
      waiting: { for: 'external_executor' },
    });
    expect(before.body.waiting.message).toContain('With no executor attached it never runs');

    const claimed = await f.claim('git_push');
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({
      actionId,
      attempt: 1,
      actionType: 'git_push',
      payload: { branch: 'feature/x' },
    });
    const claimedView = await f.t.call('GET', `/api/actions/${actionId}/settlement`);
    expect(claimedView.body.waiting).toMatchObject({ for: 'executor_report' });
    // The agent's long-poll is waiting when the report lands: it is woken with the settlement.
    const waiting = f.t.call('GET', `/api/actions/${actionId}/settlement?wait=30`);
    const report = await f.report('git_push', claimed.body.dispatchId, {
      attempt: 1,
      status: 'executed',
      output: 'pushed feature/x to origin',
      detail: { commit: 'abc123' },
    });
    expect(report).toMatchObject({ status: 200, body: { recorded: 'settled', state: 'executed' } });
    const woken = await waiting;
    expect(woken.body).toMatchObject({
      state: 'settled',
      settlement: { status: 'executed', result: { stdout: 'pushed feature/x to origin' } },
      turn: { state: 'settled' },
      waiting: null,
    });
    expect(await f.events('action.claimed', actionId)).toHaveLength(1);
    const executed = await f.events('action.executed', actionId);
    expect(executed).toHaveLength(1);
    expect(executed[0]?.payload).toMatchObject({
      origin: 'executor',
      executor: { name: 'git-bot', credentialId: f.executor.id },
      detail: { commit: 'abc123' },
    });
    // Nothing is left to claim.
    expect((await f.claim('git_push')).status).toBe(204);
  });

  it('RN-073: a failed report is the agent answer, with its code and sentence', async () => {
    const actionId = await f.approved('pr_open', { title: 'Checkout' });
    const claimed = await f.claim('pr_open');
    const message = 'GitHub refused the PR: the branch feature/x does not exist on origin; push it first.';
    expect(
      (
        await f.report('pr_open', claimed.body.dispatchId, {
          attempt: 1,
          status: 'failed',
          code: 'branch_missing',
          message,
        })
      ).body,
    ).toEqual({ recorded: 'settled', state: 'failed' });
    const settlement = await f.t.call('GET', `/api/actions/${actionId}/settlement`);
    expect(settlement.body).toMatchObject({
      state: 'settled',
      settlement: { status: 'failed', reason: { code: 'branch_missing', message } },
      turn: { state: 'settled' },
    });
  });

  it('RN-082: the executor receives the workspace owner credential, never the approver', async () => {
    const actionId = await f.approved('git_push', { branch: 'main' });
    const claimed = await f.claim('git_push');
    expect(claimed.body).toMatchObject({ actionId, credentialRef: 'owner:olivia', decidedBy: 'max' });
    expect(claimed.body.credentialRef).not.toContain('max');
  });

  it('RN-628: a git_merge report makes the task done once; the merged PR is refused with pr_ja_mergeado', async () => {
    const task = await f.t.call('POST', `/api/projects/${f.projectId}/tasks`, { title: 'checkout', prNumber: 7 });
    const actionId = await f.approved('git_merge', { branch: 'feature/x', prNumber: 7 });
    const claimed = await f.claim('git_merge');
    await f.report('git_merge', claimed.body.dispatchId, { attempt: 1, status: 'executed', detail: { merged: true } });
    expect((await f.t.call('GET', `/api/tasks/${task.body.id}`)).body.status).toBe('done');
    expect(await f.events('backlog.task_status_changed')).toEqual([
      expect.objectContaining({ actionId, payload: expect.objectContaining({ taskId: task.body.id, to: 'done' }) }),
    ]);
    const again = await f.t.call('POST', `/api/projects/${f.projectId}/actions`, {
      agentId: 'agent-lead',
      actionType: 'git_merge',
      payload: { branch: 'feature/x', prNumber: 7 },
    });
    expect(again).toMatchObject({ status: 409, body: { error: 'pr_ja_mergeado' } });
    // The same report again changes nothing: no second task move.
    expect(
      (await f.report('git_merge', claimed.body.dispatchId, { attempt: 1, status: 'executed' })).body.recorded,
    ).toBe('duplicate');
    expect(await f.events('backlog.task_status_changed')).toHaveLength(1);
  });

  it('RN-628: a failed git_merge releases the PR, so a retry can be proposed; the task is not done', async () => {
    const task = await f.t.call('POST', `/api/projects/${f.projectId}/tasks`, { title: 'checkout', prNumber: 8 });
    await f.approved('git_merge', { branch: 'feature/y', prNumber: 8 });
    const claimed = await f.claim('git_merge');
    await f.report('git_merge', claimed.body.dispatchId, {
      attempt: 1,
      status: 'failed',
      code: 'merge_conflict',
      message: 'PR #8 has conflicts with main; rebase feature/y and propose the merge again.',
    });
    expect((await f.t.call('GET', `/api/tasks/${task.body.id}`)).body.status).not.toBe('done');
    expect(await f.approved('git_merge', { branch: 'feature/y', prNumber: 8 })).toEqual(expect.any(String));
  });

  it('a claim that outlives its lease becomes outcome_unknown, is never offered again, and its late report replaces it', async () => {
    const task = await f.t.call('POST', `/api/projects/${f.projectId}/tasks`, { title: 'late', prNumber: 9 });
    const actionId = await f.approved('git_merge', { branch: 'feature/z', prNumber: 9 });
    const claimed = await f.claim('git_merge');
    expect(await executors().expireLeases(AFTER_EVERY_LEASE())).toBe(1);

    const unknown = await f.t.call('GET', `/api/actions/${actionId}/settlement`);
    expect(unknown.body).toMatchObject({
      state: 'settled',
      settlement: { status: 'failed', reason: { code: 'outcome_unknown' } },
      turn: { state: 'settled' },
    });
    expect(unknown.body.settlement.reason.message).toContain('may have acted');
    expect((await f.claim('git_merge')).status).toBe(204); // never re-offered: it may have merged
    // The merge may have happened: the PR stays held until the truth arrives.
    const retry = await f.t.call('POST', `/api/projects/${f.projectId}/actions`, {
      agentId: 'agent-lead',
      actionType: 'git_merge',
      payload: { branch: 'feature/z', prNumber: 9 },
    });
    expect(retry.body.error).toBe('merge_ja_proposto');

    const late = await f.report('git_merge', claimed.body.dispatchId, { attempt: 1, status: 'executed' });
    expect(late.body).toEqual({ recorded: 'replaced_outcome_unknown', state: 'executed' });
    const settled = await f.t.call('GET', `/api/actions/${actionId}/settlement`);
    expect(settled.body.settlement).toMatchObject({ status: 'executed' });
    expect((await f.t.call('GET', `/api/tasks/${task.body.id}`)).body.status).toBe('done');
    const recorded = await f.events('action.executed', actionId);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]?.payload.resolves).toBe('outcome_unknown');
    // Sent again (a lost answer): one report, one event.
    expect(
      (await f.report('git_merge', claimed.body.dispatchId, { attempt: 1, status: 'executed' })).body.recorded,
    ).toBe('duplicate');
    expect(await f.events('action.executed', actionId)).toHaveLength(1);
    expect(await f.events('action.failed', actionId)).toHaveLength(1); // the outcome_unknown, kept in the log
  });

  it('a lease extended by the executor is not expired at its first end', async () => {
    await f.approved('git_push', { branch: 'long' });
    const claimed = await f.claim('git_push', undefined, 'wait=0&leaseSeconds=60');
    const extended = await f.t.callAs(
      f.executor.token,
      'POST',
      `/api/executors/git_push/dispatches/${claimed.body.dispatchId}/extend`,
      { attempt: 1, leaseSeconds: 3600 },
    );
    expect(extended.status).toBe(200);
    expect(Date.parse(extended.body.leaseUntil)).toBeGreaterThan(Date.parse(claimed.body.leaseUntil));
    expect(await executors().expireLeases(new Date(Date.parse(claimed.body.leaseUntil) + 1_000))).toBe(0);
    expect(
      (await f.report('git_push', claimed.body.dispatchId, { attempt: 1, status: 'executed' })).body.recorded,
    ).toBe('settled');
  });

  it('a long-poll claim is answered by an approval that arrives while it waits', async () => {
    const waiting = f.claim('open_adr_pr', undefined, 'wait=30');
    const actionId = await f.approved('open_adr_pr', { title: 'ADR 0200' });
    const claimed = await waiting;
    expect(claimed).toMatchObject({ status: 200, body: { actionId } });
  });

  it('counted outcomes: 12 approved actions, 3 executors claiming at once: 12 claims, 12 outcomes, no duplicate', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 12; i += 1) ids.add(await f.approved('git_push', { branch: `b${i}` }));
    const tokens = [
      f.executor.token,
      ...(await Promise.all([1, 2].map((n) => f.t.mint({ kind: 'executor', name: `bot-${n}` })))).map((m) => m.token),
    ];
    const done: string[] = [];
    await Promise.all(
      tokens.map(async (token) => {
        for (;;) {
          const claimed = await f.claim('git_push', token);
          if (claimed.status === 204) return;
          const r = await f.report(
            'git_push',
            claimed.body.dispatchId,
            { attempt: claimed.body.attempt, status: 'executed' },
            token,
          );
          expect(r.body.recorded).toBe('settled');
          done.push(claimed.body.actionId);
        }
      }),
    );
    expect(done.sort()).toEqual([...ids].sort());
    expect(await f.events('action.claimed')).toHaveLength(12);
    expect(await f.events('action.executed')).toHaveLength(12);
    expect(await f.events('action.late_result')).toHaveLength(0);
  });

  it('counted outcomes with executors that vanish: 10 claimed, 4 reported in time, 6 expire, 3 of those report late', async () => {
    const claims: Array<{ actionId: string; dispatchId: string }> = [];
    for (let i = 0; i < 10; i += 1) {
      await f.approved('git_push', { branch: `v${i}` });
      const claimed = await f.claim('git_push');
      claims.push({ actionId: claimed.body.actionId, dispatchId: claimed.body.dispatchId });
    }
    const acted = new Set<string>(); // what "really happened": the executor acted on these
    for (const c of claims.slice(0, 4)) {
      acted.add(c.actionId);
      await f.report('git_push', c.dispatchId, { attempt: 1, status: 'executed' });
    }
    expect(await executors().expireLeases(AFTER_EVERY_LEASE())).toBe(6);
    for (const c of claims.slice(4, 7)) {
      acted.add(c.actionId);
      expect((await f.report('git_push', c.dispatchId, { attempt: 1, status: 'executed' })).body.recorded).toBe(
        'replaced_outcome_unknown',
      );
    }
    const outcomes = await Promise.all(
      claims.map(async (c) => (await f.t.call('GET', `/api/actions/${c.actionId}`)).body.execution),
    );
    // Never "not run" for one that acted; never "executed" for one nobody reported.
    for (const [i, c] of claims.entries()) {
      if (acted.has(c.actionId)) expect(outcomes[i].status, c.actionId).toBe('executed');
      else expect(outcomes[i].outcome, c.actionId).toMatchObject({ code: 'outcome_unknown' });
    }
    expect(await f.events('action.claimed')).toHaveLength(10);
    expect(await f.events('action.executed')).toHaveLength(7);
    expect(await f.events('action.failed')).toHaveLength(6);
    expect(await f.events('action.late_result')).toHaveLength(0);
    expect((await f.claim('git_push')).status).toBe(204); // none is offered again
  });
});
