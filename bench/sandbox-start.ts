// What the runner's sandbox adds to a command's start, measured at the runner alone: the time
// from spawning to the command's first instruction (its own wall clock, `date +%s%N`), through the
// runner's real launch path (supervisor + bwrap with the project's rules and seccomp), against the
// same command unsandboxed, interleaved. Used by bench/dispatch.bench.ts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runCommand } from '../src/runner/run-command.ts';
import { launchFor } from '../src/runner/sandbox/launch.ts';

const wallMs = (): number => performance.timeOrigin + performance.now();

export interface StartSamples {
  plain: number[];
  sandboxed: number[];
}

async function startMs(root: string, sandboxed: boolean): Promise<number> {
  const command = 'date +%s%N';
  const launch = launchFor({
    command,
    root,
    cwd: root,
    env: process.env,
    backend: sandboxed ? 'bwrap' : null,
    network: true,
    seccomp: true,
  });
  const t0 = wallMs();
  const outcome = await runCommand({
    command,
    launch,
    cwd: root,
    timeoutMs: 10_000,
    killGraceMs: 500,
    maxOutputBytes: 4096,
    env: launch.env,
  });
  launch.cleanup();
  if (outcome.exitCode !== 0)
    throw new Error(`start probe failed (${sandboxed ? 'sandboxed' : 'plain'}): ${outcome.stderr}`);
  return Number(BigInt(outcome.stdout.trim()) / 1000n) / 1000 - t0;
}

/** `samples` starts of each kind, alternating which goes first. */
export async function measureSandboxStart(samples: number, warmup = 10): Promise<StartSamples> {
  const dir = mkdtempSync(join(tmpdir(), 'brabo-bench-sandbox-'));
  const root = join(dir, 'root');
  mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
  writeFileSync(join(root, '.git', 'config'), '');
  const out: StartSamples = { plain: [], sandboxed: [] };
  try {
    for (let i = 0; i < samples + warmup; i++) {
      const sandboxFirst = i % 2 === 0;
      const first = await startMs(root, sandboxFirst);
      const second = await startMs(root, !sandboxFirst);
      if (i < warmup) continue;
      out.sandboxed.push(sandboxFirst ? first : second);
      out.plain.push(sandboxFirst ? second : first);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
