// One action awaiting a decision, as the queue and the action page show it: the reason sentence
// exactly as decide() rendered it (RN-614), the fragment table `brabo check` prints, and the
// decision controls — approve, deny with a reason, and "Always allow" only where the type allows
// it, with the pattern it will write. Keys (when the card has focus): a approve, d deny,
// A always allow, Enter open.
import { ApiError } from './api.ts';
import { actingUserOf, type Ctx } from './context.ts';
import { describeVerdict } from '../../src/live/fragment-words.ts';
import { reasonSentence } from '../../src/live/reason-sentence.ts';
import { ago, h, toast } from './dom.ts';
import type { ReviewEntry } from './types.ts';

export function fragmentTable(entry: ReviewEntry): HTMLElement | null {
  if (entry.fragments.length === 0) return null;
  return h(
    'table',
    { class: 'fragments' },
    h(
      'thead',
      null,
      h('tr', null, h('th', null, '#'), h('th', null, 'fragment'), h('th', null, 'verdict'), h('th', null, 'effect')),
    ),
    h(
      'tbody',
      null,
      entry.fragments.map((f, i) =>
        h(
          'tr',
          { class: `verdict-${f.verdict}` },
          h('td', null, i + 1),
          h('td', null, h('code', null, f.text)),
          h('td', null, describeVerdict(f) + (f.via ? ` (via ${f.via})` : '')),
          h('td', null, f.effect ?? ''),
        ),
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
  if (preview.writes.kind === 'autonomy')
    return `writes agent_autonomy: ${preview.writes.agentId} ${preview.writes.actionType} → ${preview.writes.mode}`;
  return preview.writes.patterns.length === 0
    ? 'writes nothing new (already allowed)'
    : `writes allow: ${preview.writes.patterns.join(', ')}`;
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
    // Feedback in the same frame: the card shows it is being decided and takes no second click.
    const card = document.querySelector(`article.entry[data-id="${CSS.escape(entry.action.id)}"]`);
    if (card?.getAttribute('aria-busy') === 'true') return;
    card?.setAttribute('aria-busy', 'true');
    card?.classList.add('deciding');
    try {
      const result = await ctx.api.post<{
        desfecho: string;
        patterns?: string[];
        notWritten?: { message: string } | null;
      }>(`/api/actions/${entry.action.id}/${path}`, { userId, ...body });
      settled(entry, what);
      const wrote = result.patterns && result.patterns.length > 0 ? ` — wrote ${result.patterns.join(', ')}` : '';
      toast(`${what}: ${commandOf(entry).slice(0, 80)} (${result.desfecho})${wrote}`);
    } catch (error) {
      const e = error as ApiError;
      card?.removeAttribute('aria-busy');
      card?.classList.remove('deciding');
      toast(`${what} failed: ${e.message}${e.code ? ` [${e.code}]` : ''}`, 'error');
    }
  };
  return {
    approve: (entry) => run(entry, 'approve', {}, 'Approved'),
    deny: (entry, reason) => run(entry, 'deny', { reason }, 'Denied'),
    always: (entry) => run(entry, 'approve-always', {}, 'Always allowed'),
  };
}

/**
 * The card element, without listeners: a queue holds a thousand of them, so the controls are
 * wired once per container by `wireDecisions`. A brief entry (no fragment table yet) is marked
 * `data-brief`; the queue fills it in when it scrolls into view.
 */
export function reviewCard(entry: ReviewEntry, options: { link: boolean }): HTMLElement {
  const { action } = entry;
  const pending = action.status === 'pending';
  const always = alwaysAllowText(entry);
  const preview = entry.alwaysAllow;
  const brief = pending && entry.now === null && action.actionType === 'terminal';
  const controls = pending
    ? h(
        'div',
        { class: 'decide' },
        h('button', { class: 'approve primary', 'data-act': 'approve' }, 'Approve ', h('kbd', null, 'a')),
        h('button', { class: 'deny', 'data-act': 'deny' }, 'Deny… ', h('kbd', null, 'd')),
        always !== null
          ? h('button', { class: 'always', 'data-act': 'always' }, 'Always allow ', h('kbd', null, 'A'))
          : null,
        always !== null ? h('span', { class: 'preview' }, always) : null,
        !preview.offered ? h('span', { class: 'no-always muted' }, `No “Always allow”: ${preview.message}`) : null,
      )
    : h('p', { class: 'decided' }, statusLine(entry));
  return h(
    'article',
    {
      class: `entry status-${action.status}`,
      tabindex: 0,
      'data-id': action.id,
      'data-type': action.actionType,
      'data-brief': brief,
    },
    h(
      'header',
      null,
      h('span', { class: `badge type-${action.actionType}` }, action.actionType),
      options.link
        ? h('a', { href: `#/actions/${action.id}` }, entry.project.name)
        : h('span', null, entry.project.name),
      h(
        'span',
        { class: 'muted' },
        ` · proposed by ${action.proposerId} · `,
        h('time', { datetime: action.createdAt, title: action.createdAt }, ago(action.createdAt)),
      ),
    ),
    h('pre', { class: 'command' }, commandOf(entry)),
    h('p', { class: 'reason' }, reasonSentence(action)),
    brief ? h('p', { class: 'fragments-pending muted' }, 'Fragment table loading…') : fragmentTable(entry),
    entry.findings.length > 0
      ? h('p', { class: 'findings' }, `Not read faithfully: ${entry.findings.join(', ')}`)
      : null,
    controls,
  );
}

/**
 * One set of listeners for every card in `container`: the buttons (data-act), the deny form
 * (built when asked for), and the keys on a focused card — a approve, d deny, A always allow,
 * Enter open (when `link`).
 */
export function wireDecisions(
  container: HTMLElement,
  entryOf: (actionId: string) => ReviewEntry | undefined,
  decisions: Decisions,
  options: { link: boolean },
): void {
  const cardOf = (target: EventTarget | null): { card: HTMLElement; entry: ReviewEntry } | null => {
    const card = (target as HTMLElement | null)?.closest?.('article.entry') as HTMLElement | null;
    const entry = card?.dataset['id'] ? entryOf(card.dataset['id']) : undefined;
    return card && entry && entry.action.status === 'pending' ? { card, entry } : null;
  };
  const openDeny = (card: HTMLElement, entry: ReviewEntry): void => {
    let form = card.querySelector('form.deny-form') as HTMLFormElement | null;
    if (!form) {
      const input = h('input', {
        name: 'reason',
        placeholder: 'Why? The agent reads this.',
        maxlength: 2000,
        required: true,
        'aria-label': 'Reason for the denial',
      });
      form = h(
        'form',
        { class: 'deny-form' },
        input,
        h('button', { type: 'submit', class: 'danger' }, 'Deny'),
        h('button', { type: 'button', 'data-act': 'cancel-deny' }, 'Cancel'),
      );
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        const reason = input.value.trim();
        if (reason.length === 0) return input.focus();
        void decisions.deny(entry, reason);
      });
      input.addEventListener('keydown', (event) => {
        if (event.key === 'Escape') closeDeny(card);
        event.stopPropagation(); // typing "a" in the reason must not approve
      });
      card.querySelector('.decide')?.appendChild(form);
    }
    form.hidden = false;
    (form.querySelector('input') as HTMLInputElement).focus();
  };
  const closeDeny = (card: HTMLElement): void => {
    const form = card.querySelector('form.deny-form') as HTMLFormElement | null;
    if (form) form.hidden = true;
    card.focus();
  };
  container.addEventListener('click', (event) => {
    const button = (event.target as HTMLElement).closest('button[data-act]') as HTMLButtonElement | null;
    const found = button ? cardOf(button) : null;
    if (!button || !found) return;
    const act = button.dataset['act'];
    if (act === 'approve') void decisions.approve(found.entry);
    else if (act === 'deny') openDeny(found.card, found.entry);
    else if (act === 'always') void decisions.always(found.entry);
    else if (act === 'cancel-deny') closeDeny(found.card);
  });
  container.addEventListener('keydown', (event) => {
    const found = cardOf(event.target);
    if (!found || event.target !== found.card || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === 'a') void decisions.approve(found.entry);
    else if (event.key === 'd') openDeny(found.card, found.entry);
    else if (event.key === 'A' && found.entry.alwaysAllow.offered) void decisions.always(found.entry);
    else if (event.key === 'Enter' && options.link) location.hash = `#/actions/${found.entry.action.id}`;
    else return;
    event.preventDefault();
  });
}

export function statusLine(entry: ReviewEntry): string {
  const { action } = entry;
  if (action.status === 'denied')
    return action.decidedBy
      ? `Denied by ${action.decidedBy}${action.denialReason ? `: ${action.denialReason}` : ''}`
      : 'Denied by the policy';
  if (action.status === 'approved') return `Approved by ${action.decidedBy ?? '?'}`;
  if (action.status === 'auto_approved') return 'Approved by the policy';
  return 'Waiting for a decision';
}
