// Where this code is installed and which version it is: the nearest package.json above this
// file. The same answer from the sources (src/), the build (dist/src/) and the published
// packages (brabo-gateway, brabo-runner), where a fixed `../..` would point elsewhere.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAMES = new Set(['brabo-gateway', 'brabo-runner']);

function findPackage(): { root: string; version: string } {
  const here = dirname(fileURLToPath(import.meta.url));
  for (let dir = here; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
        if (typeof pkg.name === 'string' && PACKAGE_NAMES.has(pkg.name)) {
          return { root: dir, version: typeof pkg.version === 'string' ? pkg.version : 'unknown' };
        }
      } catch {
        // An unreadable package.json on the way up is not ours: keep looking.
      }
    }
    if (dirname(dir) === dir) return { root: dirname(here), version: 'unknown' };
  }
}

const found = findPackage();

/** The folder holding this installation's package.json (the checkout, or the installed package). */
export const PACKAGE_ROOT: string = found.root;
/** package.json's version, or 'unknown' when it cannot be read. */
export const VERSION: string = found.version;
/** `.ts` when running from the sources, `.js` from the build: for modules loaded by URL. */
export const MODULE_EXT: '.ts' | '.js' = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
