// A real `brabo serve` child process: killed with SIGKILL right after an approval response, the
// approval, its events and the hand-off are there after a restart (synchronous=FULL, WAL).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const BIN = resolve(import.meta.dirname, '../../bin/brabo');
const children: ChildProcess[] = [];
let dir: string | undefined;

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Server {
  child: ChildProcess;
  url: string;
  tokenPath: string;
}

async function serve(dataDir: string, workspaces: string): Promise<Server> {
  const env: NodeJS.ProcessEnv = { ...process.env, PROJECT_WORKSPACES_ROOT: workspaces, LOG_LEVEL: 'warn' };
  delete env.BRABO_ADMIN_TOKEN;
  const child = spawn(BIN, ['serve', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`brabo serve did not start: ${out}${err}`)), 20_000);
    child.on('exit', (code) => reject(new Error(`brabo serve exited ${code}: ${out}${err}`)));
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const listening = /listening on (http:\/\/[^\s]+)/.exec(out);
      const token = /admin token in (\S+) \(mode 0600\)/.exec(out);
      if (listening?.[1] && token?.[1]) {
        clearTimeout(timer);
        resolvePromise({ child, url: listening[1], tokenPath: token[1] });
      }
    });
  });
}

async function call(server: Server, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

const killed = (child: ChildProcess) => new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r())));

describe('durability (real brabo serve)', () => {
  it('an approval answered before SIGKILL is there after restart, with its events and its queued hand-off', async () => {
    dir = mkdtempSync(join(tmpdir(), 'brabo-durable-'));
    const dataDir = join(dir, 'data');
    const workspaces = join(dir, 'ws');
    const first = await serve(dataDir, workspaces);
    expect(first.tokenPath).toBe(join(dataDir, 'admin-token'));
    expect(statSync(first.tokenPath).mode & 0o777).toBe(0o600);
    const token = readFileSync(first.tokenPath, 'utf8').trim();

    const project = await call(first, token, 'POST', '/api/projects', { name: 'Durable', executionMode: 'container', ownerId: 'olivia' });
    await call(first, token, 'PUT', `/api/projects/${project.body.id}/members/agent`, { role: 'developer', kind: 'agent' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const p = await call(first, token, 'POST', `/api/projects/${project.body.id}/actions`, { agentId: 'agent', actionType: 'terminal', payload: { command: `make t${i}`, cwd: project.body.root } });
      ids.push(p.body.id);
    }
    for (const id of ids.slice(0, 4)) await call(first, token, 'POST', `/api/actions/${id}/approve`, { userId: 'olivia' });
    const last = await call(first, token, 'POST', `/api/actions/${ids[4]}/approve`, { userId: 'olivia' });
    expect(last.status).toBe(200);
    first.child.kill('SIGKILL');
    await killed(first.child);

    const second = await serve(dataDir, workspaces);
    expect(readFileSync(second.tokenPath, 'utf8').trim()).toBe(token);
    for (const id of ids) {
      const got = await call(second, token, 'GET', `/api/actions/${id}`);
      expect(got.body).toMatchObject({ status: 'approved', decidedBy: 'olivia', execution: { status: 'queued' } });
    }
    const events = (await call(second, token, 'GET', `/api/projects/${project.body.id}/events?limit=1000`)).body.events as Array<{ type: string; actionId: string }>;
    expect(events.filter((e) => e.type === 'proposed_action.approved').map((e) => e.actionId)).toEqual(ids);
    expect(events.filter((e) => e.type === 'proposed_action.created')).toHaveLength(5);
  }, 60_000);
});
