// RN-671: accepting the Infra handoff obeys IAM. The Infra agent proposes the start and must
// already be an agent member at or above the minimum; nothing changes a member's role or kind;
// the pre-seed, the `handoff.accepted` event and the proposal land together or not at all.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actions, createActions } from '../../src/actions/index.ts';
import type { ActionDeps } from '../../src/actions/deps.ts';
import type { ActionExecutionPort } from '../../src/actions/ports.ts';
import { createLogger } from '../../src/logger.ts';
import { PermissionsFile } from '../../src/store/permissions-file.ts';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/store.ts';
import type { Repositories, Store } from '../../src/store/types.ts';

let dir: string;
let store: SqliteStore;
/** member.role_changed events written by seeding the members; the accept must add none. */
let memberEventsAtSeed = 0;

/** Every call on a transaction's repositories counts; the `failAt`-th one throws. */
function faultyStore(inner: Store, failAt: number): { store: Store; calls: () => number } {
  let calls = 0;
  const wrap = (tx: Repositories): Repositories =>
    new Proxy(tx, {
      get(target, name) {
        const repo = Reflect.get(target, name) as object;
        return new Proxy(repo, {
          get(r, method) {
            const value = Reflect.get(r, method) as unknown;
            if (typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              calls += 1;
              if (calls === failAt) throw new Error(`injected failure at call ${failAt}`);
              return (value as (...a: unknown[]) => unknown).apply(r, args);
            };
          },
        });
      },
    });
  const wrapped: Store = {
    read: inner.read,
    runnerTokens: inner.runnerTokens,
    transaction: (work) => inner.transaction((tx) => work(wrap(tx))),
    close: () => inner.close(),
  };
  return { store: wrapped, calls: () => calls };
}

function build(over: { store?: Store; execution?: Partial<ActionExecutionPort> } = {}): Actions {
  const deps: ActionDeps = {
    store: over.store ?? store,
    permissionsFile: new PermissionsFile(),
    roots: { projectWorkspacesRoot: join(dir, 'ws'), projectsBase: join(dir, 'pb'), gatewayCheckout: join(dir, 'gw') },
    execution: { notify: () => undefined, ...over.execution },
    observer: { proposed: () => undefined, decided: () => undefined },
    logger: createLogger('silent'),
  };
  return createActions(deps);
}

async function seed(a: Actions, infra: { role: 'developer' | 'maintainer' | 'owner'; kind: 'agent' | 'human' } | null) {
  const project = await a.createProject({ name: 'Handoff', executionMode: 'container', ownerId: 'olivia' });
  await a.setMember(project.id, 'max', 'maintainer', 'human');
  if (infra) await a.setMember(project.id, 'infra', infra.role, infra.kind);
  memberEventsAtSeed = await store.read.events.count(project.id, 'member.role_changed');
  return project;
}

/** What a failed accept must not leave behind. */
async function leftBehind(projectId: string) {
  return {
    autonomy: await store.read.autonomy.get(projectId, 'infra', 'container_start'),
    accepted: await store.read.events.count(projectId, 'handoff.accepted'),
    created: await store.read.events.count(projectId, 'proposed_action.created'),
    roleChanged: (await store.read.events.count(projectId, 'member.role_changed')) - memberEventsAtSeed,
  };
}
const NOTHING = { autonomy: null, accepted: 0, created: 0, roleChanged: 0 };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'brabo-handoff-'));
  store = openSqliteStore(join(dir, 'data'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('RN-671 the Infra handoff obeys IAM', () => {
  it('RN-671 the Infra agent proposes the start, auto-approved by the pre-seed; the accept is the maintainer', async () => {
    const actions = build();
    const project = await seed(actions, { role: 'maintainer', kind: 'agent' });
    const { action } = await actions.acceptInfraHandoff(project.id, 'max');
    expect(action).toMatchObject({ proposerId: 'infra', proposerKind: 'agent', status: 'auto_approved' });
    const events = await store.read.events.listAfter(project.id, 0, 10);
    const accepted = events.find((e) => e.type === 'handoff.accepted');
    const created = events.find((e) => e.type === 'proposed_action.created');
    expect(accepted).toMatchObject({ actorKind: 'user', actorId: 'max' });
    expect(created).toMatchObject({ actorKind: 'agent', actorId: 'infra', actionId: action.id });
    expect(await store.read.members.get(project.id, 'infra')).toMatchObject({ role: 'maintainer', kind: 'agent' });
  });

  it('RN-671 a missing infra agent is refused as infra_agent_missing and is not created', async () => {
    const actions = build();
    const project = await seed(actions, null);
    await expect(actions.acceptInfraHandoff(project.id, 'max')).rejects.toMatchObject({
      code: 'infra_agent_missing',
      message: expect.stringContaining(`PUT /api/projects/${project.id}/members/infra`),
    });
    expect(await store.read.members.get(project.id, 'infra')).toBeNull();
    expect(await leftBehind(project.id)).toEqual(NOTHING);
  });

  it('RN-671 an infra agent below maintainer is refused as infra_agent_below_minimum; its role stays developer', async () => {
    const actions = build();
    const project = await seed(actions, { role: 'developer', kind: 'agent' });
    await expect(actions.acceptInfraHandoff(project.id, 'max')).rejects.toMatchObject({
      code: 'infra_agent_below_minimum',
      detail: { role: 'developer', required: 'maintainer' },
    });
    expect(await store.read.members.get(project.id, 'infra')).toMatchObject({ role: 'developer', kind: 'agent' });
    expect(await leftBehind(project.id)).toEqual(NOTHING);
  });

  it.each(['developer', 'maintainer', 'owner'] as const)(
    'RN-671 a human member named infra (%s) is refused as infra_agent_not_an_agent; kind and role stay',
    async (role) => {
      const actions = build();
      const project = await seed(actions, { role, kind: 'human' });
      await expect(actions.acceptInfraHandoff(project.id, 'max')).rejects.toMatchObject({
        code: 'infra_agent_not_an_agent',
      });
      expect(await store.read.members.get(project.id, 'infra')).toMatchObject({ role, kind: 'human' });
      expect(await leftBehind(project.id)).toEqual(NOTHING);
    },
  );

  it('RN-671 an explicit container_start rule for the infra agent is kept: deny still denies', async () => {
    const actions = build();
    const project = await seed(actions, { role: 'maintainer', kind: 'agent' });
    await actions.setAgentAutonomy({
      projectId: project.id,
      userId: 'max',
      agentId: 'infra',
      actionType: 'container_start',
      mode: 'deny',
    });
    const { action } = await actions.acceptInfraHandoff(project.id, 'max');
    expect(action).toMatchObject({ status: 'denied', reasonCode: 'agent_autonomy_deny' });
    expect(await store.read.autonomy.get(project.id, 'infra', 'container_start')).toMatchObject({ mode: 'deny' });
  });

  it('RN-671 409 no_broker leaves no autonomy row, no handoff.accepted event and no proposal', async () => {
    const actions = build({
      execution: {
        precondition: (project) => ({ code: 'no_broker', message: `project ${project.id} needs a broker` }),
      },
    });
    const project = await seed(actions, { role: 'maintainer', kind: 'agent' });
    await expect(actions.acceptInfraHandoff(project.id, 'max')).rejects.toMatchObject({
      kind: 'conflict',
      code: 'no_broker',
    });
    expect(await leftBehind(project.id)).toEqual(NOTHING);
    expect(await store.read.members.get(project.id, 'infra')).toMatchObject({ role: 'maintainer', kind: 'agent' });
  });

  it('RN-671 a failure at any step of the transaction undoes the pre-seed, the event and the proposal (counted)', async () => {
    const project = await seed(build(), { role: 'maintainer', kind: 'agent' });
    const outcomes = { undone: 0, partial: 0, committed: 0 };
    for (let failAt = 1; ; failAt++) {
      const faulty = faultyStore(store, failAt);
      const attempt = await build({ store: faulty.store })
        .acceptInfraHandoff(project.id, 'max')
        .then(
          () => 'ok' as const,
          (error: Error) => error,
        );
      if (attempt === 'ok') {
        expect(faulty.calls()).toBeLessThan(failAt);
        outcomes.committed += 1;
        break;
      }
      expect(attempt.message).toBe(`injected failure at call ${failAt}`);
      const left = await leftBehind(project.id);
      if (JSON.stringify(left) === JSON.stringify(NOTHING)) outcomes.undone += 1;
      else outcomes.partial += 1;
    }
    // seed read + seed write + event + guard-free insert + event + hand-off: at least 5 steps fail.
    expect(outcomes.undone).toBeGreaterThanOrEqual(5);
    expect(outcomes).toMatchObject({ partial: 0, committed: 1 });
    expect(await leftBehind(project.id)).toMatchObject({ accepted: 1, created: 1, roleChanged: 0 });
    expect(await store.read.autonomy.get(project.id, 'infra', 'container_start')).toMatchObject({
      mode: 'auto_approve',
    });
  });
});
