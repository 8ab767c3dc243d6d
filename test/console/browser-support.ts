// Browser tests' scaffolding: a console build of the current sources (vite, into a temp folder),
// Debian's chromium driven by playwright-core (no browser download), pages that record console
// errors and failed requests, and screenshots saved beside the test output
// (test-results/console/, or $BRABO_TEST_ARTIFACTS).
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build } from 'vite';

export const CHROMIUM = process.env.BRABO_CHROMIUM ?? '/usr/bin/chromium';
export const ARTIFACTS = resolve(
  process.env.BRABO_TEST_ARTIFACTS ?? join(import.meta.dirname, '../../test-results/console'),
);

/** Builds console/ into a fresh temp folder and returns it (what `npm run build` does, elsewhere). */
export async function buildConsole(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'brabo-console-'));
  await build({
    configFile: resolve(import.meta.dirname, '../../console/vite.config.ts'),
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true },
  });
  return outDir;
}

export function launchChromium(): Promise<Browser> {
  // --no-sandbox: CI runs as root, where chromium's own sandbox refuses to start.
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}

export interface WatchedPage {
  page: Page;
  /** Console errors, uncaught exceptions and failed same-origin requests seen so far. */
  problems: string[];
  shot(name: string): Promise<string>;
}

/** A 1366x768 page (a common laptop screen) that records every console error and page error. */
export async function watchedPage(browser: Browser): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    // A stream the page closed on purpose (leaving the action page) is not a failure.
    if (!request.failure()?.errorText.includes('ERR_ABORTED'))
      problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`);
  });
  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    page,
    problems,
    async shot(name) {
      const path = join(ARTIFACTS, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
  };
}

/**
 * The smoke check of one page: it rendered something (the page's main area holds text and its
 * loader finished) and nothing went wrong in the browser. Saves the screenshot either way.
 */
export async function smoke(watched: WatchedPage, name: string): Promise<void> {
  const { page } = watched;
  await page.waitForSelector('main#page[data-loaded="true"]', { timeout: 15_000 });
  await watched.shot(name);
  const text = (await page.locator('main#page').innerText()).trim();
  if (text.length < 20) throw new Error(`page ${name} is empty (text: ${JSON.stringify(text)})`);
  if (watched.problems.length > 0)
    throw new Error(`page ${name} had browser problems:\n${watched.problems.join('\n')}`);
}
