// One action: what was proposed and why (reason sentence, fragment table), the decision controls
// while it is pending, and its output live while it runs (`action.output` on the project's socket
// topic; what was kept is replayed from the start over SSE when the page opens late), ending with
// the outcome.
import { ApiError } from '../api.ts';
import type { Ctx } from '../context.ts';
import { clear, h } from '../dom.ts';
import { decisionsFor, reviewCard, wireDecisions } from '../review-card.ts';
import type { ReviewEntry } from '../types.ts';

interface ActionView {
  entry: ReviewEntry;
  execution: {
    state: string;
    attempt: number;
    target: string | null;
    outcome: Record<string, any> | null;
    updatedAt: string;
  } | null;
}

export function actionPage(root: HTMLElement, ctx: Ctx, actionId: string): () => void {
  const abort = new AbortController();
  const cardSlot = h('div');
  const state = h('p', { class: 'exec-state', 'data-testid': 'exec-state' }, 'Loading…');
  const output = h('pre', { class: 'output', 'data-testid': 'output', 'aria-live': 'polite' });
  const outputNote = h('p', { class: 'muted' });
  clear(root);
  root.append(
    h(
      'div',
      { class: 'page-head' },
      h('h1', null, 'Action ', h('code', null, actionId.slice(0, 8))),
      h('a', { href: '#/queue' }, '← queue'),
    ),
    cardSlot,
    h('h2', null, 'Execution'),
    state,
    h('h2', null, 'Output'),
    outputNote,
    output,
  );
  let streaming = false;
  let lastSeq = -1;

  let current: ReviewEntry | undefined;
  const decisions = decisionsFor(ctx, () => void load());
  wireDecisions(cardSlot, () => current, decisions, { link: false });

  const describe = (view: ActionView): string => {
    const { action } = view.entry;
    if (action.status === 'denied')
      return action.decidedBy
        ? `denied by ${action.decidedBy}: ${action.denialReason ?? ''}`
        : `denied by the policy: ${action.reason}`;
    if (action.status === 'pending') return 'waiting for a decision';
    const ex = view.execution;
    if (!ex) return 'approved; not handed to execution yet';
    const o = ex.outcome;
    if (ex.state === 'executed')
      return `executed (exit code ${o?.['exitCode'] ?? '?'})${o?.['truncated'] ? ', output truncated' : ''}`;
    if (ex.state === 'failed') return `failed: ${o?.['code'] ?? ''} — ${o?.['message'] ?? ''}`;
    return `${ex.state} on ${ex.target ?? 'its executor'} (attempt ${ex.attempt})`;
  };

  // Chunks come from two sources: `action.output` on the project's socket topic (live) and the
  // SSE replay of what the gateway kept (ordered, from the start when the page opens late). A
  // socket chunk ahead of the next expected seq waits for the replay to bring the ones before it,
  // so a line is never shown twice nor out of order, whichever source is faster.
  const early = new Map<number, { stream: string; data: string }>();
  const show = (stream: string, data: string, seq: number): void => {
    lastSeq = seq;
    const line = h('span', { class: `out-${stream}` }, data);
    const atBottom = output.scrollTop + output.clientHeight >= output.scrollHeight - 4;
    output.appendChild(line);
    if (atBottom) output.scrollTop = output.scrollHeight;
  };
  const flush = (all: boolean): void => {
    for (const seq of [...early.keys()].sort((a, b) => a - b)) {
      const chunk = early.get(seq)!;
      if (seq <= lastSeq) early.delete(seq);
      else if (seq === lastSeq + 1 || all) {
        early.delete(seq);
        show(chunk.stream, chunk.data, seq);
      } else break;
    }
  };
  const fromReplay = (stream: string, data: string, seq: number): void => {
    if (seq <= lastSeq) return;
    show(stream, data, seq); // the replay is complete and ordered: a gap in it is a gap kept by the gateway
    flush(false);
  };
  const fromSocket = (stream: string, data: string, seq: number): void => {
    if (seq <= lastSeq) return;
    if (seq === lastSeq + 1) {
      show(stream, data, seq);
      flush(false);
    } else if (early.size < 10_000) early.set(seq, { stream, data });
  };

  const stream = (): void => {
    if (streaming) return;
    streaming = true;
    outputNote.textContent = 'Streaming…';
    ctx.api
      .stream(
        `/api/actions/${actionId}/output?after=${lastSeq}`,
        (event, data) => {
          if (event === 'output') fromReplay(data.stream, data.data, data.seq);
          else if (event === 'end') {
            flush(true);
            outputNote.textContent = data.truncated ? 'Output ended (truncated at the output cap).' : 'Output ended.';
            root.dataset['ended'] = data.status;
          }
        },
        abort.signal,
      )
      .catch((error: Error) => {
        if (!abort.signal.aborted) outputNote.textContent = `Output stream stopped: ${error.message}`;
      })
      .finally(() => {
        streaming = false;
      });
  };

  const load = async (): Promise<void> => {
    try {
      const view = await ctx.api.get<ActionView>(`/api/console/actions/${actionId}`);
      ctx.live.watch([...new Set([...ctx.projects.map((p) => p.id), view.entry.action.projectId])]);
      clear(cardSlot);
      current = view.entry;
      cardSlot.append(reviewCard(view.entry, { link: false }));
      state.textContent = describe(view);
      root.dataset['status'] = view.entry.action.status;
      root.dataset['exec'] = view.execution?.state ?? 'none';
      root.dataset['loaded'] = 'true';
      stream();
    } catch (error) {
      const e = error as ApiError;
      clear(cardSlot);
      cardSlot.append(
        h(
          'p',
          { class: 'error' },
          e.status === 404 ? `No action ${actionId}.` : `Could not load the action: ${e.message}`,
        ),
      );
      root.dataset['loaded'] = 'true';
    }
  };

  const offLive = ctx.live.on((event, payload) => {
    if (event === 'action.changed' && payload.entry.action.id === actionId) void load();
    else if (event === 'action.output' && payload.actionId === actionId)
      fromSocket(payload.stream, payload.data, payload.seq);
  });
  void load();
  return () => {
    offLive();
    abort.abort();
  };
}
