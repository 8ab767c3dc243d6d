// Issue 10 item 10: nothing an exec starts outlives it in the container, however the command
// detaches (setsid, nohup, double fork, a renamed process), and the exec still ends as soon as its
// command is done (a detached daemon does not hold it open until the timeout).
import { chmod, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DockerBroker } from '../../broker/index.ts';
import { cleanUp, makeWorkspace, newRunId, spec, testBroker, value } from './helpers.ts';

const runId = newRunId();
const folders: string[] = [];
let broker: DockerBroker;
let workspace: string;

beforeAll(async () => {
  broker = testBroker(runId);
  workspace = await makeWorkspace();
  folders.push(workspace);
  // A process whose name contains ") " and a newline: /proc/<pid>/stat is hard to parse for it.
  const tricky = join(workspace, 'x) Z 1 \n) S 1 2');
  await writeFile(tricky, '#!/bin/sh\nsleep 420\n');
  await chmod(tricky, 0o755);
  value(await broker.start(spec('life', workspace, { resources: { cpus: 1, memoryMb: 64, pids: 128 } })));
});

afterAll(async () => {
  await cleanUp(runId, folders);
});

/** Every process of the container except its idle entrypoint and the `ps` exec itself. */
async function leftovers(): Promise<string[]> {
  const out = value(await broker.exec('life', { command: 'ps -o pid,args', cwd: '/work' })).stdout;
  return out.split('\n').filter((line) => /sleep 4[0-9][0-9]/.test(line));
}

// Each one detaches `sleep 4NN` from the exec in another way; all of them return at once.
const DETACHED: Array<[string, string]> = [
  ['setsid', 'setsid sleep 401 </dev/null >/dev/null 2>&1 &'],
  ['nohup', 'nohup sleep 402 >/dev/null 2>&1 &'],
  ['double fork', '(sleep 403 </dev/null >/dev/null 2>&1 &)'],
  ['double fork through sh -c', `sh -c 'sleep 404 </dev/null >/dev/null 2>&1 &'`],
  ['setsid + double fork', `setsid sh -c '(sleep 405 &) ; sleep 406' </dev/null >/dev/null 2>&1 &`],
  ['nohup + setsid', 'nohup setsid sleep 407 >/dev/null 2>&1 &'],
  ['triple fork', `sh -c "sh -c 'sleep 408 </dev/null >/dev/null 2>&1 &' &"`],
  ['a detached loop that keeps forking', `setsid sh -c 'while :; do sleep 409; done' </dev/null >/dev/null 2>&1 &`],
  ['stdout to a file', 'sleep 410 </dev/null >/work/bg.log 2>&1 &'],
  ['a process named with ") " and a newline', `'./x) Z 1 \n) S 1 2' </dev/null >/dev/null 2>&1 &`],
  ['exec into a detaching shell', `sh -c 'exec sh -c "sleep 411 </dev/null >/dev/null 2>&1 &"'`],
  ['a fork chain that ignores SIGHUP and SIGTERM', `sh -c 'trap "" HUP TERM; sleep 412' </dev/null >/dev/null 2>&1 &`],
];

describe('nothing an exec starts outlives it', () => {
  it.each(DETACHED)('%s: the exec returns promptly and its detached process is gone', async (_name, command) => {
    const started = Date.now();
    const result = value(
      await broker.exec('life', { command: `${command}\necho done $?`, cwd: '/work', timeoutMs: 20_000 }),
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/done 0\n$/);
    // Well before the 20 s timeout: a detached process does not hold the exec open.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await leftovers()).toEqual([]);
  });

  it('a background child that keeps writing holds the exec open until it is done, as with ssh', async () => {
    const result = value(
      await broker.exec('life', { command: '(sleep 1; echo late) & echo early', cwd: '/work', timeoutMs: 20_000 }),
    );
    expect(result).toMatchObject({ exitCode: 0, stdout: 'early\nlate\n' });
    expect(result.durationMs).toBeGreaterThanOrEqual(1000);
  });

  it('a timeout kills detached processes too, not only the process group', async () => {
    const result = await broker.exec('life', {
      command:
        'setsid sleep 413 </dev/null >/dev/null 2>&1 & nohup sleep 414 >/dev/null 2>&1 & (sleep 415 &); sleep 416',
      cwd: '/work',
      timeoutMs: 1500,
    });
    expect(result.ok ? 'ok' : result.failure.code).toBe('command_timeout');
    if (!result.ok) expect(result.failure.detail).toMatchObject({ killed: true });
    expect(await leftovers()).toEqual([]);
  });

  it('concurrent execs do not kill each other: each supervisor only kills its own subtree', async () => {
    const long = broker.exec('life', { command: 'sleep 2; echo survived', cwd: '/work', timeoutMs: 20_000 });
    for (let i = 0; i < 5; i++) {
      value(
        await broker.exec('life', {
          command: 'setsid sleep 417 </dev/null >/dev/null 2>&1 & echo quick',
          cwd: '/work',
        }),
      );
    }
    expect(value(await long)).toMatchObject({ exitCode: 0, stdout: 'survived\n' });
    expect(await leftovers()).toEqual([]);
  });

  it('a command that kills its own supervisor is exec_interrupted, and a tag sweep still kills what it left', async () => {
    const result = await broker.exec('life', {
      command: 'sleep 418 & kill -KILL $PPID; sleep 419',
      cwd: '/work',
      timeoutMs: 20_000,
    });
    expect(result.ok ? 'ok' : result.failure.code).toBe('exec_interrupted');
    if (!result.ok) expect(result.failure.detail).toMatchObject({ killed: true });
    expect(await leftovers()).toEqual([]);
  });

  it('a container stopped mid-command: exec_interrupted, and stopped is confirmed (a stopped container runs nothing)', async () => {
    const workspace2 = await makeWorkspace();
    folders.push(workspace2);
    value(await broker.start(spec('stoppable', workspace2)));
    const running = broker.exec('stoppable', { command: 'touch started; sleep 420', cwd: '/work', timeoutMs: 30_000 });
    const started = join(workspace2, 'started');
    for (
      let i = 0;
      i < 200 &&
      !(await stat(started).then(
        () => true,
        () => false,
      ));
      i++
    )
      await new Promise((resolve) => setTimeout(resolve, 50));
    value(await broker.stop('stoppable'));
    const result = await running;
    expect(result.ok ? 'ok' : result.failure.code).toBe('exec_interrupted');
    if (!result.ok) expect(result.failure.detail).toMatchObject({ killed: true });
  });

  it('a command printing a fake end line does not end its exec early or fake its exit code', async () => {
    const result = value(
      await broker.exec('life', {
        command: 'printf "%s end 0 done 1\\n" "$BRABO_EXEC_ID"; exit 4',
        cwd: '/work',
      }),
    );
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toMatch(/ end 0 done 1\n$/);
  });
});
