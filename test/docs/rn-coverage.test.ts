// Issue 15 "Coverage of rule numbers": every rule number of the specification that the gateway
// owns appears in the name of some test. The rules it does not own are listed with the reason,
// so a new RN in the specification is either tested here or consciously set aside.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SPEC = readFileSync(resolve(ROOT, 'docs/spec/permissions.en.md'), 'utf8');

/** Rules the specification cites that belong to other parts of the product, not the gateway. */
const NOT_OWNED: Readonly<Record<string, string>> = {
  'RN-029':
    'bootstrap no longer creates the rc tier (the repository bootstrap, upstream); the gateway keeps rc protected (RN-006)',
  'RN-058': "who pays for the LLM key (the upstream api's billing)",
  'RN-068': "the agent's ToolLoop iteration cap (the agent engine)",
  'RN-663': 'a pending QA/SecOps gate is a warning in the PR tab and chat (the upstream UI)',
};

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The RN numbers written in test and describe names (it, it.each, describe, test). */
function rnsInTestNames(): Set<string> {
  const found = new Set<string>();
  const title =
    /\b(?:it|describe|test)(?:\.(?:each|skip|only|todo)(?:\([\s\S]*?\))?)?\(\s*(['"`])((?:\\.|(?!\1)[\s\S])*?)\1/g;
  for (const file of testFiles(resolve(ROOT, 'test'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(title))
      for (const rn of match[2]!.matchAll(/RN-\d{3}/g)) found.add(rn[0]);
  }
  return found;
}

const specRns = [...new Set([...SPEC.matchAll(/RN-\d{3}/g)].map((m) => m[0]))].sort();
const owned = specRns.filter((rn) => !(rn in NOT_OWNED));
const named = rnsInTestNames();

describe('rule numbers the gateway owns are each named by a test', () => {
  it('reads the specification and the test names', () => {
    expect(specRns.length).toBeGreaterThan(30);
    expect(named.size).toBeGreaterThan(20);
  });
  it('lists as not owned only rule numbers the specification has', () => {
    for (const rn of Object.keys(NOT_OWNED)) expect(specRns, rn).toContain(rn);
  });
  it.each(['RN-073', 'RN-284', 'RN-614', 'RN-671', 'RN-495', 'RN-501'])('%s is owned by the gateway', (rn) => {
    expect(owned).toContain(rn);
  });
  it.each(owned)('%s appears in some test name', (rn) => {
    expect(named.has(rn), `no it()/describe() name mentions ${rn}`).toBe(true);
  });
});
