// The event log of one project, newest first, filtered by event code and by actor, with counts
// of decisions taken by a human (approve / deny clicks) and by the policy (auto-approved or
// denied when proposed).
import type { Ctx } from '../context.ts';
import { append, clear, h } from '../dom.ts';
import { grid } from '../grid.ts';
import { reasonSentence } from '../../../src/live/reason-sentence.ts';

interface EventRow {
  id: number;
  type: string;
  actorKind: string;
  actorId: string | null;
  actionId: string | null;
  payload: Record<string, unknown>;
  createdAt: string;
}
interface EventsView {
  events: EventRow[];
  counts: { humanDecisions: number; policyDecisions: number; scanned: number; byType: Record<string, number> };
  actors: string[];
  scanComplete: boolean;
}

/** One line about an event: its reason, status or failure, whatever it carries. */
function summary(event: EventRow): string {
  const p = event.payload;
  // RN-614: a decision's reason and scope root are one sentence, built as the API and the card build it.
  const decided = event.type === 'proposed_action.created' ? reasonSentence(p) : p['reason'];
  const parts = [p['actionType'], p['status'], decided, p['code'], p['message'], p['pattern']].filter(
    (v) => typeof v === 'string' && v.length > 0,
  );
  if (typeof p['exitCode'] === 'number') parts.push(`exit ${p['exitCode']}`);
  return parts.join(' · ');
}

export function eventsPage(root: HTMLElement, ctx: Ctx, query: URLSearchParams): () => void {
  clear(root);
  const projectSelect = h('select', { name: 'project', 'aria-label': 'Project' });
  const typeSelect = h('select', { name: 'type', 'aria-label': 'Event code' });
  const actorSelect = h('select', { name: 'actor', 'aria-label': 'Actor' });
  const counts = h('p', { class: 'counts', 'data-testid': 'decision-counts' });
  const body = h('tbody');
  root.append(
    h('div', { class: 'page-head' }, h('h1', null, 'Event log')),
    h(
      'div',
      { class: 'filters' },
      h('label', null, 'Project ', projectSelect),
      h('label', null, 'Code ', typeSelect),
      h('label', null, 'Actor ', actorSelect),
    ),
    counts,
    grid(['#', 'when', 'code', 'actor', 'action', 'detail'], body, 'grid events'),
  );
  const fillSelect = (select: HTMLSelectElement, values: string[], all: string, selected: string): void => {
    clear(select);
    append(select, [h('option', { value: '' }, all), values.map((v) => h('option', { value: v }, v))]);
    select.value = values.includes(selected) ? selected : '';
  };

  const load = async (): Promise<void> => {
    const projectId = projectSelect.value;
    if (!projectId) return;
    const params = new URLSearchParams({ projectId, limit: '500' });
    if (typeSelect.value) params.set('type', typeSelect.value);
    if (actorSelect.value) params.set('actor', actorSelect.value);
    const view = await ctx.api.get<EventsView>(`/api/console/events?${params}`);
    const type = typeSelect.value;
    const actor = actorSelect.value;
    fillSelect(typeSelect, Object.keys(view.counts.byType).sort(), 'all codes', type);
    fillSelect(actorSelect, view.actors, 'all actors', actor);
    counts.textContent = `Decisions: ${view.counts.humanDecisions} by a human, ${view.counts.policyDecisions} by the policy · ${view.counts.scanned} events${view.scanComplete ? '' : ' (oldest not scanned)'}`;
    clear(body);
    for (const e of view.events) {
      body.append(
        h(
          'tr',
          { 'data-type': e.type },
          h('td', null, e.id),
          h('td', { title: e.createdAt }, new Date(e.createdAt).toLocaleTimeString()),
          h('td', null, h('code', null, e.type)),
          h('td', null, e.actorId ?? e.actorKind),
          h('td', null, e.actionId ? h('a', { href: `#/actions/${e.actionId}` }, e.actionId.slice(0, 8)) : ''),
          h('td', null, summary(e)),
        ),
      );
    }
    if (view.events.length === 0)
      body.append(h('tr', null, h('td', { colspan: 6, class: 'muted' }, 'No events match.')));
    root.dataset['loaded'] = 'true';
    history.replaceState(
      null,
      '',
      `#/events?${new URLSearchParams({ project: projectId, ...(type ? { type } : {}), ...(actor ? { actor } : {}) })}`,
    );
  };

  for (const select of [projectSelect, typeSelect, actorSelect]) select.addEventListener('change', () => void load());
  const off = ctx.live.on((event, payload) => {
    if (
      (event === 'action.changed' && payload.entry.action.projectId === projectSelect.value) ||
      (event === 'project.changed' && payload.projectId === projectSelect.value)
    )
      void load();
  });
  void ctx.refreshProjects().then(() => {
    ctx.live.watch(ctx.projects.map((p) => p.id));
    projectSelect.append(...ctx.projects.map((p) => h('option', { value: p.id }, p.name)));
    const wanted = query.get('project');
    if (wanted && ctx.projects.some((p) => p.id === wanted)) projectSelect.value = wanted;
    fillSelect(
      typeSelect,
      query.get('type') ? [query.get('type') as string] : [],
      'all codes',
      query.get('type') ?? '',
    );
    fillSelect(
      actorSelect,
      query.get('actor') ? [query.get('actor') as string] : [],
      'all actors',
      query.get('actor') ?? '',
    );
    if (ctx.projects.length === 0)
      body.append(h('tr', null, h('td', { colspan: 6, class: 'muted' }, 'No projects for this token.')));
    return load();
  });
  return off;
}
