// A real `brabo serve` child process: killed with SIGKILL right after an approval response, the
// approval, its events and the hand-off are there after a restart (synchronous=FULL, WAL).
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { api, type Api, killAllChildren, type ServeProcess, startServe, stopChild } from '../e2e/support.ts';

let dir: string | undefined;

afterEach(async () => {
  await killAllChildren();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** `brabo serve` without BRABO_ADMIN_TOKEN: the first start generates the token file (its path is printed). */
async function serve(dataDir: string, workspaces: string): Promise<ServeProcess & { tokenPath: string | null }> {
  const server = await startServe(dataDir, { PROJECT_WORKSPACES_ROOT: workspaces, BRABO_ADMIN_TOKEN: undefined });
  const tokenPath = /admin token in (\S+) \(mode 0600\)/.exec(server.output())?.[1] ?? null;
  return { ...server, tokenPath };
}

// The admin token provisions; day-to-day calls go with a service token it minted (kept across the restart).
const call = (server: Api, token: string, method: string, path: string, body?: unknown) =>
  api(server.base, undefined, token).call(method, path, body);

describe('durability (real brabo serve)', () => {
  it('an approval answered before SIGKILL is there after restart, with its events and its queued hand-off', async () => {
    dir = mkdtempSync(join(tmpdir(), 'brabo-durable-'));
    const dataDir = join(dir, 'data');
    const workspaces = join(dir, 'ws');
    const first = await serve(dataDir, workspaces);
    expect(first.tokenPath).toBe(join(dataDir, 'admin-token'));
    expect(statSync(join(dataDir, 'admin-token')).mode & 0o777).toBe(0o600);
    const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();

    const project = await call(first, token, 'POST', '/api/projects', {
      name: 'Durable',
      executionMode: 'container',
      ownerId: 'olivia',
    });
    await call(first, token, 'PUT', `/api/projects/${project.body.id}/members/agent`, {
      role: 'developer',
      kind: 'agent',
    });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const p = await call(first, token, 'POST', `/api/projects/${project.body.id}/actions`, {
        agentId: 'agent',
        actionType: 'terminal',
        payload: { command: `make t${i}`, cwd: project.body.root },
      });
      ids.push(p.body.id);
    }
    for (const id of ids.slice(0, 4))
      await call(first, token, 'POST', `/api/actions/${id}/approve`, { userId: 'olivia' });
    const last = await call(first, token, 'POST', `/api/actions/${ids[4]}/approve`, { userId: 'olivia' });
    expect(last.status).toBe(200);
    await stopChild(first.child, 'SIGKILL');

    // The file is the operator's copy only: the store has the token's hash, so deleting the file
    // changes nothing, and the restart neither reads nor rewrites it.
    rmSync(join(dataDir, 'admin-token'));
    const second = await serve(dataDir, workspaces);
    expect(second.tokenPath).toBeNull();
    expect(second.output()).toContain('admin token in the store (hashes only; 1 usable admin credential(s)');
    expect(existsSync(join(dataDir, 'admin-token'))).toBe(false);
    for (const id of ids) {
      const got = await call(second, token, 'GET', `/api/actions/${id}`);
      expect(got.body).toMatchObject({ status: 'approved', decidedBy: 'olivia', execution: { status: 'queued' } });
    }
    const events = (await call(second, token, 'GET', `/api/projects/${project.body.id}/events?limit=1000`)).body
      .events as Array<{ type: string; actionId: string }>;
    expect(events.filter((e) => e.type === 'proposed_action.approved').map((e) => e.actionId)).toEqual(ids);
    expect(events.filter((e) => e.type === 'proposed_action.created')).toHaveLength(5);
  }, 60_000);
});
