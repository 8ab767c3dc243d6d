// One action awaiting a decision, as the queue and the action page show it: the reason sentence
// exactly as decide() rendered it (RN-614), the fragment table `brabo check` prints, and the
// decision controls — approve, deny with a reason, and "Always allow" only where the type allows
// it, with the pattern it will write. Keys (when the card has focus): a approve, d deny,
// A always allow, Enter open.
import { ApiError } from './api.ts';
import { actingUserOf, type Ctx } from './context.ts';
import { ago, h, toast } from './dom.ts';
import type { FragmentRow, ReviewEntry } from './types.ts';

/** The same words `brabo check` uses for each fragment's verdict. */
export function verdictText(f: FragmentRow): string {
  const pattern = f.pattern ?? '';
  switch (f.verdict) {
    case 'deny':
      return f.source === 'builtin' ? `denied by the built-in pattern ${pattern}` : `denied by deny ${pattern}`;
    case 'ask':
      return `asks for approval: ask ${pattern}`;
    case 'allow':
      return `allowed by allow ${pattern}`;
    case 'cd-in-scope':
      return 'cd inside the project folder (counts as allowed)';
    case 'none':
      return 'no rule matches';
  }
}

export function fragmentTable(entry: ReviewEntry): HTMLElement | null {
  if (entry.fragments.length === 0) return null;
  return h(
    'table',
    { class: 'fragments' },
    h('thead', null, h('tr', null, h('th', null, '#'), h('th', null, 'fragment'), h('th', null, 'verdict'), h('th', null, 'effect'))),
    h(
      'tbody',
      null,
      entry.fragments.map((f, i) =>
        h('tr', { class: `verdict-${f.verdict}` }, h('td', null, i + 1), h('td', null, h('code', null, f.text)), h('td', null, verdictText(f) + (f.via ? ` (via ${f.via})` : '')), h('td', null, f.effect ?? '')),
      ),
    ),
  );
}

export function commandOf(entry: ReviewEntry): string {
  const { payload, actionType } = entry.action;
  if (actionType === 'terminal' && typeof payload['command'] === 'string') return payload['command'];
  return Object.keys(payload).length === 0 ? actionType : `${actionType} ${JSON.stringify(payload)}`;
}

export function alwaysAllowText(entry: ReviewEntry): string | null {
  const preview = entry.alwaysAllow;
  if (!preview.offered) return null;
  if (preview.writes.kind === 'autonomy') return `writes agent_autonomy: ${preview.writes.agentId} ${preview.writes.actionType} → ${preview.writes.mode}`;
  return preview.writes.patterns.length === 0 ? 'writes nothing new (already allowed)' : `writes allow: ${preview.writes.patterns.join(', ')}`;
}

export interface Decisions {
  approve(entry: ReviewEntry): Promise<void>;
  deny(entry: ReviewEntry, reason: string): Promise<void>;
  always(entry: ReviewEntry): Promise<void>;
}

/** Approve / deny / always-allow through HTTP, acting as the logged-in human. */
export function decisionsFor(ctx: Ctx, settled: (entry: ReviewEntry, what: string) => void): Decisions {
  const run = async (entry: ReviewEntry, path: string, body: Record<string, unknown>, what: string): Promise<void> => {
    const userId = actingUserOf(ctx.me);
    if (userId === null) return;
    try {
      const result = await ctx.api.post<{ desfecho: string; patterns?: string[]; notWritten?: { message: string } | null }>(`/api/actions/${entry.action.id}/${path}`, { userId, ...body });
      settled(entry, what);
      const wrote = result.patterns && result.patterns.length > 0 ? ` — wrote ${result.patterns.join(', ')}` : '';
      toast(`${what}: ${commandOf(entry).slice(0, 80)} (${result.desfecho})${wrote}`);
    } catch (error) {
      const e = error as ApiError;
      toast(`${what} failed: ${e.message}${e.code ? ` [${e.code}]` : ''}`, 'error');
    }
  };
  return {
    approve: (entry) => run(entry, 'approve', {}, 'Approved'),
    deny: (entry, reason) => run(entry, 'deny', { reason }, 'Denied'),
    always: (entry) => run(entry, 'approve-always', {}, 'Always allowed'),
  };
}

export function reviewCard(entry: ReviewEntry, decisions: Decisions, options: { link: boolean }): HTMLElement {
  const { action } = entry;
  const pending = action.status === 'pending';
  const denyInput = h('input', { name: 'reason', placeholder: 'Why? The agent reads this.', maxlength: 2000, required: true, 'aria-label': 'Reason for the denial' });
  const denyForm = h(
    'form',
    {
      class: 'deny-form',
      hidden: true,
      onsubmit: (event: SubmitEvent) => {
        event.preventDefault();
        const reason = denyInput.value.trim();
        if (reason.length === 0) return denyInput.focus();
        void decisions.deny(entry, reason);
      },
    },
    denyInput,
    h('button', { type: 'submit', class: 'danger' }, 'Deny'),
    h('button', { type: 'button', onclick: () => closeDeny() }, 'Cancel'),
  );
  const openDeny = (): void => {
    denyForm.hidden = false;
    denyInput.focus();
  };
  const closeDeny = (): void => {
    denyForm.hidden = true;
    card.focus();
  };
  denyInput.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') closeDeny();
    event.stopPropagation(); // typing "a" in the reason must not approve
  });
  const always = alwaysAllowText(entry);
  const preview = entry.alwaysAllow;
  const controls = pending
    ? h(
        'div',
        { class: 'decide' },
        h('button', { class: 'approve primary', onclick: () => void decisions.approve(entry) }, 'Approve ', h('kbd', null, 'a')),
        h('button', { class: 'deny', onclick: openDeny }, 'Deny… ', h('kbd', null, 'd')),
        always !== null ? h('button', { class: 'always', onclick: () => void decisions.always(entry) }, 'Always allow ', h('kbd', null, 'A')) : null,
        always !== null ? h('span', { class: 'preview' }, always) : null,
        !preview.offered ? h('span', { class: 'no-always muted' }, `No “Always allow”: ${preview.message}`) : null,
        denyForm,
      )
    : h('p', { class: 'decided' }, statusLine(entry));
  const card = h(
    'article',
    { class: `entry status-${action.status}`, tabindex: 0, 'data-id': action.id, 'data-type': action.actionType },
    h(
      'header',
      null,
      h('span', { class: `badge type-${action.actionType}` }, action.actionType),
      options.link ? h('a', { href: `#/actions/${action.id}` }, entry.project.name) : h('span', null, entry.project.name),
      h('span', { class: 'muted' }, ` · proposed by ${action.proposerId} · `, h('time', { datetime: action.createdAt, title: action.createdAt }, ago(action.createdAt))),
    ),
    h('pre', { class: 'command' }, commandOf(entry)),
    h('p', { class: 'reason' }, action.reason),
    fragmentTable(entry),
    entry.findings.length > 0 ? h('p', { class: 'findings' }, `Not read faithfully: ${entry.findings.join(', ')}`) : null,
    controls,
  );
  if (pending) {
    card.addEventListener('keydown', (event) => {
      if (event.target !== card || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === 'a') void decisions.approve(entry);
      else if (event.key === 'd') {
        event.preventDefault();
        openDeny();
      } else if (event.key === 'A' && always !== null) void decisions.always(entry);
      else if (event.key === 'Enter' && options.link) location.hash = `#/actions/${action.id}`;
      else return;
      event.preventDefault();
    });
  }
  return card;
}

export function statusLine(entry: ReviewEntry): string {
  const { action } = entry;
  if (action.status === 'denied') return action.decidedBy ? `Denied by ${action.decidedBy}${action.denialReason ? `: ${action.denialReason}` : ''}` : 'Denied by the policy';
  if (action.status === 'approved') return `Approved by ${action.decidedBy ?? '?'}`;
  if (action.status === 'auto_approved') return 'Approved by the policy';
  return 'Waiting for a decision';
}
