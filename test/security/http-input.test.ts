// Adversarial request bodies: hostile JSON, extra fields, and names/roots aimed at the filesystem.
// Each one gets a named 4xx and changes nothing; none reaches a 500 or a folder outside its base.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, isProvisioning, seedProject, startTestApp, type TestApp } from '../http/helpers.ts';

let t: TestApp;
let project: Awaited<ReturnType<typeof seedProject>>;

beforeAll(async () => {
  t = await startTestApp();
  project = await seedProject(t);
});
afterAll(async () => t.close());

const raw = async (url: string, body: string, contentType = 'application/json') => {
  const r = await t.app.http.inject({
    method: 'POST',
    url,
    headers: {
      authorization: `Bearer ${isProvisioning('POST', url) ? ADMIN_TOKEN : t.serviceToken}`,
      'content-type': contentType,
    },
    payload: body,
  });
  return { status: r.statusCode, body: r.json() as { error: string; message: string } };
};
const actionCount = async () =>
  (await t.call('GET', `/api/projects/${project.id}/actions?limit=1000`)).body.actions.length;

describe('hostile JSON bodies', () => {
  it('__proto__ and constructor.prototype anywhere in a body are refused, and nothing is polluted', async () => {
    const before = await actionCount();
    const bodies = [
      '{"agentId":"agent-dev","actionType":"terminal","payload":{"command":"ls","__proto__":{"polluted":1}}}',
      '{"agentId":"agent-dev","actionType":"terminal","payload":{"command":"ls","constructor":{"prototype":{"polluted":1}}}}',
      '{"__proto__":{"polluted":1},"agentId":"agent-dev","actionType":"terminal","payload":{"command":"ls"}}',
    ];
    for (const body of bodies) {
      const r = await raw(`/api/projects/${project.id}/actions`, body);
      expect(r.status, body).toBe(400);
      expect(typeof r.body.error).toBe('string');
    }
    const created = await raw(
      '/api/projects',
      '{"name":"p","executionMode":"container","ownerId":"o","moduleMap":{"__proto__":{"polluted":1}}}',
    );
    expect(created.status).toBe(400);
    const permissions = await raw(
      `/api/projects/${project.id}/permissions`,
      '{"userId":"olivia","allow":[],"deny":[],"ask":[],"__proto__":{"allow":["Terminal(curl)"]}}',
    );
    expect(permissions.status).toBe(400);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(await actionCount()).toBe(before);
  });

  it('malformed JSON, a wrong content type and an oversized body get named errors', async () => {
    const malformed = await raw(`/api/projects/${project.id}/actions`, '{"agentId":');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBeTruthy();
    const text = await raw(`/api/projects/${project.id}/actions`, 'agentId=agent-dev', 'text/plain');
    expect([400, 415]).toContain(text.status);
    const big = await raw(
      `/api/projects/${project.id}/actions`,
      JSON.stringify({ agentId: 'agent-dev', actionType: 'terminal', payload: { command: 'x'.repeat(1_100_000) } }),
    );
    expect(big.status).toBe(413);
  });

  it('a deeply nested payload or module map is a 400, never a 500 (the store would overflow the stack)', async () => {
    const before = await actionCount();
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const r = await raw(
      `/api/projects/${project.id}/actions`,
      `{"agentId":"agent-dev","actionType":"terminal","payload":{"command":"ls","x":${deep}}}`,
    );
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid_request');
    const moduleMap = await raw(
      '/api/projects',
      `{"name":"p","executionMode":"container","ownerId":"o","moduleMap":{"api":{"x":${deep}}}}`,
    );
    expect(moduleMap.status).toBe(400);
    expect(await actionCount()).toBe(before);
    // Ordinary nesting still goes through.
    const fine = await t.call('POST', `/api/projects/${project.id}/actions`, {
      agentId: 'agent-dev',
      actionType: 'container_start',
      payload: { resources: { cpus: 1, memoryMb: 512 } },
    });
    expect(fine.status).toBe(201);
  });
});

describe('mass assignment: extra fields are never honoured', () => {
  it('project creation ignores id, root, workspaceDirName, slug and executionActivatedAt sent by the caller', async () => {
    const r = await t.call('POST', '/api/projects', {
      name: '../../etc',
      executionMode: 'container',
      ownerId: 'o',
      id: 'chosen-id',
      workspaceDirName: '../../etc',
      slug: '..',
      executionActivatedAt: '2020-01-01T00:00:00.000Z',
    });
    expect(r.status).toBe(201);
    expect(r.body.id).not.toBe('chosen-id');
    expect(r.body.workspaceDirName).toMatch(/^etc-[0-9a-f]{8}$/);
    expect(r.body.root).toBe(join(t.config.projectWorkspacesRoot, r.body.workspaceDirName));
    expect(r.body.executionActivatedAt).toBeNull();
  });

  it('a proposal cannot pick its own status, proposer or decider', async () => {
    const r = await t.call('POST', `/api/projects/${project.id}/actions`, {
      agentId: 'agent-dev',
      actionType: 'terminal',
      payload: { command: 'make build', cwd: project.root },
      status: 'auto_approved',
      proposerId: 'olivia',
      proposerKind: 'human',
      decidedBy: 'olivia',
    });
    expect(r.body.status).toBe('pending');
    const view = (await t.call('GET', `/api/actions/${r.body.id}`)).body;
    expect(view).toMatchObject({ status: 'pending', proposerId: 'agent-dev', proposerKind: 'agent', decidedBy: null });
  });

  it('an approval body cannot name another decider or a status', async () => {
    const p = await t.call('POST', `/api/projects/${project.id}/actions`, {
      agentId: 'agent-dev',
      actionType: 'terminal',
      payload: { command: 'make it' },
    });
    const r = await t.call('POST', `/api/actions/${p.body.id}/approve`, {
      userId: 'max',
      decidedBy: 'olivia',
      status: 'denied',
    });
    expect(r.body.action).toMatchObject({ status: 'approved', decidedBy: 'max' });
  });
});

describe('names and roots aimed at the filesystem', () => {
  it('mounted roots: traversal, absolute paths outside the base, control characters and the base itself are refused', async () => {
    const base = t.config.projectsBase;
    const hostile = [
      '../x',
      'a/../../b',
      'ok/./y',
      `${base}/../x`,
      base,
      `${base}/`,
      '/etc',
      'a\u0000b',
      'a\nb',
      'a\rb',
      'tab\there',
      '\u007f',
      '',
      'x'.repeat(300),
    ];
    for (const root of hostile) {
      const r = await t.call('POST', '/api/projects', { name: 'm', executionMode: 'mounted', root, ownerId: 'o' });
      expect(r.status, JSON.stringify(root)).toBe(400);
    }
    // Nothing was created outside (or inside) the base by these attempts.
    expect(existsSync(base) ? readdirSync(base) : []).toEqual([]);
    const ok = await t.call('POST', '/api/projects', {
      name: 'm',
      executionMode: 'mounted',
      root: 'team/shop///',
      ownerId: 'o',
    });
    expect(ok.status).toBe(201);
    expect(ok.body.root).toBe(join(base, 'team/shop'));
  });

  it('runner roots (RN-170): dot-dot, system folders however spelled, relative and control characters are refused', async () => {
    const hostile = [
      '/home/../etc',
      '/etc/',
      '//',
      '/usr///',
      '/etc/./',
      '/',
      '/tmp',
      '/root',
      'relative/dir',
      './x',
      '/a\u0000b',
      '/a\nb',
      `/${'x'.repeat(5000)}`,
      t.config.gatewayCheckout,
    ];
    for (const root of hostile) {
      const r = await t.call('POST', '/api/projects', { name: 'r', executionMode: 'runner', root, ownerId: 'o' });
      expect(r.status, JSON.stringify(root)).toBe(400);
    }
  });

  it('a container project never takes a root from the caller', async () => {
    const r = await t.call('POST', '/api/projects', {
      name: 'c',
      executionMode: 'container',
      root: '/etc',
      ownerId: 'o',
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('root_not_allowed');
  });
});
