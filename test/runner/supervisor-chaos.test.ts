// Chaos (issue 10.2): a real `brabo runner` is SIGKILLed again and again while commands run,
// sandboxed (auto-approved) and not (human-approved), each with background children. Counted at
// the end: commands still running after their runner died (must be 0), and interrupted commands
// the restarted runner reported as runner_interrupted (must be all of them).
import { readFileSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RUNNER_FAILURES } from '../../runner-protocol/index.ts';
import { startGatewayHarness } from './support/gateway-harness.ts';
import type { GatewayHarness } from './support/gateway-harness.ts';
import { alive, tempDir, waitFor } from './support/fixtures.ts';
import { runnerArgs, startRunner } from './support/runner-process.ts';
import type { RunnerProcess } from './support/runner-process.ts';

const PROJECT = 'proj-chaos';
const ROUNDS = 4;
let gateway: GatewayHarness;
let dir: string;
let root: string;
let cleanup: () => Promise<void>;
let runner: RunnerProcess | null = null;
const hostPids: number[] = [];

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('chaos'));
  root = path.join(dir, 'project');
  await mkdir(path.join(root, 'beats'), { recursive: true });
  gateway = await startGatewayHarness();
});
afterEach(async () => {
  await runner?.stop();
  for (const pid of hostPids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone, as it should be
    }
  }
  await gateway.close();
  await cleanup();
});

/** A command that keeps writing a heartbeat and leaves background children (nohup, a double fork). */
const busy = (id: string): string =>
  `echo $$ >> pids-${id}; nohup sh -c 'while :; do date +%s%N > beats/${id}-nohup; sleep 0.05; done' >/dev/null 2>&1 & echo $! >> pids-${id}; ` +
  `( sh -c 'while :; do date +%s%N > beats/${id}-fork; sleep 0.05; done' & ) ; ` +
  `while :; do date +%s%N > beats/${id}-main; sleep 0.05; done`;

/** Heartbeats that keep changing until `withinMs` is over: 0 as soon as all stand still for 500 ms. */
async function stillBeating(withinMs: number): Promise<number> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const before = beats();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const moving = [...beats()].filter(([name, beat]) => before.get(name) !== beat).length;
    if (moving === 0 || Date.now() > deadline) return moving;
  }
}

const beats = (): Map<string, string> =>
  new Map(
    readdirSync(path.join(root, 'beats')).map((name) => [name, readFileSync(path.join(root, 'beats', name), 'utf8')]),
  );

describe('a SIGKILLed runner takes its commands with it', () => {
  it(`${ROUNDS} rounds of SIGKILL with sandboxed and unsandboxed commands running: 0 survivors, every one reported runner_interrupted`, async () => {
    const { token } = gateway.tokens.issue(PROJECT);
    const start = (): RunnerProcess =>
      (runner = startRunner([
        ...runnerArgs({ url: gateway.url, token, project: PROJECT, root, journal: path.join(dir, 'journal.jsonl') }),
        '--max-concurrent',
        '8',
        '--reconnect-base-ms',
        '50',
        '--reconnect-max-ms',
        '200',
      ]));
    let survivors = 0;
    const killed: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const current = start();
      await current.waitForOutput(`● connected, joined runner:${PROJECT}`, 30_000);
      await waitFor(() => gateway.current.runners.isConnected(PROJECT), 15_000, 'the hub to see the runner');
      const ids = ['auto', 'auto2', 'human', 'human2'].map((kind) => `r${round}-${kind}`);
      for (const id of ids) {
        const approval = id.includes('human') ? 'human' : 'auto';
        await gateway.current.runners.execute(PROJECT, {
          dispatchId: id,
          attempt: 1,
          action: { type: 'terminal', command: busy(id), cwd: root, approval },
        });
      }
      await waitFor(
        () => ids.every((id) => ['main', 'nohup', 'fork'].every((part) => beats().has(`${id}-${part}`))),
        30_000,
        'every command and its children to beat',
      );
      current.child.kill('SIGKILL');
      await current.exited;
      killed.push(...ids);
      // Anything still beating 10 s after the runner died survived it (the wait ends as soon as
      // every heartbeat stands still; the margin is for a loaded machine, not for the supervisor).
      survivors += await stillBeating(10_000);
      runner = null;
    }
    // Host pids only from the unsandboxed commands (inside the sandbox $$ is a pid of its own namespace).
    const pids = killed
      .filter((id) => id.includes('human'))
      .flatMap((id) =>
        readFileSync(path.join(root, `pids-${id}`), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map(Number),
      );
    expect(pids.length).toBe(ROUNDS * 2 * 2);
    hostPids.push(...pids);
    const alivePids = pids.filter((pid) => alive(pid));
    expect({ survivors, alivePids }).toEqual({ survivors: 0, alivePids: [] });

    // The restarted runner reports every killed command as runner_interrupted, never runs it again.
    const last = start();
    await last.waitForOutput(`● connected, joined runner:${PROJECT}`, 30_000);
    for (const id of killed) {
      const result = await gateway.waitForResult(id, 1, 15_000);
      expect({ id, status: result.status, code: result.reason?.code }).toEqual({
        id,
        status: 'failed',
        code: RUNNER_FAILURES.runnerInterrupted,
      });
    }
    expect(killed).toHaveLength(ROUNDS * 4);
  }, 240_000); // real runner processes, four kills and restarts: slow on a loaded machine
});
