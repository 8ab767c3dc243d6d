// docs/wire-fields.md names every field of the wire schemas (HTTP action and runner/agent
// messages), and README's walkthrough block is exactly scripts/walkthrough.sh's marked lines.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import * as protocol from '../../runner-protocol/index.ts';
import { ActionSchema } from '../../src/http/schemas.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const doc = readFileSync(resolve(ROOT, 'docs/wire-fields.md'), 'utf8');

function fieldsOf(schema: z.ZodType): string[] {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape;
  return shape ? Object.keys(shape) : [];
}

describe('docs/wire-fields.md', () => {
  const schemas: Record<string, z.ZodType> = {
    ActionSchema,
    RunnerJoin: protocol.RunnerJoin,
    RunnerSandbox: protocol.RunnerSandbox,
    TerminalAction: protocol.TerminalAction,
    ContainerAction: protocol.ContainerAction,
    Execute: protocol.Execute,
    Output: protocol.Output,
    Result: protocol.Result,
    ExecuteAck: protocol.ExecuteAck,
    ActionSettled: protocol.ActionSettled,
    ActionOutput: protocol.ActionOutput,
    Refusal: protocol.Refusal,
  };
  it.each(Object.entries(schemas))('names every field of %s', (_name, schema) => {
    const fields = fieldsOf(schema);
    expect(fields.length).toBeGreaterThan(0);
    for (const field of fields) expect(doc, field).toContain(`\`${field}\``);
  });

  it('documents desfecho and each of its values', () => {
    for (const value of ['desfecho', 'aprovada', 'ja_aprovada', 'recusada', 'ja_recusada'])
      expect(doc).toContain(`\`${value}\``);
  });
});

describe('README walkthrough', () => {
  it('is exactly the marked part of scripts/walkthrough.sh', () => {
    const script = readFileSync(resolve(ROOT, 'scripts/walkthrough.sh'), 'utf8');
    const begin = '# --- README walkthrough begins ---\n';
    const end = '# --- README walkthrough ends ---';
    const block = script.slice(script.indexOf(begin) + begin.length, script.indexOf(end));
    expect(block.length).toBeGreaterThan(200);
    const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Walkthrough:'));
    const fenced = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
    expect(fenced).toBe(block);
  });

  it('README links only to files inside the repository', () => {
    const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
    expect(readme).not.toMatch(/\.\.\/shared\//);
    for (const [, target] of readme.matchAll(/\]\(([^)#]+)\)/g)) {
      if (target === undefined || /^https?:/.test(target)) continue;
      expect(() => readFileSync(resolve(ROOT, target)), target).not.toThrow();
    }
  });
});
