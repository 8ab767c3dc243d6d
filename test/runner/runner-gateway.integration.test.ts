// A real `brabo runner` process against the real gateway over a real socket (the runner uses the
// real phoenix client): executes flow through RunnerHub, results come back through the sink.
import { spawnSync } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { byRunnerToken } from '../../gateway/index.ts';
import { startGatewayHarness } from './support/gateway-harness.ts';
import type { GatewayHarness } from './support/gateway-harness.ts';
import { alive, tempDir, waitFor } from './support/fixtures.ts';
import { runnerArgs, startRunner } from './support/runner-process.ts';
import type { RunnerProcess } from './support/runner-process.ts';

const PROJECT = 'proj-1';
let gateway: GatewayHarness;
let dir: string;
let root: string;
let cleanup: () => Promise<void>;
let runner: RunnerProcess | null = null;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('runner-it'));
  root = path.join(dir, 'project');
  await mkdir(root);
  gateway = await startGatewayHarness();
});
afterEach(async () => {
  await runner?.stop();
  runner = null;
  await gateway.close();
  await cleanup();
});

function launch(token: string, extra: string[] = []): RunnerProcess {
  runner = startRunner([
    ...runnerArgs({ url: gateway.url, token, project: PROJECT, root, journal: path.join(dir, 'journal.jsonl') }),
    ...extra,
  ]);
  return runner;
}

async function connectedRunner(): Promise<{ process: RunnerProcess; tokenId: string }> {
  const { token, tokenId } = gateway.tokens.issue(PROJECT);
  const process = launch(token);
  await process.waitForOutput(`● connected, joined runner:${PROJECT}`);
  await waitFor(() => gateway.current.runners.isConnected(PROJECT), 5_000, 'the hub to see the runner');
  return { process, tokenId };
}

// Human-approved: these tests watch host pids and files outside the root, which the sandbox of
// auto-approved commands hides (that path has its own tests in sandbox-*.test.ts).
const terminal = (dispatchId: string, command: string, cwd = root, attempt = 1) => ({
  dispatchId,
  attempt,
  action: { type: 'terminal' as const, command, cwd, approval: 'human' as const },
});
const runs = async (): Promise<number> =>
  (await readFile(path.join(root, 'counter'), 'utf8').catch(() => '')).split('\n').filter(Boolean).length;

describe('brabo runner over the real gateway (RN-497)', () => {
  it('runs an execute pushed through the hub and reports result, output and a readable terminal line', async () => {
    const { process } = await connectedRunner();
    const delivery = await gateway.current.runners.execute(
      PROJECT,
      terminal('d-1', 'echo hello; echo warn >&2; exit 4'),
    );
    expect(delivery).toEqual({ ok: true });
    const result = await gateway.waitForResult('d-1');
    expect(result).toMatchObject({
      status: 'executed',
      exitCode: 4,
      stdout: 'hello\n',
      stderr: 'warn\n',
      truncated: false,
    });
    await waitFor(() => gateway.outputs.some((o) => o.dispatchId === 'd-1'), 5_000, 'output chunks');
    await process.waitForOutput(`▶ d-1 $ echo hello; echo warn >&2; exit 4  (${root})`);
    await process.waitForOutput('✖ d-1 exit 4 in');
    expect(process.stdout()).toContain(`server   ${gateway.url}`);
    expect(process.stdout()).toContain(`root     ${root}`);
  });

  it('refuses a cwd outside --root with cwd_outside_root and says why on the terminal', async () => {
    const { process } = await connectedRunner();
    await gateway.current.runners.execute(PROJECT, terminal('d-out', 'echo ran >> counter', dir));
    const result = await gateway.waitForResult('d-out');
    expect(result).toMatchObject({ status: 'refused', reason: { code: 'cwd_outside_root' } });
    expect(await runs()).toBe(0);
    await process.waitForOutput('⊘ d-out refused: cwd_outside_root');
  });

  it('a re-delivered dispatch is answered from the journal, the command having run once', async () => {
    const { process } = await connectedRunner();
    await gateway.current.runners.execute(PROJECT, terminal('d-2', 'echo ran >> counter; echo once'));
    await gateway.waitForResult('d-2');
    await gateway.current.runners.execute(PROJECT, terminal('d-2', 'echo ran >> counter; echo once', root, 2));
    const again = await gateway.waitForResult('d-2', 2);
    expect(again).toMatchObject({ status: 'executed', stdout: 'once\n', fromJournal: true, attempt: 2 });
    expect(await runs()).toBe(1);
    await process.waitForOutput('↺ d-2 [attempt 2] answered from the journal');
  });

  it('an invalid execute is refused with invalid_execute and the runner keeps serving', async () => {
    await connectedRunner();
    gateway.current.gateway.broadcast(`runner:${PROJECT}`, 'execute', {
      dispatchId: 'd-bad',
      attempt: 1,
      action: { type: 'terminal' },
    });
    gateway.current.gateway.broadcast(`runner:${PROJECT}`, 'execute', 'not even an object');
    expect(await gateway.waitForResult('d-bad')).toMatchObject({
      status: 'refused',
      reason: { code: 'invalid_execute' },
    });
    await gateway.current.runners.execute(PROJECT, terminal('d-after', 'echo still here'));
    expect(await gateway.waitForResult('d-after')).toMatchObject({ status: 'executed', stdout: 'still here\n' });
  });

  it('a result produced while the gateway is down is re-sent after the runner reconnects', async () => {
    const { process } = await connectedRunner();
    await gateway.current.runners.execute(PROJECT, terminal('d-3', 'sleep 1; echo ran >> counter; echo late'));
    await gateway.restartGateway(2_000);
    await process.waitForOutput('✔ d-3 exit 0');
    const result = await gateway.waitForResult('d-3', 1, 20_000);
    expect(result).toMatchObject({ status: 'executed', stdout: 'late\n' });
    expect(await runs()).toBe(1);
    await process.waitForOutput('re-sent 1 unacknowledged result(s)');
  });
});

describe('brabo runner: stopping', () => {
  it('SIGTERM kills the running command group, journals its result and exits 0', async () => {
    const { process } = await connectedRunner();
    await gateway.current.runners.execute(PROJECT, terminal('d-stop', 'sleep 60 & echo $! > bg.pid; sleep 60'));
    await waitFor(
      async () => (await readFile(path.join(root, 'bg.pid'), 'utf8').catch(() => '')).trim().length > 0,
      10_000,
      'the command to start',
    );
    const background = Number((await readFile(path.join(root, 'bg.pid'), 'utf8')).trim());
    expect(await process.stop()).toBe(0);
    await waitFor(() => !alive(background), 5_000, 'the background sleep to be gone');
    expect(process.stdout()).toContain('d-stop failed after');
    expect(process.stdout()).toContain('runner_shutdown');
  });
});

describe('brabo runner: a refused token stops it with a clear message', () => {
  it('exits non-zero at start when the server answers 403, without hot-looping', async () => {
    const process = launch('brt_not-a-real-token');
    const code = await process.exited;
    expect(code).toBe(1);
    expect(process.stdout()).toContain(
      "the server refused this runner's token (HTTP 403): create a new token with POST /api/projects/:id/runner-tokens",
    );
    expect(gateway.upgrades()).toBeLessThanOrEqual(2);
  });

  it('gives up with exit 1 and the code forbidden_topic when the token belongs to another project', async () => {
    const { token } = gateway.tokens.issue('some-other-project');
    const process = launch(token);
    expect(await process.exited).toBe(1);
    expect(process.stdout()).toContain('forbidden_topic: this token does not belong to the --project given');
  });

  it('exits non-zero when its token is revoked while connected', async () => {
    const { process, tokenId } = await connectedRunner();
    gateway.tokens.revoke(tokenId);
    gateway.current.gateway.disconnect(byRunnerToken(tokenId));
    expect(await process.exited).toBe(1);
    expect(process.stdout()).toContain('(HTTP 403)');
    expect(gateway.upgrades()).toBeLessThanOrEqual(6);
  });
});

describe('brabo runner: container actions on the real Docker engine', () => {
  const dockerProject = `runner-it-${process.pid}`;
  afterEach(() => {
    // Containers this test made carry the runner's project label; remove whatever is left.
    spawnSync(
      'sh',
      ['-c', `docker ps -aq --filter label=brabo.runner.project=${dockerProject} | xargs -r docker rm -f`],
      { stdio: 'ignore' },
    );
  });

  it('container_start, container_stop and container_remove run through the broker with --root mounted', async () => {
    const { token } = gateway.tokens.issue(dockerProject);
    runner = startRunner([
      ...runnerArgs({
        url: gateway.url,
        token,
        project: dockerProject,
        root,
        journal: path.join(dir, 'journal.jsonl'),
      }),
      '--container-image',
      'brabo-test-busybox:latest',
    ]);
    await runner.waitForOutput('● connected');
    await waitFor(() => gateway.current.runners.isConnected(dockerProject), 5_000, 'the hub to see the runner');

    await gateway.current.runners.execute(dockerProject, {
      dispatchId: 'c-start',
      attempt: 1,
      action: { type: 'container_start', resources: { cpus: 0.5, memoryMb: 64, pids: 64 } },
    });
    const started = await gateway.waitForResult('c-start', 1, 60_000);
    expect(started, JSON.stringify(started)).toMatchObject({ status: 'executed', exitCode: 0 });
    const mounts = spawnSync(
      'sh',
      [
        '-c',
        `docker inspect --format '{{range .Mounts}}{{.Source}}:{{.Destination}} {{end}}' $(docker ps -q --filter label=brabo.runner.project=${dockerProject})`,
      ],
      { encoding: 'utf8' },
    );
    expect(mounts.stdout.trim()).toBe(`${root}:/work`);

    await gateway.current.runners.execute(dockerProject, {
      dispatchId: 'c-stop',
      attempt: 1,
      action: { type: 'container_stop' },
    });
    expect(await gateway.waitForResult('c-stop', 1, 60_000)).toMatchObject({ status: 'executed' });
    await gateway.current.runners.execute(dockerProject, {
      dispatchId: 'c-rm',
      attempt: 1,
      action: { type: 'container_remove' },
    });
    expect(await gateway.waitForResult('c-rm', 1, 60_000)).toMatchObject({ status: 'executed' });
    const left = spawnSync('sh', ['-c', `docker ps -aq --filter label=brabo.runner.project=${dockerProject}`], {
      encoding: 'utf8',
    });
    expect(left.stdout.trim()).toBe('');
  }, 120_000);
});
