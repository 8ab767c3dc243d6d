// The console with personal tokens (issue 12): a human token sees only the projects its member
// belongs to, every click is that member's (no "acting as" box, decidedBy and the event's
// credential are the token's), its socket may not watch other projects, and tokens of other kinds
// are turned away at the login with a sentence.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Socket18 } from '../gateway/phoenix-clients.ts';
import { ADMIN_TOKEN, api, createProject, type Project, type Server, startServer, tempDir } from '../e2e/support.ts';
import { buildConsole, launchChromium, smoke, type WatchedPage, watchedPage } from './browser-support.ts';

let server: Server;
let browser: Browser;
let ui: WatchedPage;
let page: Page;
let mine: Project;
let other: { id: string };
let root: string;
let otherRoot: string;
let maxToken: string;

const mint = async (body: Record<string, unknown>): Promise<string> => {
  const minted = await server.call('POST', '/api/credentials', body);
  if (minted.status !== 201) throw new Error(`mint failed: ${JSON.stringify(minted.body)}`);
  return minted.body.token as string;
};
const propose = async (projectId: string, command: string) => {
  const posted = await server.call('POST', `/api/projects/${projectId}/actions`, {
    agentId: 'agent-dev',
    actionType: 'terminal',
    payload: { command, cwd: projectId === other.id ? otherRoot : root },
  });
  expect(posted.body.status).toBe('pending');
  return posted;
};
const card = (actionId: string) => page.locator(`article.entry[data-id="${actionId}"]`);

beforeAll(async () => {
  server = await startServer({ consoleAssetsDir: await buildConsole() });
  root = join(tempDir('console-human'), 'machine');
  mkdirSync(root, { recursive: true });
  mine = await createProject(server, { executionMode: 'runner', root, name: 'Max works here' }); // max: maintainer
  // A project max is not a member of (its own folder: roots do not overlap).
  otherRoot = join(tempDir('console-human-other'), 'machine');
  mkdirSync(otherRoot, { recursive: true });
  const created = await server.call('POST', '/api/projects', {
    name: 'Not max',
    executionMode: 'runner',
    root: otherRoot,
    ownerId: 'olivia',
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  other = { id: created.body.id };
  await server.call('PUT', `/api/projects/${other.id}/members/agent-dev`, { role: 'developer', kind: 'agent' });
  maxToken = await mint({ kind: 'human', memberId: 'max' });
  browser = await launchChromium();
  ui = await watchedPage(browser);
  page = ui.page;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the console with personal tokens', () => {
  it('turns the admin token (provisioning only) and an agent token away at the login, with a sentence', async () => {
    await page.goto(server.base + '/');
    await page.fill('#token', ADMIN_TOKEN);
    await page.click('button[type=submit]');
    await expect.poll(() => page.locator('.login .error').innerText()).toContain('only provisions');
    const agentToken = await mint({ kind: 'agent', projectId: mine.id, agentId: 'agent-dev' });
    await page.fill('#token', agentToken);
    await page.click('button[type=submit]');
    await expect.poll(() => page.locator('.login .error').innerText()).toContain('an agent token');
    await ui.shot('h01-agent-token-refused');
    // The browser logs the expected 401 (the login page itself) and the two 403 refusals; nothing else.
    expect(ui.problems.filter((p) => !/status of 40[13]/.test(p))).toEqual([]);
    ui.problems.length = 0;
  });

  it("max's token: only max's projects and their pending actions; max's click is max's decision", async () => {
    const here = await propose(mine.id, 'make here');
    const elsewhere = await propose(other.id, 'make elsewhere');
    await page.fill('#token', maxToken);
    await page.click('button[type=submit]');
    await expect.poll(() => page.locator('.who .acting').innerText()).toContain('max');
    expect(await page.locator('#acting-as').count()).toBe(0);
    await page.waitForSelector('main#page[data-loaded="true"]');
    await card(here.body.id).waitFor();
    expect(await card(elsewhere.body.id).count()).toBe(0);
    await smoke(ui, 'h02-queue-max');
    await card(here.body.id).focus();
    await page.keyboard.press('a');
    await card(here.body.id).waitFor({ state: 'detached' });
    const action = (await server.call('GET', `/api/actions/${here.body.id}`)).body;
    expect(action).toMatchObject({ status: 'approved', decidedBy: 'max' });
    const approved = (await server.call('GET', `/api/projects/${mine.id}/events?limit=1000`)).body.events.find(
      (e: any) => e.type === 'proposed_action.approved' && e.actionId === here.body.id,
    );
    expect(approved).toMatchObject({ actorId: 'max', payload: { credential: { kind: 'human' } } });
    // A new proposal in max's project appears live; one elsewhere does not.
    const later = await propose(mine.id, 'make later');
    const laterElsewhere = await propose(other.id, 'make later elsewhere');
    await card(later.body.id).waitFor();
    expect(await card(laterElsewhere.body.id).count()).toBe(0);
    await page.evaluate(() => ((globalThis as any).location.hash = '#/projects'));
    await page.waitForSelector('main#page[data-loaded="true"]');
    const projects = await page.locator('table.grid tbody tr').allInnerTexts();
    expect(projects.join('\n')).toContain('Max works here');
    expect(projects.join('\n')).not.toContain('Not max');
    await smoke(ui, 'h03-projects-max');
  });

  it("max's token reads only max's projects over HTTP and may not watch another project's topic", async () => {
    const asMax = api(server.base, maxToken);
    const forbidden = await asMax.call('GET', `/api/console/events?projectId=${other.id}`);
    expect(forbidden.status, JSON.stringify(forbidden.body)).toBe(403);
    const socket = new Socket18(server.wsUrl, { transport: WebSocket, params: { token: maxToken }, timeout: 5_000 });
    socket.connect();
    try {
      const answer = (ch: ReturnType<typeof socket.channel>) =>
        new Promise<{ status: string; response: any }>((resolve) => {
          ch.join()
            .receive('ok', (response) => resolve({ status: 'ok', response }))
            .receive('error', (response) => resolve({ status: 'error', response }));
        });
      expect((await answer(socket.channel(`project:${mine.id}`, {}))).status).toBe('ok');
      const refused = await answer(socket.channel(`project:${other.id}`, {}));
      expect(refused.status).toBe('error');
    } finally {
      socket.disconnect();
    }
  });
});

describe("the console's own files need a credential (issue 12.2)", () => {
  it('without one: / is the login page and /assets/* is 401; after login the console works; after revoking, a reload is the login page again', async () => {
    for (const path of ['/assets/index.js', '/assets/anything.css', '/favicon.svg']) {
      const response = await fetch(`${server.base}${path}`);
      expect(response.status, path).toBe(401);
    }
    const minted = await server.call('POST', '/api/credentials', { kind: 'human', memberId: 'max', label: 'cookie' });
    // A fresh browser context: no cookie, no sessionStorage.
    const fresh = await watchedPage(browser);
    const tab = fresh.page;
    const first = await tab.goto(server.base + '/');
    expect(first?.status()).toBe(401);
    expect(await tab.locator('form#login #token').count()).toBe(1);
    expect(await tab.locator('script[src]').count()).toBe(0); // no app code before login
    await tab.fill('#token', minted.body.token);
    await tab.click('button[type=submit]');
    await expect.poll(() => tab.locator('.who .acting').innerText(), { timeout: 15_000 }).toContain('max');
    await tab.waitForSelector('main#page[data-loaded="true"]');
    const [cookie] = (await tab.context().cookies()).filter((c) => c.name === 'brabo_console');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    // The cookie opens the console's files only: the API stays bearer-only.
    expect(await tab.evaluate(async () => (await fetch('/api/me')).status)).toBe(401);
    await fresh.shot('h10-console-after-cookie-login');

    expect((await server.call('DELETE', `/api/credentials/${minted.body.id}`)).status).toBe(200);
    const reloaded = await tab.reload();
    expect(reloaded?.status()).toBe(401);
    await tab.waitForSelector('form#login #token');
    expect(await tab.locator('.who').count()).toBe(0);
    await fresh.shot('h11-console-closed-after-revoke');
    await tab.context().close();
  });
});
