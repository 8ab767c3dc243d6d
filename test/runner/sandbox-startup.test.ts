// The runner's sandbox at start-up and in its join (issue 9 B.3), with the probe replaced so the
// "no sandbox here" branches run on this machine too: --sandbox auto says in one line that the
// host is unprotected and runs auto-approved commands; --sandbox required refuses them as
// sandbox_unavailable without running them; the join payload carries the state either way.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseRunnerArgs } from '../../src/runner/config.ts';
import type { RunnerConfig } from '../../src/runner/config.ts';
import { runRunner } from '../../src/runner/runner-app.ts';
import type { Availability } from '../../src/runner/sandbox/platform.ts';
import { TerminalUi } from '../../src/runner/terminal-ui.ts';
import { startGatewayHarness } from './support/gateway-harness.ts';
import type { GatewayHarness } from './support/gateway-harness.ts';
import { tempDir, waitFor } from './support/fixtures.ts';
import { runnerArgs } from './support/runner-process.ts';

const PROJECT = 'proj-sbx';
let gateway: GatewayHarness;
let dir: string;
let root: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('sbx-start'));
  root = path.join(dir, 'project');
  await mkdir(root);
  gateway = await startGatewayHarness();
});
afterEach(async () => {
  await gateway.close();
  await cleanup();
});

async function withRunner(
  flags: string[],
  availability: Availability,
  body: (output: () => string) => Promise<void>,
): Promise<string> {
  const { token } = gateway.tokens.issue(PROJECT);
  const config = parseRunnerArgs(
    [
      ...runnerArgs({ url: gateway.url, token, project: PROJECT, root, journal: path.join(dir, 'journal.jsonl') }),
      ...flags,
    ],
    {},
  ) as RunnerConfig;
  let out = '';
  let stop: () => void = () => {};
  const stopRequested = new Promise<void>((resolve) => (stop = resolve));
  const exit = runRunner(config, {
    ui: new TerminalUi({ write: (text) => void (out += text), color: false }),
    logger: pino({ level: 'silent' }),
    logTarget: 'test',
    stopRequested,
    probeSandbox: async () => availability,
  });
  try {
    await waitFor(() => gateway.current.runners.isConnected(PROJECT), 10_000, `the runner to join\n${out}`);
    await body(() => out);
  } finally {
    stop();
    expect(await exit).toBe(0);
  }
  return out;
}

const missing: Availability = { available: false, why: 'bubblewrap (bwrap) is not installed' };
const execute = (dispatchId: string, command: string, approval?: 'auto' | 'human') => ({
  dispatchId,
  attempt: 1,
  action: { type: 'terminal' as const, command, cwd: root, ...(approval ? { approval } : {}) },
});

describe('no sandbox on this machine', () => {
  it('--sandbox auto (default): one start-up line says the host is unprotected; auto-approved commands run; the join says enforced: false', async () => {
    const out = await withRunner([], missing, async () => {
      const info = gateway.current.runners.connectedRunners()[0];
      expect(info?.sandbox).toEqual({
        mode: 'auto',
        available: false,
        backend: null,
        network: true,
        git: 'read-only',
        enforced: false,
        reason: 'bubblewrap (bwrap) is not installed',
      });
      await gateway.current.runners.execute(PROJECT, execute('d-auto', 'echo ran > ran.txt'));
      expect(await gateway.waitForResult('d-auto')).toMatchObject({ status: 'executed', exitCode: 0 });
      expect(existsSync(path.join(root, 'ran.txt'))).toBe(true);
    });
    const lines = out.split('\n').filter((line) => line.includes('the host is unprotected'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('bubblewrap (bwrap) is not installed');
    expect(lines[0]).toContain('--sandbox required');
  });

  it('--sandbox required: auto-approved (and unlabelled) commands are refused sandbox_unavailable and not run; human-approved ones run', async () => {
    const out = await withRunner(['--sandbox', 'required'], missing, async () => {
      expect(gateway.current.runners.connectedRunners()[0]?.sandbox).toMatchObject({
        mode: 'required',
        available: false,
        enforced: true,
      });
      for (const [id, approval] of [
        ['d-req-auto', 'auto'],
        ['d-req-none', undefined],
      ] as const) {
        await gateway.current.runners.execute(PROJECT, execute(id, `echo ran > ${id}.txt`, approval));
        const result = await gateway.waitForResult(id);
        expect(result).toMatchObject({ status: 'refused', reason: { code: 'sandbox_unavailable' } });
        expect(result.reason?.message).toContain('bubblewrap (bwrap) is not installed');
        expect(existsSync(path.join(root, `${id}.txt`))).toBe(false);
      }
      await gateway.current.runners.execute(PROJECT, execute('d-req-human', 'echo ran > human.txt', 'human'));
      expect(await gateway.waitForResult('d-req-human')).toMatchObject({ status: 'executed' });
      expect(existsSync(path.join(root, 'human.txt'))).toBe(true);
    });
    expect(out).not.toContain('the host is unprotected');
    expect(out).toContain(
      'sandbox  none (bubblewrap (bwrap) is not installed): auto-approved commands are refused (--sandbox required)',
    );
  });

  it('--sandbox all: human-approved commands are refused too', async () => {
    await withRunner(['--sandbox', 'all'], missing, async () => {
      await gateway.current.runners.execute(PROJECT, execute('d-all-human', 'echo ran > all.txt', 'human'));
      expect(await gateway.waitForResult('d-all-human')).toMatchObject({
        status: 'refused',
        reason: { code: 'sandbox_unavailable' },
      });
      expect(existsSync(path.join(root, 'all.txt'))).toBe(false);
    });
  });
});

describe('--sandbox all with bwrap: human-approved commands are sandboxed too', () => {
  it('a human-approved write outside the root fails under --sandbox all and succeeds under the default', async () => {
    // Under /var/tmp: the sandbox replaces /tmp, where a write would land in its private copy.
    const outsideDir = mkdtempSync(path.join('/var/tmp', 'brabo-sbx-all-'));
    const target = path.join(outsideDir, 'outside.txt');
    try {
      await withRunner(['--sandbox', 'all'], { available: true, backend: 'bwrap', seccomp: true }, async () => {
        await gateway.current.runners.execute(PROJECT, execute('d-all', `echo x > ${target}`, 'human'));
        expect((await gateway.waitForResult('d-all')).exitCode).not.toBe(0);
        expect(existsSync(target)).toBe(false);
      });
      await withRunner([], { available: true, backend: 'bwrap', seccomp: true }, async () => {
        await gateway.current.runners.execute(PROJECT, execute('d-default', `echo x > ${target}`, 'human'));
        expect((await gateway.waitForResult('d-default')).exitCode).toBe(0);
        expect(existsSync(target)).toBe(true);
      });
    } finally {
      rmSync(outsideDir, { recursive: true, force: true });
    }
  });

  it('--sandbox-git: read-only by default (auto-approved git add fails), writable lets it commit; the join and the banner say which', async () => {
    const { execFileSync } = await import('node:child_process');
    const { writeFileSync } = await import('node:fs');
    const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
    execFileSync('sh', ['-c', 'git init -q -b main . && git config user.email a@b && git config user.name a'], {
      cwd: root,
      env,
    });
    writeFileSync(path.join(root, 'a.txt'), 'a\n');
    const bwrap: Availability = { available: true, backend: 'bwrap', seccomp: true };
    const commit = 'git add a.txt && git commit -qm one && git log --oneline | wc -l';
    const readOnly = await withRunner([], bwrap, async () => {
      expect(gateway.current.runners.connectedRunners()[0]?.sandbox).toMatchObject({ git: 'read-only' });
      await gateway.current.runners.execute(PROJECT, execute('d-git-ro', commit, 'auto'));
      const result = await gateway.waitForResult('d-git-ro');
      expect(result).toMatchObject({ status: 'executed' });
      expect(result.exitCode).not.toBe(0);
      expect(result.stderr).toContain('Read-only file system');
    });
    expect(readOnly).toContain(
      'sandbox  bwrap for auto-approved commands, network on, .git read-only (--sandbox auto)',
    );
    const writable = await withRunner(['--sandbox-git', 'writable'], bwrap, async () => {
      expect(gateway.current.runners.connectedRunners()[0]?.sandbox).toMatchObject({ git: 'writable' });
      await gateway.current.runners.execute(PROJECT, execute('d-git-rw', commit, 'auto'));
      expect(await gateway.waitForResult('d-git-rw')).toMatchObject({ status: 'executed', exitCode: 0, stdout: '1\n' });
    });
    expect(writable).toContain('sandbox  bwrap for auto-approved commands, network on, .git writable (--sandbox auto)');
  });

  it('usage errors are named: --sandbox sometimes, --sandbox-network maybe, --sandbox-git rw', () => {
    const base = ['--url', 'ws://x/socket', '--token', 't', '--project', 'p', '--root', dir];
    expect(() => parseRunnerArgs([...base, '--sandbox', 'sometimes'], {})).toThrow(
      '--sandbox must be one of auto, required, all, off',
    );
    expect(() => parseRunnerArgs([...base, '--sandbox-network', 'maybe'], {})).toThrow(
      '--sandbox-network must be on or off',
    );
    expect(() => parseRunnerArgs([...base, '--sandbox-git', 'rw'], {})).toThrow(
      '--sandbox-git must be read-only or writable',
    );
    expect(parseRunnerArgs(base, {})).toMatchObject({ sandbox: 'auto', sandboxNetwork: true, sandboxGit: 'read-only' });
    expect(parseRunnerArgs([...base, '--sandbox-git', 'writable'], {})).toMatchObject({ sandboxGit: 'writable' });
    expect(parseRunnerArgs([...base, '--sandbox-network', 'off', '--sandbox', 'all'], {})).toMatchObject({
      sandbox: 'all',
      sandboxNetwork: false,
    });
  });
});
