// Containers (RN-495): each container project's dev container and its state, with Stop and
// Remove. A click proposes container_stop / container_remove as the logged-in human; decide()
// and the ceilings apply (remove always needs an approval), so the row links to the proposal.
import { ApiError } from '../api.ts';
import { actingUserOf, type Ctx } from '../context.ts';
import { ago, clear, h, toast } from '../dom.ts';
import { listPage } from '../grid.ts';

interface ContainerRow {
  projectId: string;
  projectName: string;
  executionMode: string;
  state: string;
  containerId: string | null;
  updatedAt: string;
}

export function containersPage(root: HTMLElement, ctx: Ctx): () => void {
  const body = listPage(root, 'Containers', ['project', 'state', 'container', 'since', '']);
  const proposals = new Map<string, { id: string; status: string; change: string }>();
  const propose = async (row: ContainerRow, change: 'stop' | 'remove'): Promise<void> => {
    const userId = actingUserOf(ctx.me);
    if (userId === null) return;
    try {
      const result = await ctx.api.post<{ id: string; status: string; reason: string }>(
        `/api/containers/${row.projectId}/${change}`,
        { userId },
      );
      proposals.set(row.projectId, { id: result.id, status: result.status, change });
      toast(
        result.status === 'pending'
          ? `container_${change} proposed; it waits for an approval (${result.reason})`
          : `container_${change}: ${result.status}`,
      );
      await load();
    } catch (error) {
      const e = error as ApiError;
      toast(`Could not propose container_${change}: ${e.message} [${e.code}]`, 'error');
    }
  };
  const load = async (): Promise<void> => {
    // Projects refreshed like the queue page does: a human token filters by them (issue 12).
    const [{ containers }] = await Promise.all([
      ctx.api.get<{ containers: ContainerRow[] }>('/api/containers'),
      ctx.refreshProjects(),
    ]);
    ctx.live.watch(ctx.projects.map((p) => p.id));
    const visible =
      ctx.me.kind !== 'human' ? containers : containers.filter((c) => ctx.projects.some((p) => p.id === c.projectId));
    clear(body);
    for (const row of visible) {
      const proposal = proposals.get(row.projectId);
      body.append(
        h(
          'tr',
          { 'data-project': row.projectId, 'data-state': row.state },
          h('td', null, row.projectName),
          h('td', { class: `state state-${row.state}` }, row.state),
          h('td', null, h('code', null, row.containerId ? row.containerId.slice(0, 12) : '—')),
          h('td', { title: row.updatedAt }, ago(row.updatedAt)),
          h(
            'td',
            { class: 'row-actions' },
            row.state === 'running'
              ? h('button', { class: 'stop', onclick: () => void propose(row, 'stop') }, 'Stop')
              : null,
            row.state !== 'absent'
              ? h('button', { class: 'remove danger', onclick: () => void propose(row, 'remove') }, 'Remove')
              : null,
            proposal
              ? h(
                  'a',
                  { href: `#/actions/${proposal.id}`, class: 'proposal' },
                  `container_${proposal.change}: ${proposal.status}`,
                )
              : null,
          ),
        ),
      );
    }
    if (visible.length === 0) body.append(h('tr', null, h('td', { colspan: 5, class: 'muted' }, 'No containers.')));
    root.dataset['loaded'] = 'true';
  };
  const off = ctx.live.on((event, payload) => {
    if (event === 'container.changed') void load();
    if (event === 'action.changed') {
      const action = payload.entry.action;
      const mine = [...proposals.values()].find((p) => p.id === action.id);
      if (mine) {
        mine.status = payload.execution?.status ?? action.status;
        void load();
      }
    }
  });
  const offReconnect = ctx.live.onReconnect(() => void load());
  void load();
  return () => {
    off();
    offReconnect();
  };
}
