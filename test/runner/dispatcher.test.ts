import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Execute } from '../../runner-protocol/index.ts';
import { dispatcherHarness, tempDir } from './support/fixtures.ts';
import type { DispatcherHarness } from './support/fixtures.ts';

let dir: string;
let root: string;
let journalFile: string;
let cleanup: () => Promise<void>;
let harness: DispatcherHarness;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('dispatch'));
  root = dir + '/root';
  journalFile = path.join(dir, 'journal.jsonl');
  await import('node:fs/promises').then((fs) => fs.mkdir(root));
  harness = await dispatcherHarness({ root, journalFile });
});
afterEach(async () => {
  await harness.dispatcher.shutdown();
  await harness.journal.close();
  await cleanup();
});

const terminal = (
  dispatchId: string,
  command: string,
  extra: Partial<Execute> & { cwd?: string; timeoutMs?: number } = {},
): Execute => ({
  dispatchId,
  attempt: extra.attempt ?? 1,
  action: {
    type: 'terminal',
    command,
    cwd: extra.cwd ?? root,
    ...(extra.timeoutMs === undefined ? {} : { timeoutMs: extra.timeoutMs }),
  },
});
const countRuns = async (): Promise<number> =>
  (await readFile(path.join(root, 'counter'), 'utf8').catch(() => '')).split('\n').filter(Boolean).length;

describe('dispatcher: re-delivery never runs a command twice (RN-497)', () => {
  it('a re-delivered dispatch is answered from the journal, and the side effect happened once', async () => {
    await harness.dispatcher.handle(terminal('d-1', 'echo ran >> counter; echo hello'));
    await harness.dispatcher.handle(terminal('d-1', 'echo ran >> counter; echo hello', { attempt: 2 }));
    expect(await countRuns()).toBe(1);
    expect(harness.results).toHaveLength(2);
    expect(harness.results[0]).toMatchObject({
      dispatchId: 'd-1',
      attempt: 1,
      status: 'executed',
      exitCode: 0,
      stdout: 'hello\n',
    });
    expect(harness.results[0]?.fromJournal).toBeUndefined();
    expect(harness.results[1]).toMatchObject({
      dispatchId: 'd-1',
      attempt: 2,
      status: 'executed',
      stdout: 'hello\n',
      fromJournal: true,
    });
    expect(harness.acks).toEqual([
      { dispatchId: 'd-1', attempt: 1 },
      { dispatchId: 'd-1', attempt: 2 },
    ]);
  });

  it('after a runner restart the journal still answers the re-delivery', async () => {
    await harness.dispatcher.handle(terminal('d-2', 'echo ran >> counter'));
    await harness.journal.close();
    const restarted = await dispatcherHarness({ root, journalFile });
    await restarted.dispatcher.handle(terminal('d-2', 'echo ran >> counter', { attempt: 2 }));
    expect(await countRuns()).toBe(1);
    expect(restarted.results).toEqual([expect.objectContaining({ dispatchId: 'd-2', attempt: 2, fromJournal: true })]);
    await restarted.journal.close();
    harness = restarted;
  });

  it('a re-delivery while the first run is still going does not start it twice; each attempt gets an answer', async () => {
    const first = harness.dispatcher.handle(terminal('d-3', 'echo ran >> counter; sleep 0.4; echo out'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await harness.dispatcher.handle(terminal('d-3', 'echo ran >> counter; sleep 0.4; echo out', { attempt: 2 }));
    await first;
    expect(await countRuns()).toBe(1);
    expect(harness.results.map((r) => [r.attempt, r.fromJournal === true, r.stdout])).toEqual([
      [1, false, 'out\n'],
      [2, true, 'out\n'],
    ]);
  });

  it('journals durably before delivering: the file holds the result when it is handed over', async () => {
    const file = path.join(dir, 'j2.jsonl');
    const checking = await dispatcherHarness({ root, journalFile: file });
    let journalAtDelivery = '';
    const original = checking.results.push.bind(checking.results);
    checking.results.push = (...items) => {
      journalAtDelivery = readFileSync(file, 'utf8');
      return original(...items);
    };
    await checking.dispatcher.handle(terminal('d-4', 'true'));
    await checking.journal.close();
    expect(journalAtDelivery).toContain('"dispatchId":"d-4"');
  });
});

describe('dispatcher: outcomes', () => {
  it('refuses a cwd outside the root with cwd_outside_root and runs nothing', async () => {
    await harness.dispatcher.handle(terminal('d-out', `touch ${root}/ran`, { cwd: dir }));
    expect(harness.results[0]).toMatchObject({ status: 'refused', reason: { code: 'cwd_outside_root' } });
    await expect(readFile(path.join(root, 'ran'))).rejects.toThrow();
  });

  it('a timeout is failed with command_timeout', async () => {
    await harness.dispatcher.handle(terminal('d-slow', 'sleep 30', { timeoutMs: 200 }));
    expect(harness.results[0]).toMatchObject({ status: 'failed', reason: { code: 'command_timeout' } });
  });

  it('a non-zero exit is executed with its exit code', async () => {
    await harness.dispatcher.handle(terminal('d-exit', 'exit 7'));
    expect(harness.results[0]).toMatchObject({ status: 'executed', exitCode: 7 });
  });

  it('streams output as seq-numbered chunks of the dispatch', async () => {
    await harness.dispatcher.handle(terminal('d-stream', 'echo a; sleep 0.1; echo b >&2; sleep 0.1; echo c'));
    expect(harness.outputs.map((o) => o.seq)).toEqual(harness.outputs.map((_, index) => index));
    expect(harness.outputs.every((o) => o.dispatchId === 'd-stream' && o.attempt === 1)).toBe(true);
    expect(
      harness.outputs
        .filter((o) => o.stream === 'stdout')
        .map((o) => o.data)
        .join(''),
    ).toBe('a\nc\n');
    expect(
      harness.outputs
        .filter((o) => o.stream === 'stderr')
        .map((o) => o.data)
        .join(''),
    ).toBe('b\n');
  });

  it('refuses with runner_busy past --max-concurrent, without journaling (a later delivery may run)', async () => {
    const busy = await dispatcherHarness({ root, journalFile: path.join(dir, 'busy.jsonl'), maxConcurrent: 1 });
    const running = busy.dispatcher.handle(terminal('long', 'sleep 0.3'));
    await busy.dispatcher.handle(terminal('other', 'true'));
    await running;
    expect(busy.results.map((r) => [r.dispatchId, r.status, r.reason?.code])).toEqual([
      ['other', 'refused', 'runner_busy'],
      ['long', 'executed', undefined],
    ]);
    expect(busy.journal.get('other')).toBeUndefined();
    await busy.journal.close();
  });
});

describe('dispatcher: invalid execute payloads never crash the runner', () => {
  it('refuses with invalid_execute when the dispatchId can be read', async () => {
    await harness.dispatcher.handle({ dispatchId: 'd-bad', attempt: 2, action: { type: 'terminal', cwd: root } });
    expect(harness.results).toEqual([
      expect.objectContaining({
        dispatchId: 'd-bad',
        attempt: 2,
        status: 'refused',
        reason: expect.objectContaining({ code: 'invalid_execute' }),
      }),
    ]);
  });

  it('refuses an unknown action type with unsupported_action', async () => {
    await harness.dispatcher.handle({ dispatchId: 'd-x', attempt: 1, action: { type: 'launch_missiles' } });
    expect(harness.results[0]).toMatchObject({ status: 'refused', reason: { code: 'unsupported_action' } });
  });

  it('ignores (with a log line) a payload without a readable dispatchId', async () => {
    await harness.dispatcher.handle({ attempt: 1, action: { type: 'terminal', command: 'touch x', cwd: root } });
    await harness.dispatcher.handle('garbage');
    expect(harness.results).toEqual([]);
    expect(harness.acks).toEqual([]);
    expect(harness.observer.warnings).toHaveLength(2);
  });

  it('property: any JSON payload yields at most one refusal and never throws', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (payload) => {
        const before = harness.results.length;
        await harness.dispatcher.handle(payload);
        expect(harness.results.length - before).toBeLessThanOrEqual(1);
        for (const r of harness.results.slice(before)) expect(r.status).toBe('refused');
      }),
      { numRuns: 200 },
    );
    expect(harness.observer.warnings.some((w) => w.startsWith('dispatch_crashed'))).toBe(false);
  });
});
