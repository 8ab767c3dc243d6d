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

const result = (dispatchId: string, attempt = 1): Result => ({ dispatchId, attempt, status: 'executed', exitCode: 0, stdout: `${dispatchId}\n`, stderr: '' });

describe('runner journal (dispatch id -> final result, durable)', () => {
  it('keeps final results across a restart and lists the ids for the join payload', async () => {
    const { journal } = await Journal.open(file);
    await journal.recordResult(result('d1'));
    await journal.recordResult(result('d2', 3));
    await journal.close();

    const { journal: reopened, report } = await Journal.open(file);
    expect(report).toEqual({ results: 2, skippedLines: 0, tornTail: false });
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
    expect(report).toEqual({ results: 1, skippedLines: 1, tornTail: true });
    expect(reopened.get('d2')).toBeUndefined();
    await reopened.recordResult(result('d3'));
    await reopened.close();

    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line).result.dispatchId)).toEqual(['d1', 'd3']);
  });

  it('skips unreadable lines in the middle instead of refusing to start', async () => {
    const good = (id: string) => JSON.stringify({ kind: 'result', at: 'x', result: result(id) });
    await Journal.open(file).then(({ journal }) => journal.close());
    await writeFile(file, [good('a'), 'not json', JSON.stringify({ kind: 'result', result: { dispatchId: 'bad' } }), good('b')].join('\n') + '\n');
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
