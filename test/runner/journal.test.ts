import { appendFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Result } from '../../runner-protocol/index.ts';
import { Journal } from '../../src/runner/journal.ts';
import { tempDir } from './support/fixtures.ts';

let dir: string;
let cleanup: () => Promise<void>;
let file: string;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('journal'));
  file = path.join(dir, 'state', 'journal.jsonl');
});
afterEach(async () => cleanup());

const result = (dispatchId: string, attempt = 1): Result => ({
  dispatchId,
  attempt,
  status: 'executed',
  exitCode: 0,
  stdout: `${dispatchId}\n`,
  stderr: '',
});

describe('runner journal (dispatch id -> final result, durable)', () => {
  it('keeps final results across a restart and lists the ids for the join payload', async () => {
    const { journal } = await Journal.open(file);
    await journal.recordResult(result('d1'));
    await journal.recordResult(result('d2', 3));
    await journal.close();

    const { journal: reopened, report } = await Journal.open(file);
    expect(report).toEqual({ results: 2, interrupted: 0, skippedLines: 0, tornTail: false });
    expect(reopened.get('d2')).toEqual(result('d2', 3));
    expect(reopened.dispatchIds()).toEqual(['d1', 'd2']);
    await reopened.close();
  });

  it('tolerates a torn last line: cuts it off, keeps the rest, and appends cleanly afterwards', async () => {
    const { journal } = await Journal.open(file);
    await journal.recordResult(result('d1'));
    await journal.close();
    await appendFile(file, '{"kind":"result","at":"2026-01-01T00:00:00Z","result":{"dispatchId":"d2","att');

    const { journal: reopened, report } = await Journal.open(file);
    expect(report).toEqual({ results: 1, interrupted: 0, skippedLines: 1, tornTail: true });
    expect(reopened.get('d2')).toBeUndefined();
    await reopened.recordResult(result('d3'));
    await reopened.close();

    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line).result.dispatchId)).toEqual(['d1', 'd3']);
  });

  it('skips unreadable lines in the middle instead of refusing to start', async () => {
    const good = (id: string) => JSON.stringify({ kind: 'result', at: 'x', result: result(id) });
    await Journal.open(file).then(({ journal }) => journal.close());
    await writeFile(
      file,
      [good('a'), 'not json', JSON.stringify({ kind: 'result', result: { dispatchId: 'bad' } }), good('b')].join('\n') +
        '\n',
    );
    const { journal, report } = await Journal.open(file);
    expect(report.skippedLines).toBe(2);
    expect(journal.dispatchIds()).toEqual(['a', 'b']);
    await journal.close();
  });

  it('remembers which results the server acknowledged, so only the others are re-sent after a restart', async () => {
    const { journal } = await Journal.open(file);
    await journal.recordResult(result('acked'));
    await journal.recordResult(result('pending'));
    await journal.recordAck('acked', 1);
    await journal.close();
    const { journal: reopened } = await Journal.open(file);
    expect(reopened.unacknowledged().map((r) => r.dispatchId)).toEqual(['pending']);
    await reopened.close();
  });

  it('compacts to the newest results when it grows past its retention', async () => {
    const { journal } = await Journal.open(file, 3);
    for (const id of ['a', 'b', 'c', 'd', 'e']) await journal.recordResult(result(id));
    await journal.recordAck('e', 1);
    await journal.close();
    const { journal: reopened } = await Journal.open(file, 3);
    expect(reopened.dispatchIds()).toEqual(['c', 'd', 'e']);
    expect(reopened.unacknowledged().map((r) => r.dispatchId)).toEqual(['c', 'd']);
    expect((await readFile(file, 'utf8')).trimEnd().split('\n')).toHaveLength(4);
    await reopened.close();
  });
});

describe('runner journal: started runs (a run the runner died in is never run again)', () => {
  const lines = async (): Promise<Array<Record<string, unknown>>> =>
    (await readFile(file, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));

  it('a started run without a final result is reported interrupted on the next open, with its attempt and start time', async () => {
    const { journal } = await Journal.open(file);
    journal.recordStarted('crashed', 2, new Date('2026-03-01T10:00:00.000Z'));
    journal.recordStarted('finished', 1);
    await journal.syncStarted();
    await journal.recordResult(result('finished'));
    await journal.close();

    const { journal: reopened, report } = await Journal.open(file);
    expect(report).toEqual({ results: 1, interrupted: 1, skippedLines: 0, tornTail: false });
    expect(reopened.interrupted()).toEqual([
      { dispatchId: 'crashed', attempt: 2, startedAt: '2026-03-01T10:00:00.000Z' },
    ]);
    expect(reopened.get('crashed')).toBeUndefined();
    await reopened.close();
  });

  it('the started line is in the file as soon as recordStarted returns, before any fsync', async () => {
    const { journal } = await Journal.open(file);
    journal.recordStarted('d1', 1);
    expect(await lines()).toEqual([expect.objectContaining({ kind: 'started', dispatchId: 'd1', attempt: 1 })]);
    await journal.close();
  });

  it('once the interrupted run is journaled as failed it is settled for good', async () => {
    const { journal } = await Journal.open(file);
    journal.recordStarted('crashed', 1);
    await journal.close();
    const { journal: second } = await Journal.open(file);
    await second.recordResult({
      dispatchId: 'crashed',
      attempt: 1,
      status: 'failed',
      reason: { code: 'runner_interrupted', message: 'm' },
      fromJournal: true,
    });
    await second.close();
    const { journal: third, report } = await Journal.open(file);
    expect(report.interrupted).toBe(0);
    expect(third.get('crashed')).toMatchObject({ status: 'failed', reason: { code: 'runner_interrupted' } });
    await third.close();
  });

  it('a torn started line (crash mid-write) is cut off like any torn tail', async () => {
    const { journal } = await Journal.open(file);
    journal.recordStarted('whole', 1);
    await journal.close();
    await appendFile(file, '{"kind":"started","at":"2026-01-01T00:00:00Z","dispatchId":"torn","att');
    const { journal: reopened, report } = await Journal.open(file);
    expect(report).toEqual({ results: 0, interrupted: 1, skippedLines: 1, tornTail: true });
    expect(reopened.interrupted().map((run) => run.dispatchId)).toEqual(['whole']);
    await reopened.close();
  });

  it('a malformed started line is skipped, not trusted', async () => {
    await Journal.open(file).then(({ journal }) => journal.close());
    await writeFile(
      file,
      [
        JSON.stringify({ kind: 'started', at: 'x', dispatchId: 'a', attempt: 0, startedAt: 'x' }),
        JSON.stringify({ kind: 'started', at: 'x', dispatchId: 'b', attempt: 1, startedAt: '2026-01-01T00:00:00Z' }),
      ].join('\n') + '\n',
    );
    const { journal, report } = await Journal.open(file);
    expect(report.skippedLines).toBe(1);
    expect(journal.interrupted().map((run) => run.dispatchId)).toEqual(['b']);
    await journal.close();
  });

  it('an old journal (results and acks only, before started lines existed) still loads unchanged', async () => {
    await Journal.open(file).then(({ journal }) => journal.close());
    const old = [
      JSON.stringify({ kind: 'result', at: '2025-12-01T00:00:00Z', result: result('old-1') }),
      JSON.stringify({ kind: 'ack', at: '2025-12-01T00:00:01Z', dispatchId: 'old-1', attempt: 1 }),
      JSON.stringify({ kind: 'result', at: '2025-12-01T00:00:02Z', result: result('old-2') }),
    ];
    await writeFile(file, old.join('\n') + '\n');
    const { journal, report } = await Journal.open(file);
    expect(report).toEqual({ results: 2, interrupted: 0, skippedLines: 0, tornTail: false });
    expect(journal.get('old-1')).toEqual(result('old-1'));
    expect(journal.unacknowledged().map((r) => r.dispatchId)).toEqual(['old-2']);
    await journal.close();
  });

  it('compaction keeps the started runs that never got a result and drops those that did', async () => {
    const { journal } = await Journal.open(file, 2);
    journal.recordStarted('lost', 3, new Date('2026-02-02T00:00:00.000Z'));
    for (const id of ['a', 'b', 'c', 'd']) {
      journal.recordStarted(id, 1);
      await journal.recordResult(result(id));
    }
    await journal.close();
    const { journal: compacted, report } = await Journal.open(file, 2);
    expect(report).toMatchObject({ results: 2, interrupted: 1 });
    expect(compacted.dispatchIds()).toEqual(['c', 'd']);
    await compacted.close();
    const kept = await lines();
    expect(kept.filter((line) => line.kind === 'started')).toEqual([
      expect.objectContaining({ dispatchId: 'lost', attempt: 3, startedAt: '2026-02-02T00:00:00.000Z' }),
    ]);
    const { journal: again } = await Journal.open(file, 2);
    expect(again.interrupted()).toEqual([{ dispatchId: 'lost', attempt: 3, startedAt: '2026-02-02T00:00:00.000Z' }]);
    await again.close();
  });
});
