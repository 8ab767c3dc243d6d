// The specification's text (docs/spec/permissions.en.md), for tests that check a table against
// it. Looked up from this folder upwards: the mutation runs copy only src/ and test/ into a
// sandbox inside the checkout, so there the file is found in the checkout above it.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findSpec(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'docs', 'spec', 'permissions.en.md');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('docs/spec/permissions.en.md not found above test/policy');
    dir = parent;
  }
}

export const SPEC_TEXT: string = readFileSync(findSpec(), 'utf8');
