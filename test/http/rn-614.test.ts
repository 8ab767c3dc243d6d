// RN-614: the reason of a decision and its scope root are shown as one sentence, built by one
// function (src/live/reason-sentence.ts) for the API and for the console (event rows and the
// approval card). Events and actions without a reason read "not recorded".
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REASON_NOT_RECORDED, reasonSentence } from '../../src/live/reason-sentence.ts';
import { proposeTerminal, seedProject, startTestApp, type TestApp } from './helpers.ts';

const ROOT = resolve(import.meta.dirname, '../..');

describe('RN-614 reasonSentence', () => {
  it.each([
    [
      { reason: 'agent_autonomy: auto_approve', scopeRoot: 'container:shop-1a2b3c4d' },
      'agent_autonomy: auto_approve (scope: container:shop-1a2b3c4d)',
    ],
    [{ reason: 'agent_autonomy: auto_approve', scopeRoot: null }, 'agent_autonomy: auto_approve'],
    [{ reason: 'agent_autonomy: auto_approve' }, 'agent_autonomy: auto_approve'],
    [{ reason: '  padded  ', scopeRoot: '  runner:x  ' }, 'padded (scope: runner:x)'],
    [{ scopeRoot: 'container:x' }, REASON_NOT_RECORDED],
    [{ reason: '', scopeRoot: 'container:x' }, REASON_NOT_RECORDED],
    [{ reason: 42 }, REASON_NOT_RECORDED],
    [{}, REASON_NOT_RECORDED],
    [null, REASON_NOT_RECORDED],
    [undefined, REASON_NOT_RECORDED],
  ])('RN-614 %j -> %s', (facts, sentence) => {
    expect(reasonSentence(facts)).toBe(sentence);
  });
});

describe('RN-614 the API answers the same sentence', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp();
  });
  afterEach(async () => t.close());

  it('RN-614 a terminal proposal and GET /api/actions/:id carry reasonSentence with the scope root', async () => {
    const { id, root } = await seedProject(t);
    await t.call('PUT', `/api/projects/${id}/permissions`, { userId: 'max', allow: ['Terminal(ls)'] });
    const proposed = await proposeTerminal(t, id, root, 'ls');
    expect(proposed.body.scopeRoot).toMatch(/^container:/);
    expect(proposed.body.reasonSentence).toBe(`${proposed.body.reason} (scope: ${proposed.body.scopeRoot})`);
    const view = (await t.call('GET', `/api/actions/${proposed.body.id}`)).body;
    expect(view.reasonSentence).toBe(reasonSentence(view));
    expect(view.reasonSentence).toBe(proposed.body.reasonSentence);
  });

  it('RN-614 a non-terminal proposal has no scope root: the sentence is the reason', async () => {
    const { id } = await seedProject(t);
    const proposed = await t.call('POST', `/api/projects/${id}/actions`, {
      agentId: 'agent-dev',
      actionType: 'git_commit',
      payload: {},
    });
    expect(proposed.body.scopeRoot).toBeNull();
    expect(proposed.body.reasonSentence).toBe(proposed.body.reason);
  });
});

describe('RN-614 the console builds it with the same function', () => {
  it.each(['console/src/review-card.ts', 'console/src/pages/events.ts'])(
    'RN-614 %s imports reasonSentence from src/live/reason-sentence.ts and calls it',
    (file) => {
      const text = readFileSync(resolve(ROOT, file), 'utf8');
      expect(text).toMatch(/import \{ reasonSentence \} from '(\.\.\/)+src\/live\/reason-sentence\.ts';/);
      expect(text).toMatch(/reasonSentence\((action|p)\)/);
    },
  );
});
