// Resource boundaries (issue 10 "Tests"): container_start's resources at the minimum and just
// above the maximum, from resolveResources (RN-683) through the broker's own validation to what
// the engine applies; and an exec that still works, and still dies at its timeout, when the
// container has only the broker's minimum of pids.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateResources } from '../../broker/container-spec.ts';
import {
  DEFAULT_RESOURCE_LIMITS,
  RESOURCE_FIELDS,
  resolveResources,
  type ResourceField,
} from '../../src/execution/resources.ts';
import { createProject, type Server, settled, startServer } from '../e2e/support.ts';
import {
  cleanUp,
  docker,
  makeWorkspace,
  newRunId,
  spec,
  TEST_IMAGE,
  TEST_LABEL,
  testBroker,
  value,
} from './helpers.ts';

const { defaults, maxima } = DEFAULT_RESOURCE_LIMITS;
/** The smallest step a field can take: cpus are fractional, memory and pids whole numbers. */
const STEP: Record<ResourceField, number> = { cpus: 0.01, memoryMb: 1, pids: 1 };
const round = (field: ResourceField, value: number) => (field === 'cpus' ? Math.round(value * 100) / 100 : value);

describe('resolveResources at its boundaries (RN-683)', () => {
  it.each(RESOURCE_FIELDS)(
    '%s: exactly the minimum is taken as is, one step below is resources_below_minimum',
    (field) => {
      const atMinimum = resolveResources({ [field]: defaults[field] }, {});
      expect(atMinimum).toMatchObject({ ok: true, resources: defaults, capped: [] });
      const below = resolveResources({ [field]: round(field, defaults[field] - STEP[field]) }, {});
      expect(below).toMatchObject({ ok: false, code: 'resources_below_minimum', minimum: defaults });
      if (!below.ok) expect(below.message).toContain(`at least ${defaults[field]}`);
    },
  );

  it.each(RESOURCE_FIELDS)(
    '%s: exactly the maximum is not capped, one step above is capped to it and reported',
    (field) => {
      expect(resolveResources({ [field]: maxima[field] }, {})).toMatchObject({
        ok: true,
        capped: [],
        resources: { [field]: maxima[field] },
      });
      const above = resolveResources({ [field]: round(field, maxima[field] + STEP[field]) }, {});
      expect(above).toMatchObject({ ok: true, capped: [field], resources: { ...defaults, [field]: maxima[field] } });
    },
  );

  it('property: any request at or above the minimum resolves to min(request, maximum); below it fails naming the field', () => {
    const request = fc.record({
      cpus: fc.integer({ min: 1, max: 2000 }).map((n) => n / 100),
      memoryMb: fc.integer({ min: 1, max: 20_000 }),
      pids: fc.integer({ min: 1, max: 10_000 }),
    });
    fc.assert(
      fc.property(request, (asked) => {
        const result = resolveResources(asked, {});
        const below = RESOURCE_FIELDS.filter((field) => asked[field] < defaults[field]);
        if (below.length > 0) {
          expect(result).toMatchObject({ ok: false, code: 'resources_below_minimum' });
          if (!result.ok)
            expect(below.some((field) => result.message.includes(`${field} to ${defaults[field]}`))).toBe(true);
          return;
        }
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        for (const field of RESOURCE_FIELDS) {
          expect(result.resources[field]).toBe(Math.min(asked[field], maxima[field]));
          expect(result.capped.includes(field)).toBe(asked[field] > maxima[field]);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe("the broker's own floor", () => {
  const MIN = { cpus: 0.01, memoryMb: 16, pids: 16 };

  it('accepts exactly the minimum and refuses one step below, NaN, infinity and fractions, naming the field', () => {
    expect(validateResources(MIN)).toBeUndefined();
    const cases: Array<[Partial<typeof MIN>, string]> = [
      [{ cpus: 0.009 }, 'cpus'],
      [{ memoryMb: 15 }, 'memoryMb'],
      [{ pids: 15 }, 'pids'],
      [{ cpus: Number.NaN }, 'cpus'],
      [{ cpus: Number.POSITIVE_INFINITY }, 'cpus'],
      [{ memoryMb: 16.5 }, 'memoryMb'],
      [{ pids: 16.5 }, 'pids'],
    ];
    for (const [change, field] of cases) {
      const failure = validateResources({ ...MIN, ...change });
      expect(failure, JSON.stringify(change)).toMatchObject({ code: 'resource_limit_invalid', detail: { field } });
    }
  });

  describe('a container at exactly the minimum, on the real engine', () => {
    const runId = newRunId();
    const folders: string[] = [];
    afterAll(async () => {
      await cleanUp(runId, folders);
    });

    it('starts with those limits, runs a command, and a command that uses up its 16 pids is killed at its timeout', async () => {
      const broker = testBroker(runId);
      const workspace = await makeWorkspace();
      folders.push(workspace);
      const info = value(await broker.start(spec('minimum', workspace, { resources: MIN })));
      const inspected = await docker.getContainer(info.containerId!).inspect();
      expect(inspected.HostConfig).toMatchObject({ NanoCpus: 10_000_000, Memory: 16 * 1024 * 1024, PidsLimit: 16 });
      expect(value(await broker.exec('minimum', { command: 'echo at the floor', cwd: '/work' })).stdout).toBe(
        'at the floor\n',
      );
      const bomb = await broker.exec('minimum', {
        command: 'while :; do sleep 100 & done',
        cwd: '/work',
        timeoutMs: 2000,
      });
      expect(bomb.ok ? 'ok' : bomb.failure.code).toBe('command_timeout');
      if (!bomb.ok) expect(bomb.failure.detail).toMatchObject({ killed: true });
      const after = value(await broker.exec('minimum', { command: 'ps -o args', cwd: '/work' })).stdout;
      expect(after).not.toContain('sleep 100');
      // 0.01 CPU makes every exec slow on a busy machine: the bound is generous on purpose.
    }, 120_000);
  });
});

describe('through the gateway: a container_start just above the maximum is capped', () => {
  const runId = `res-${randomUUID().slice(0, 8)}`;
  let server: Server;
  const limits = { defaults: { cpus: 0.1, memoryMb: 32, pids: 32 }, maxima: { cpus: 0.5, memoryMb: 96, pids: 96 } };

  beforeAll(async () => {
    server = await startServer({
      docker: { image: TEST_IMAGE, labels: { [TEST_LABEL]: runId } },
      limits: { resources: limits },
    });
  });
  afterAll(async () => {
    await server?.close();
    await cleanUp(runId, []);
  });

  it('the engine gets the maxima and the recorded outcome says so', async () => {
    const project = await createProject(server, { executionMode: 'container' });
    const posted = await server.call('POST', `/api/projects/${project.id}/actions`, {
      agentId: 'max',
      actionType: 'container_start',
      payload: { cpus: 0.51, memoryMb: 97, pids: 97 },
    });
    expect(posted.status).toBe(201);
    if (posted.body.status === 'pending')
      await server.call('POST', `/api/actions/${posted.body.id}/approve`, { userId: 'olivia' });
    expect((await settled(server, posted.body.id, 60_000)).settlement).toMatchObject({ status: 'executed' });
    const action = (await server.call('GET', `/api/actions/${posted.body.id}`)).body;
    expect(action.dispatch.outcome.resources).toEqual(limits.maxima);
    const [row] = await docker.listContainers({ filters: { label: [`${TEST_LABEL}=${runId}`] } });
    const inspected = await docker.getContainer(row!.Id).inspect();
    expect(inspected.HostConfig).toMatchObject({ NanoCpus: 500_000_000, Memory: 96 * 1024 * 1024, PidsLimit: 96 });
  }, 120_000);
});
