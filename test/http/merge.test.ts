// git_merge guards and the merge result (RN-628, RN-663 and the "Auto mode" section's last rules).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventsOf, seedProject, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let id: string;

beforeEach(async () => {
  t = await startTestApp();
  ({ id } = await seedProject(t));
});
afterEach(async () => t.close());

const proposeMerge = (prNumber: unknown, extra: object = {}) =>
  t.call('POST', `/api/projects/${id}/actions`, {
    agentId: 'agent-lead',
    actionType: 'git_merge',
    payload: { branch: 'feature/x', prNumber, ...extra },
  });

describe('git_merge', () => {
  it('a live proposal (pending) blocks a second one with 409 merge_ja_proposto; other PRs are unaffected', async () => {
    expect((await proposeMerge(7)).body.status).toBe('pending');
    expect(await proposeMerge(7)).toMatchObject({ status: 409, body: { error: 'merge_ja_proposto' } });
    expect((await proposeMerge(8)).status).toBe(201);
    expect((await t.call('GET', `/api/projects/${id}/actions?status=pending`)).body.actions).toHaveLength(2);
  });

  it('approved and auto-approved proposals are live too', async () => {
    const first = await proposeMerge(7);
    await t.call('POST', `/api/actions/${first.body.id}/approve`, { userId: 'max' });
    expect((await proposeMerge(7)).body.error).toBe('merge_ja_proposto');
    await t.call('PUT', `/api/projects/${id}/agent-autonomy`, {
      userId: 'max',
      agentId: 'agent-lead',
      actionType: 'git_merge',
      mode: 'auto_approve',
    });
    expect((await proposeMerge(9)).body.status).toBe('auto_approved');
    expect((await proposeMerge(9)).body.error).toBe('merge_ja_proposto');
  });

  it('a rejected or failed proposal does not block a retry', async () => {
    const denied = await proposeMerge(7);
    await t.call('POST', `/api/actions/${denied.body.id}/deny`, { userId: 'max', reason: 'QA pending' });
    const retry = await proposeMerge(7);
    expect(retry.status).toBe(201);
    await t.call('POST', `/api/actions/${retry.body.id}/approve`, { userId: 'max' });
    await t.app.actions.recordMergeResult(retry.body.id, false);
    expect((await t.call('GET', `/api/actions/${retry.body.id}`)).body.execution.status).toBe('failed');
    expect((await proposeMerge(7)).status).toBe(201);
  });

  it('RN-628: merged -> the task becomes done once; a merged PR refuses new proposals with pr_ja_mergeado', async () => {
    const task = await t.call('POST', `/api/projects/${id}/tasks`, { title: 'checkout', prNumber: 7 });
    const merge = await proposeMerge(7);
    await t.call('POST', `/api/actions/${merge.body.id}/approve`, { userId: 'max' });
    expect(await t.app.actions.recordMergeResult(merge.body.id, true)).toEqual({
      firstMerge: true,
      taskDone: task.body.id,
    });
    expect((await t.call('GET', `/api/tasks/${task.body.id}`)).body.status).toBe('done');
    expect(await t.app.actions.recordMergeResult(merge.body.id, true)).toEqual({ firstMerge: false, taskDone: null });
    const changed = (await eventsOf(t, id)).filter((e) => e.type === 'backlog.task_status_changed');
    expect(changed).toEqual([
      expect.objectContaining({
        actorKind: 'system',
        payload: expect.objectContaining({ taskId: task.body.id, to: 'done' }),
      }),
    ]);
    expect(await proposeMerge(7)).toMatchObject({ status: 409, body: { error: 'pr_ja_mergeado' } });
  });

  it('approving a pending merge whose PR was merged through another proposal is 409 pr_ja_mergeado and it stays pending', async () => {
    const stale = await proposeMerge(7);
    // The PR got merged by another route (an approved `gh pr merge` the executor reported).
    await t.app.store.transaction((tx) => tx.merges.recordMerged(id, 7, 'other-action', new Date().toISOString()));
    const r = await t.call('POST', `/api/actions/${stale.body.id}/approve`, { userId: 'max' });
    expect(r).toMatchObject({ status: 409, body: { error: 'pr_ja_mergeado' } });
    expect((await t.call('GET', `/api/actions/${stale.body.id}`)).body).toMatchObject({
      status: 'pending',
      execution: null,
    });
    expect((await eventsOf(t, id)).filter((e) => e.type === 'proposed_action.approved')).toHaveLength(0);
  });

  it('a merge into a protected branch is never auto-approved, even in auto mode', async () => {
    await t.call('PUT', `/api/projects/${id}/agent-autonomy`, {
      userId: 'max',
      agentId: 'agent-lead',
      actionType: '*',
      mode: 'auto_approve',
    });
    const r = await t.call('POST', `/api/projects/${id}/actions`, {
      agentId: 'agent-lead',
      actionType: 'git_merge',
      payload: { branch: 'main', prNumber: 3 },
    });
    expect(r.body).toMatchObject({ status: 'pending', reasonCode: 'ceiling_protected_branch_merge' });
  });

  it('a merge without a valid prNumber is a 400 and stores nothing', async () => {
    for (const bad of [undefined, 0, -1, 'seven', 1.5]) {
      expect((await proposeMerge(bad)).body.error).toBe('invalid_payload');
    }
    expect((await t.call('GET', `/api/projects/${id}/actions`)).body.actions).toEqual([]);
  });
});
