// A runner that dies while a command runs (the journal has its `started` line, no result) never runs
// it again: after a restart the run is settled `failed runner_interrupted`, sent proactively and
// answered from the journal on any re-delivery. The side-effect counter proves "not run again".
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Execute } from '../../runner-protocol/index.ts';
import { Journal } from '../../src/runner/journal.ts';
import { dispatcherHarness, tempDir } from './support/fixtures.ts';
import type { DispatcherHarness } from './support/fixtures.ts';

let dir: string;
let root: string;
let journalFile: string;
let cleanup: () => Promise<void>;
const opened: DispatcherHarness[] = [];

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('interrupted'));
  root = path.join(dir, 'root');
  journalFile = path.join(dir, 'journal.jsonl');
  await mkdir(root);
});
afterEach(async () => {
  for (const harness of opened.splice(0)) {
    await harness.dispatcher.shutdown();
    await harness.journal.close();
  }
  await cleanup();
});

const open = async (): Promise<DispatcherHarness> => {
  const harness = await dispatcherHarness({ root, journalFile });
  opened.push(harness);
  return harness;
};
const countingCommand = 'echo ran >> counter; echo done';
const terminal = (dispatchId: string, attempt: number, command = countingCommand): Execute => ({
  dispatchId,
  attempt,
  action: { type: 'terminal', command, cwd: root },
});
const runs = async (): Promise<number> =>
  (await readFile(path.join(root, 'counter'), 'utf8').catch(() => '')).split('\n').filter(Boolean).length;

/** The journal a runner leaves when it is killed after the spawn: a `started` line and nothing else. */
async function crashedAfterSpawn(dispatchId: string, attempt: number, startedAt: Date): Promise<void> {
  const { journal } = await Journal.open(journalFile);
  journal.recordStarted(dispatchId, attempt, startedAt);
  await journal.close();
}

describe("runner journal: a run interrupted by the runner's death is never run again", () => {
  it('on restart it is settled failed runner_interrupted and handed to the outbox before any re-delivery', async () => {
    await crashedAfterSpawn('d-crash', 1, new Date('2026-03-04T05:06:07.000Z'));
    const restarted = await open();
    const recovered = await restarted.dispatcher.recoverInterrupted();
    expect(recovered).toHaveLength(1);
    expect(restarted.results).toEqual([
      {
        dispatchId: 'd-crash',
        attempt: 1,
        status: 'failed',
        fromJournal: true,
        reason: {
          code: 'runner_interrupted',
          message:
            'the runner stopped while this command was running (started at 2026-03-04T05:06:07.000Z); it was not run again. ' +
            'Check the project folder for partial effects and propose it again if needed.',
        },
      },
    ]);
    expect(restarted.observer.warnings.some((w) => w.startsWith('runner_interrupted: d-crash'))).toBe(true);
  });

  it.each([1, 2])(
    'a re-delivery (attempt %i) is answered from the journal and the command does not run again',
    async (attempt) => {
      await crashedAfterSpawn('d-crash', 1, new Date());
      const restarted = await open();
      await restarted.dispatcher.recoverInterrupted();
      await restarted.dispatcher.handle(terminal('d-crash', attempt));
      expect(await runs()).toBe(0);
      expect(restarted.results.at(-1)).toMatchObject({
        dispatchId: 'd-crash',
        attempt,
        status: 'failed',
        fromJournal: true,
        reason: { code: 'runner_interrupted' },
      });
      expect(restarted.acks).toEqual([{ dispatchId: 'd-crash', attempt }]);
    },
  );

  it('the failed result is journaled: a second restart answers the same and reports nothing new', async () => {
    await crashedAfterSpawn('d-crash', 1, new Date('2026-03-04T05:06:07.000Z'));
    const first = await open();
    const [settled] = await first.dispatcher.recoverInterrupted();
    await first.journal.close();
    opened.splice(0);

    const second = await open();
    expect(await second.dispatcher.recoverInterrupted()).toEqual([]);
    expect(second.journal.get('d-crash')).toEqual(settled);
    expect(second.journal.unacknowledged()).toEqual([settled]); // still re-sent until the gateway says ok
    await second.dispatcher.handle(terminal('d-crash', 3));
    expect(await runs()).toBe(0);
    expect(second.results).toEqual([{ ...settled, attempt: 3 }]);
  });

  it('other dispatches still run normally, exactly once', async () => {
    await crashedAfterSpawn('d-crash', 1, new Date());
    const restarted = await open();
    await restarted.dispatcher.recoverInterrupted();
    await restarted.dispatcher.handle(terminal('d-new', 1));
    await restarted.dispatcher.handle(terminal('d-new', 2));
    expect(await runs()).toBe(1);
    expect(restarted.results.map((r) => [r.dispatchId, r.attempt, r.status, r.fromJournal === true])).toEqual([
      ['d-crash', 1, 'failed', true],
      ['d-new', 1, 'executed', false],
      ['d-new', 2, 'executed', true],
    ]);
  });
});

describe('runner journal: the start is recorded before the spawn', () => {
  it('the command itself can already read its started line; the final result follows it', async () => {
    const harness = await open();
    await harness.dispatcher.handle(
      terminal(
        'd-seen',
        1,
        `grep -c '"kind":"started","at":"[^"]*","dispatchId":"d-seen"' ${JSON.stringify(journalFile)}`,
      ),
    );
    expect(harness.results[0]).toMatchObject({ status: 'executed', exitCode: 0, stdout: '1\n' });
    await harness.journal.close();
    const kinds = (await readFile(journalFile, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line).kind);
    expect(kinds).toEqual(['started', 'result']);
    const { journal, report } = await Journal.open(journalFile);
    expect(report.interrupted).toBe(0);
    await journal.close();
  });

  it('a refusal before any spawn (cwd outside the root) writes no started line', async () => {
    const harness = await open();
    await harness.dispatcher.handle({
      dispatchId: 'd-out',
      attempt: 1,
      action: { type: 'terminal', command: 'true', cwd: dir },
    });
    await harness.journal.close();
    const kinds = (await readFile(journalFile, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line).kind);
    expect(kinds).toEqual(['result']);
  });

  it('when the start cannot be journaled the command is not run: failed journal_unwritable', async () => {
    const harness = await open();
    await harness.journal.close();
    await harness.dispatcher.handle(terminal('d-nojournal', 1));
    expect(await runs()).toBe(0);
    expect(harness.results).toEqual([
      expect.objectContaining({
        dispatchId: 'd-nojournal',
        status: 'failed',
        reason: expect.objectContaining({ code: 'journal_unwritable' }),
      }),
    ]);
    expect(harness.results[0]?.reason?.message).toContain('the command was not run');
  });

  it('a container action is journaled as started before the broker is asked', async () => {
    let journalWhenAsked = '';
    const harness = await dispatcherHarness({
      root,
      journalFile,
      broker: async () => {
        journalWhenAsked = await readFile(journalFile, 'utf8');
        return { ok: false, failure: { code: 'broker_unavailable', message: 'no Docker here' } };
      },
    });
    opened.push(harness);
    await harness.dispatcher.handle({ dispatchId: 'd-box', attempt: 1, action: { type: 'container_stop' } });
    expect(journalWhenAsked).toContain('"kind":"started"');
    expect(journalWhenAsked).toContain('"dispatchId":"d-box"');
    expect(harness.results[0]).toMatchObject({ status: 'failed', reason: { code: 'broker_unavailable' } });
  });
});
