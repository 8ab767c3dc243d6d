// Runners: for each runner/mounted project, whether its runner is connected, from which host,
// which version, the sandbox state it reported at join, and when it was last seen. Live: a runner
// joining or leaving updates the row.
import type { Ctx } from '../context.ts';
import { ago, clear, h } from '../dom.ts';
import { listPage } from '../grid.ts';
import type { Presence } from '../types.ts';

type RunnerRow = Presence & { projectId: string; projectName: string; executionMode: string };

export function runnersPage(root: HTMLElement, ctx: Ctx): () => void {
  const body = listPage(root, 'Runners', ['project', 'presence', 'host', 'version', 'sandbox', 'last seen']);
  const load = async (): Promise<void> => {
    const { runners } = await ctx.api.get<{ runners: RunnerRow[] }>('/api/console/runners');
    ctx.live.watch(ctx.projects.map((p) => p.id));
    clear(body);
    for (const r of runners) {
      body.append(
        h(
          'tr',
          { 'data-project': r.projectId },
          h(
            'td',
            null,
            h('a', { href: `#/projects/${r.projectId}` }, r.projectName),
            h('span', { class: 'muted' }, ` (${r.executionMode})`),
          ),
          h(
            'td',
            null,
            h('span', { class: r.connected ? 'dot dot-on' : 'dot dot-off' }),
            r.connected ? ' connected' : ' offline',
          ),
          h('td', null, r.hostname ?? '—'),
          h('td', null, r.runnerVersion ?? '—'),
          h('td', null, r.sandbox ?? (r.connected ? 'not reported' : '—')),
          h('td', { title: r.lastSeen ?? '' }, r.connected ? 'now' : ago(r.lastSeen)),
        ),
      );
    }
    if (runners.length === 0)
      body.append(h('tr', null, h('td', { colspan: 6, class: 'muted' }, 'No runner or mounted projects.')));
    root.dataset['loaded'] = 'true';
  };
  const off = ctx.live.on((event) => {
    if (event === 'runner.changed') void load();
  });
  const offReconnect = ctx.live.onReconnect(() => void load());
  void load();
  return () => {
    off();
    offReconnect();
  };
}
