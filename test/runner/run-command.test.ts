import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/runner/run-command.ts';
import type { RunCommandOptions } from '../../src/runner/run-command.ts';
import { alive, tempDir, waitFor } from './support/fixtures.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir('exec')));
afterEach(async () => cleanup());

const run = (command: string, extra: Partial<RunCommandOptions> = {}) =>
  runCommand({ command, cwd: dir, timeoutMs: 20_000, killGraceMs: 500, maxOutputBytes: 1024 * 1024, ...extra });

const readPid = async (file: string): Promise<number> => Number((await readFile(path.join(dir, file), 'utf8')).trim());

describe('runCommand (RN-497: approved commands run on the user machine)', () => {
  it('runs through sh -c in the given cwd and reports exit code, stdout and stderr', async () => {
    const outcome = await run('pwd; echo oops >&2; exit 3');
    expect(outcome.exitCode).toBe(3);
    expect(outcome.stdout.trim()).toBe(dir);
    expect(outcome.stderr).toBe('oops\n');
    expect(outcome.timedOut).toBe(false);
    expect(outcome.truncated).toBe(false);
  });

  it('a timeout kills the whole process group, background children included', async () => {
    const outcome = await run(`sleep 60 & echo $! > bg.pid; sleep 60`, { timeoutMs: 300 });
    expect(outcome.timedOut).toBe(true);
    expect(outcome.exitCode).toBeNull();
    const backgroundPid = await readPid('bg.pid');
    await waitFor(() => !alive(backgroundPid), 5_000, 'the background sleep to be gone');
  });

  it('a child that ignores SIGTERM is SIGKILLed after the grace period', async () => {
    const outcome = await run(`sh -c 'trap "" TERM; echo $$ > stubborn.pid; while :; do sleep 1; done' & wait`, {
      timeoutMs: 300,
      killGraceMs: 300,
    });
    expect(outcome.timedOut).toBe(true);
    const stubborn = await readPid('stubborn.pid');
    await waitFor(() => !alive(stubborn), 5_000, 'the TERM-ignoring child to be killed');
  });

  it('background work left behind by a command that exits is stopped too', async () => {
    const started = Date.now();
    const outcome = await run(`sleep 60 >/dev/null 2>&1 & echo $! > left.pid; echo done`);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout).toBe('done\n');
    expect(Date.now() - started).toBeLessThan(15_000);
    const left = await readPid('left.pid');
    await waitFor(() => !alive(left), 5_000, 'the leftover background sleep to be gone');
  });

  it('does not wait for a background child that keeps the output pipe open', async () => {
    const outcome = await run(`sleep 60 & echo started`, { killGraceMs: 200 });
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout).toBe('started\n');
  });

  it('caps captured output per stream and says it truncated', async () => {
    const outcome = await run(`head -c 100000 /dev/zero | tr '\\0' a; echo tail >&2`, { maxOutputBytes: 1000 });
    expect(outcome.stdout).toBe('a'.repeat(1000));
    expect(outcome.stderr).toBe('tail\n');
    expect(outcome.truncated).toBe(true);
    expect(outcome.exitCode).toBe(0);
  });

  it('hands every output byte to onOutput as it arrives', async () => {
    const seen: string[] = [];
    await run(`echo one; echo two >&2`, { onOutput: (stream, data) => seen.push(`${stream}:${data.toString()}`) });
    expect(seen.sort()).toEqual(['stderr:two\n', 'stdout:one\n']);
  });

  it('aborting (runner shutdown) kills the group at once', async () => {
    const controller = new AbortController();
    const pending = run(`sleep 60 & echo $! > bg.pid; sleep 60`, { signal: controller.signal });
    await waitFor(
      async () =>
        readPid('bg.pid').then(
          (pid) => pid > 0,
          () => false,
        ),
      5_000,
      'the command to start',
    );
    controller.abort();
    const outcome = await pending;
    expect(outcome.aborted).toBe(true);
    await waitFor(async () => !alive(await readPid('bg.pid')), 5_000, 'the background sleep to be gone');
  });
});
