// Chaos-suite scaffolding: a project whose every command leaves one marker file (a line appended
// per run), and the end-of-run verdict for every action: the recorded outcome matches what
// happened, "not run" never where the marker exists, no command ran twice, no event is duplicated.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Api } from '../e2e/support.ts';
import { waitUntil } from '../e2e/support.ts';

/** Failure codes that say "the command did not run": allowed only when its marker is absent. */
export const NOT_RUN_CODES: ReadonlySet<string> = new Set([
  'runner_not_connected',
  'execution_port_failed',
  'runner_refused',
  'invalid_payload',
  'project_root_invalid',
  'no_broker',
  'journal_unwritable',
]);

/** `<root>/mark.sh NAME`: appends a line to `<root>/markers/NAME` (one per run), then lingers a little. */
export function markingRoot(root: string): { markersDir: string; runs(marker: string): number } {
  const markersDir = join(root, 'markers');
  mkdirSync(markersDir, { recursive: true });
  writeFileSync(join(root, 'mark.sh'), 'echo ran >> "$(dirname "$0")/markers/$1"\nsleep "${2:-0}"\necho "marked $1"\n');
  return {
    markersDir,
    runs: (marker) => {
      const file = join(markersDir, marker);
      return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').length : 0;
    },
  };
}

export interface Tracked {
  actionId: string;
  marker: string;
}

interface EventRow {
  id: number;
  type: string;
  actionId: string | null;
  payload: Record<string, any>;
}

async function allEvents(api: Api, projectId: string): Promise<EventRow[]> {
  const events: EventRow[] = [];
  let after = 0;
  for (;;) {
    const page = (await api.call('GET', `/api/projects/${projectId}/events?after=${after}&limit=1000`)).body
      .events as EventRow[];
    if (!page || page.length === 0) return events;
    events.push(...page);
    after = page.at(-1)!.id;
    if (page.length < 1000) return events;
  }
}

const FINAL = new Set(['executed', 'failed']);

/** Waits until every tracked action is settled (bounded), then checks each one. Returns counts by outcome. */
export async function verdict(
  api: Api,
  projectId: string,
  tracked: Tracked[],
  runs: (marker: string) => number,
  settleMs = 60_000,
): Promise<Record<string, number>> {
  let stuck: string[] = [];
  await waitUntil(
    async () => {
      stuck = [];
      for (const t of tracked) {
        const view = await api.call('GET', `/api/actions/${t.actionId}`);
        if (!FINAL.has(view.body?.dispatch?.state))
          stuck.push(`${t.marker}: ${view.body?.status} ${JSON.stringify(view.body?.dispatch)}`);
      }
      return stuck.length === 0;
    },
    'every action to settle',
    settleMs,
    200,
  ).catch((error: Error) => {
    throw new Error(`${error.message}; not settled: ${stuck.slice(0, 10).join('; ')} (${stuck.length} in all)`);
  });
  const counts: Record<string, number> = {};
  const problems: string[] = [];
  for (const t of tracked) {
    const dispatch = (await api.call('GET', `/api/actions/${t.actionId}`)).body.dispatch;
    const ran = runs(t.marker);
    const key = dispatch.state === 'executed' ? 'executed' : String(dispatch.outcome?.code);
    counts[key] = (counts[key] ?? 0) + 1;
    if (ran > 1) problems.push(`${t.marker}: ran ${ran} times`);
    if (dispatch.state === 'executed' && ran !== 1)
      problems.push(`${t.marker}: recorded executed but its marker shows ${ran} runs`);
    if (dispatch.state === 'failed' && NOT_RUN_CODES.has(dispatch.outcome?.code) && ran > 0)
      problems.push(`${t.marker}: recorded "not run" (${dispatch.outcome.code}) but it ran`);
  }
  const events = await allEvents(api, projectId);
  const ids = new Set(tracked.map((t) => t.actionId));
  const seen = new Set<string>();
  for (const e of events) {
    if (!e.actionId || !ids.has(e.actionId)) continue;
    let key: string | null = null;
    if (e.type === 'action.executed' || e.type === 'action.failed')
      key = `${e.actionId}:${e.payload.resolves ? 'resolution' : 'settlement'}`;
    if (e.type === 'action.late_result') key = `${e.actionId}:late:${e.payload.attempt}`;
    if (e.type === 'proposed_action.created' || e.type === 'proposed_action.approved') key = `${e.actionId}:${e.type}`;
    if (key === null) continue;
    if (seen.has(key)) problems.push(`duplicated event ${key}`);
    seen.add(key);
  }
  for (const t of tracked) if (!seen.has(`${t.actionId}:settlement`)) problems.push(`${t.marker}: no settlement event`);
  expect(problems).toEqual([]);
  return counts;
}

/** Every action of the project (proposals whose answer was lost with a killed node included), with the marker its command names. */
export async function trackedFromList(api: Api, projectId: string): Promise<Tracked[]> {
  const listed = (await api.call('GET', `/api/projects/${projectId}/actions?limit=1000`)).body.actions as Array<{
    id: string;
    payload: { command?: string };
  }>;
  return listed.flatMap((a) => {
    const marker = /^sh mark\.sh (\S+)/.exec(a.payload.command ?? '')?.[1];
    return marker ? [{ actionId: a.id, marker }] : [];
  });
}

/** POSTs a proposal and forgets about the answer (the node may die under it). */
export function fireProposal(api: Api, projectId: string, root: string, marker: string, linger = '0.2'): Promise<void> {
  return api
    .call('POST', `/api/projects/${projectId}/actions`, {
      agentId: 'agent-dev',
      actionType: 'terminal',
      payload: { command: `sh mark.sh ${marker} ${linger}`, cwd: root, timeoutMs: 20_000 },
    })
    .then(
      () => {},
      () => {},
    );
}
