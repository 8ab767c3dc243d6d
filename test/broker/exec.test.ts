// Exec against the real engine: cwd escapes refused (lexically and inside the exec), byte-exact
// demuxed output with caps, exit codes, timeouts that leave nothing running, OOM and pids limits.
import { mkdir, rename, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DockerBroker } from '../../broker/index.ts';
import type { BrokerResult, ExecOutcome } from '../../broker/port.ts';
import { cleanUp, makeWorkspace, newRunId, spec, testBroker, value } from './helpers.ts';

const runId = newRunId();
const folders: string[] = [];
let broker: DockerBroker;
let workspace: string;

beforeAll(async () => {
  broker = testBroker(runId);
  workspace = await makeWorkspace();
  folders.push(workspace);
  await mkdir(join(workspace, 'sub', 'deeper'), { recursive: true });
  await symlink('/etc', join(workspace, 'to-etc'));
  await symlink('..', join(workspace, 'sub', 'up'));
  await symlink('/proc/self/cwd', join(workspace, 'to-proc-cwd'));
  await symlink('/proc/1/root', join(workspace, 'to-proc-root'));
  await symlink('sub/deeper', join(workspace, 'to-deeper'));
  // The limits that the OOM / fork-bomb tests rely on: small, so they are quick.
  value(await broker.start(spec('exec', workspace, { resources: { cpus: 1, memoryMb: 32, pids: 64 } })));
});

afterAll(async () => {
  await cleanUp(runId, folders);
});

function failureCode(result: BrokerResult<ExecOutcome>): string {
  return result.ok ? `ok(exit ${result.value.exitCode})` : result.failure.code;
}

async function processesIn(projectId: string): Promise<string> {
  return value(await broker.exec(projectId, { command: 'ps -o pid,args', cwd: '/work' })).stdout;
}

describe('cwd must stay inside /work (DiretorioForaDoEscopoError)', () => {
  it.each(['/work/../etc', '/etc', '/', '/workspace', 'work', '/proc/self/fd/3', '/proc/self/cwd'])(
    'refuses %s lexically, before Docker',
    async (cwd) => {
      const result = await broker.exec('exec', { command: 'touch /work/should-not-exist; pwd', cwd });
      expect(failureCode(result)).toBe('cwd_outside_workspace');
      if (!result.ok) expect(result.failure.message).toContain('DiretorioForaDoEscopoError');
    },
  );

  it.each([
    ['/work/to-etc', '/etc'],
    ['/work/sub/up/to-etc', '/etc'],
    ['/work/to-proc-cwd', '/'],
    ['/work/to-proc-root', '/'],
  ])('refuses %s, a symlink that leads to %s, inside the exec', async (cwd, resolved) => {
    const result = await broker.exec('exec', { command: 'touch /work/should-not-exist; pwd', cwd });
    expect(failureCode(result)).toBe('cwd_outside_workspace');
    if (!result.ok) expect(result.failure.detail?.resolved).toBe(resolved);
    expect(
      value(await broker.exec('exec', { command: 'ls should-not-exist 2>/dev/null || echo absent', cwd: '/work' }))
        .stdout,
    ).toBe('absent\n');
  });

  it('follows symlinks that stay inside /work and runs in the physical directory', async () => {
    expect(value(await broker.exec('exec', { command: 'pwd', cwd: '/work/to-deeper' })).stdout).toBe(
      '/work/sub/deeper\n',
    );
    expect(value(await broker.exec('exec', { command: 'pwd', cwd: '/work/sub/up' })).stdout).toBe('/work\n');
  });

  it('a symlink swapped back and forth during execs never runs a command outside /work', async () => {
    const link = join(workspace, 'swapping');
    await symlink('sub', link);
    let swapping = true;
    const swapper = (async () => {
      for (let i = 0; swapping; i++) {
        const next = join(workspace, `swapping.next`);
        await rm(next, { force: true });
        await symlink(i % 2 === 0 ? '/etc' : 'sub', next);
        await rename(next, link);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const results = [];
    for (let i = 0; i < 24; i++) results.push(await broker.exec('exec', { command: 'pwd', cwd: '/work/swapping' }));
    swapping = false;
    await swapper;
    for (const result of results) {
      if (result.ok) expect(result.value.stdout).toBe('/work/sub\n');
      else expect(result.failure.code).toBe('cwd_outside_workspace');
    }
  });
});

describe('output and exit codes', () => {
  it('separates interleaved stdout and stderr byte-exactly and reports the exit code', async () => {
    const result = value(
      await broker.exec('exec', {
        command: 'i=1; while [ $i -le 300 ]; do echo "out $i"; echo "err $i" >&2; i=$((i+1)); done; exit 7',
        cwd: '/work',
      }),
    );
    const lines = (prefix: string) => Array.from({ length: 300 }, (_, i) => `${prefix} ${i + 1}\n`).join('');
    expect(result).toMatchObject({ exitCode: 7, stdout: lines('out'), stderr: lines('err'), truncated: false });
  });

  it('keeps more than 64 KiB exact, including multi-byte characters split across frames', async () => {
    const result = value(
      await broker.exec('exec', {
        command: 'yes "çé€𝄞" | head -n 20000; head -c 150000 /dev/zero | tr "\\0" "e" >&2',
        cwd: '/work',
      }),
    );
    expect(result.stdout).toBe('çé€𝄞\n'.repeat(20000));
    expect(Buffer.byteLength(result.stdout)).toBeGreaterThan(64 * 1024);
    expect(result.stderr).toBe('e'.repeat(150000));
    expect(result.truncated).toBe(false);
  });

  it('caps output per stream and says it truncated, without stopping the command', async () => {
    const result = value(
      await broker.exec('exec', {
        command: 'head -c 100000 /dev/zero | tr "\\0" "o"; echo small >&2; echo done > done.txt',
        cwd: '/work',
        maxOutputBytes: 1000,
      }),
    );
    expect(result).toMatchObject({ exitCode: 0, stdout: 'o'.repeat(1000), stderr: 'small\n', truncated: true });
    expect(value(await broker.exec('exec', { command: 'cat done.txt', cwd: '/work' })).stdout).toBe('done\n');
  });

  it('passes the command to sh -c verbatim and keeps an empty output empty', async () => {
    const result = value(
      await broker.exec('exec', { command: `printf '%s|' "a b" '$HOME' && false`, cwd: '/work/sub' }),
    );
    expect(result).toMatchObject({ exitCode: 1, stdout: 'a b|$HOME|', stderr: '' });
  });
});

describe('timeouts, OOM and pids limits', () => {
  it('a timeout kills the whole process group and leaves nothing running', async () => {
    const started = Date.now();
    const result = await broker.exec('exec', {
      command: 'sleep 301 & (sleep 302; echo never) & sh -c "sleep 303"',
      cwd: '/work',
      timeoutMs: 1500,
    });
    expect(failureCode(result)).toBe('command_timeout');
    if (!result.ok) expect(result.failure.detail).toMatchObject({ timeoutMs: 1500, killed: true });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await processesIn('exec')).not.toMatch(/sleep 30[123]/);
  });

  it('a memory hog is reported as oom_killed and the container survives', async () => {
    const result = await broker.exec('exec', { command: 'head -c 200m /dev/zero | tail', cwd: '/work' });
    expect(failureCode(result)).toBe('oom_killed');
    if (!result.ok) expect(result.failure.message).toContain('32 MiB');
    expect(value(await broker.exec('exec', { command: 'echo alive', cwd: '/work' })).stdout).toBe('alive\n');
    // A plain SIGKILL by the command itself is an exit code, not an OOM.
    const selfKill = value(await broker.exec('exec', { command: 'sleep 10 & kill -KILL $$', cwd: '/work' }));
    expect(selfKill.exitCode).toBe(137);
  });

  it('a fork loop hits the pids limit and the container still answers', async () => {
    const result = value(
      await broker.exec('exec', {
        command: 'i=0; while [ $i -lt 200 ]; do sleep 2 & i=$((i+1)); done',
        cwd: '/work',
        timeoutMs: 20_000,
      }),
    );
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(/can't fork|Resource temporarily unavailable/);
    expect(value(await broker.exec('exec', { command: 'echo alive', cwd: '/work' })).stdout).toBe('alive\n');
  });

  it('processes that exhaust the pids limit are still killed on timeout, and none remain', async () => {
    // No new exec can start while the limit is used up: the in-container watchdog does the kill.
    const result = await broker.exec('exec', {
      command: 'i=0; while [ $i -lt 200 ]; do sleep 1000 & i=$((i+1)); done',
      cwd: '/work',
      timeoutMs: 2000,
    });
    expect(failureCode(result)).toBe('command_timeout');
    if (!result.ok) expect(result.failure.detail).toMatchObject({ killed: true });
    const after = await processesIn('exec');
    expect(after).not.toMatch(/sleep 1000/);
    expect(value(await broker.exec('exec', { command: 'echo alive', cwd: '/work' })).stdout).toBe('alive\n');
  });
});

describe('container state', () => {
  it('container_not_running for a stopped or absent container', async () => {
    const other = testBroker(runId);
    value(await other.start(spec('exec-stopped', workspace)));
    value(await other.stop('exec-stopped'));
    expect(failureCode(await other.exec('exec-stopped', { command: 'true', cwd: '/work' }))).toBe(
      'container_not_running',
    );
    expect(failureCode(await other.exec('exec-never', { command: 'true', cwd: '/work' }))).toBe(
      'container_not_running',
    );
  });

  it('finds a container replaced behind its back (cached id gone)', async () => {
    const other = testBroker(runId);
    value(await other.start(spec('exec-replaced', workspace)));
    value(await other.exec('exec-replaced', { command: 'true', cwd: '/work' }));
    const outsider = testBroker(runId);
    value(await outsider.remove('exec-replaced'));
    value(await outsider.start(spec('exec-replaced', workspace)));
    expect(value(await other.exec('exec-replaced', { command: 'echo again', cwd: '/work' })).stdout).toBe('again\n');
  });
});
