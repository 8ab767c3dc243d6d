// Issue 12 ("an agent token never reads other projects") on the socket: agent ids repeat across
// projects (`dev-<module>`), so `agent:<id>` joined with an agent token bound to project A must
// carry A's settlements only, never B's agent of the same id. Admin and service sockets (the
// upstream api relays for every project) still hear every project's `agent:<id>`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, joinAgentTopic, type Server, startServer, tempDir, waitUntil } from '../e2e/support.ts';

let server: Server;
const projects: Record<string, { id: string; root: string; agentToken: string }> = {};

beforeAll(async () => {
  server = await startServer();
  for (const name of ['alpha', 'beta', 'gamma']) {
    const root = tempDir(name);
    const created = await server.call('POST', '/api/projects', {
      name,
      executionMode: 'runner',
      root,
      ownerId: `owner-${name}`,
    });
    const id = created.body.id as string;
    await server.call('PUT', `/api/projects/${id}/members/agent-dev`, { role: 'developer', kind: 'agent' });
    const minted = await server.call('POST', '/api/credentials', {
      kind: 'agent',
      projectId: id,
      agentId: 'agent-dev',
    });
    projects[name] = { id, root, agentToken: minted.body.token };
  }
});
afterAll(async () => {
  await server?.close();
});

async function proposeAndDeny(name: string, reason: string): Promise<string> {
  const { id, root, agentToken } = projects[name]!;
  const proposed = await api(server.base, agentToken).call('POST', `/api/projects/${id}/actions`, {
    agentId: 'agent-dev',
    actionType: 'terminal',
    payload: { command: 'make build', cwd: root },
  });
  expect(proposed.status).toBe(201);
  const denied = await server.call('POST', `/api/actions/${proposed.body.id}/deny`, {
    actingUserId: `owner-${name}`,
    reason,
  });
  expect(denied.status).toBe(200);
  return proposed.body.id as string;
}

describe('agent:<id> with an agent token carries its own project only', () => {
  it("each project's agent-dev hears its own denial and none of the other projects', in any order; the service relay hears all", async () => {
    const listeners = {
      alpha: await joinAgentTopic(server.wsUrl, 'agent-dev', projects['alpha']!.agentToken),
      beta: await joinAgentTopic(server.wsUrl, 'agent-dev', projects['beta']!.agentToken),
      gamma: await joinAgentTopic(server.wsUrl, 'agent-dev', projects['gamma']!.agentToken),
      service: await joinAgentTopic(server.wsUrl, 'agent-dev'),
    };
    try {
      const own: Record<string, string[]> = { alpha: [], beta: [], gamma: [] };
      // 12 settlements interleaved across the three projects.
      for (let i = 0; i < 12; i += 1) {
        const name = (['beta', 'alpha', 'gamma', 'beta'] as const)[i % 4]!;
        own[name]!.push(await proposeAndDeny(name, `secret-reason-of-${name}-${i}`));
      }
      await waitUntil(() => listeners.service.received.length >= 12, 'the service relay to hear all 12');
      // A leak would arrive with the project's own messages; give it time to show before counting.
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const name of ['alpha', 'beta', 'gamma'] as const) {
        await waitUntil(() => listeners[name].received.length >= own[name]!.length, `${name}'s own settlements`);
        const heard = listeners[name].received.map((m) => m.payload.actionId as string);
        expect(heard.sort()).toEqual([...own[name]!].sort());
        const text = JSON.stringify(listeners[name].received);
        for (const other of ['alpha', 'beta', 'gamma'].filter((n) => n !== name))
          expect(text).not.toContain(`secret-reason-of-${other}`);
      }
      expect(listeners.service.received.map((m) => m.payload.actionId).sort()).toEqual(
        [...own['alpha']!, ...own['beta']!, ...own['gamma']!].sort(),
      );
    } finally {
      for (const listener of Object.values(listeners)) listener.socket.disconnect();
    }
  });
});
