// Temp folders and a Dispatcher wired to a real journal, collecting what it delivers.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ExecuteAck, Output, Result } from '../../../runner-protocol/index.ts';
import type { BrokerResult, ContainerBrokerPort } from '../../../broker/port.ts';
import { Dispatcher } from '../../../src/runner/dispatcher.ts';
import { Journal } from '../../../src/runner/journal.ts';
import type { RunnerObserver } from '../../../src/runner/observer.ts';

export async function tempDir(prefix: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `brabo-${prefix}-`));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export const silentObserver = (): RunnerObserver & { warnings: string[] } => {
  const warnings: string[] = [];
  const noop = (): void => {};
  return {
    warnings,
    connecting: noop,
    joined: noop,
    disconnected: noop,
    joinRefused: noop,
    dispatchStarted: noop,
    dispatchFinished: noop,
    dispatchReplayed: noop,
    invalidExecute: (detail) => warnings.push(detail),
    resultRejected: noop,
    warning: (code, message) => warnings.push(`${code}: ${message}`),
  };
};

export interface DispatcherHarness {
  dispatcher: Dispatcher;
  journal: Journal;
  results: Result[];
  outputs: Output[];
  acks: ExecuteAck[];
  observer: ReturnType<typeof silentObserver>;
}

export async function dispatcherHarness(options: {
  root: string;
  journalFile: string;
  broker?: () => Promise<BrokerResult<ContainerBrokerPort>>;
  maxConcurrent?: number;
  defaultTimeoutMs?: number;
}): Promise<DispatcherHarness> {
  const { journal } = await Journal.open(options.journalFile);
  const results: Result[] = [];
  const outputs: Output[] = [];
  const acks: ExecuteAck[] = [];
  const observer = silentObserver();
  const dispatcher = new Dispatcher({
    root: options.root,
    projectId: 'p-test',
    journal,
    limits: {
      defaultTimeoutMs: options.defaultTimeoutMs ?? 20_000,
      killGraceMs: 500,
      maxOutputBytes: 64 * 1024,
      maxConcurrent: options.maxConcurrent ?? 4,
      chunkChars: 1024,
      flushIntervalMs: 20,
    },
    broker:
      options.broker ??
      (async () => ({ ok: false, failure: { code: 'broker_unavailable', message: 'no broker in this test' } })),
    env: process.env,
    observer,
    deliver: (result) => results.push(result),
    sendOutput: (message) => outputs.push(message),
    acknowledge: (ack) => acks.push(ack),
  });
  return { dispatcher, journal, results, outputs, acks, observer };
}

/** True while a process with this pid exists and is not a zombie (killed, awaiting its reaper). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
