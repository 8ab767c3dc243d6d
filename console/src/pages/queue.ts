// The approval queue: every pending action across the projects this token sees, oldest first,
// live (pending actions appear and disappear without a reload). Keys: j/k or arrows move between
// entries; on an entry a approves, d denies (type the reason, Enter), A always-allows.
import type { Ctx } from '../context.ts';
import { clear, h } from '../dom.ts';
import { decisionsFor, reviewCard } from '../review-card.ts';
import type { ReviewEntry } from '../types.ts';

export function queuePage(root: HTMLElement, ctx: Ctx): () => void {
  const cards = new Map<string, { card: HTMLElement; createdAt: string }>();
  const list = h('div', { class: 'queue', role: 'list', 'aria-label': 'Pending actions' });
  const count = h('span', { class: 'count', 'data-testid': 'queue-count' }, '…');
  const empty = h('p', { class: 'empty muted', hidden: true }, 'Nothing waits for a decision. New proposals appear here as they arrive.');
  const truncatedNote = h('p', { class: 'muted', hidden: true }, 'Showing the oldest entries only; decide some to see more.');
  clear(root);
  root.append(
    h('div', { class: 'page-head' }, h('h1', null, 'Approval queue ', count), h('p', { class: 'hint muted' }, 'Keys: ', h('kbd', null, 'j'), '/', h('kbd', null, 'k'), ' move · ', h('kbd', null, 'a'), ' approve · ', h('kbd', null, 'd'), ' deny · ', h('kbd', null, 'A'), ' always allow · ', h('kbd', null, 'Enter'), ' open')),
    truncatedNote,
    empty,
    list,
  );

  const updateCount = (): void => {
    count.textContent = String(cards.size);
    empty.hidden = cards.size > 0;
    document.title = cards.size > 0 ? `(${cards.size}) brabo console` : 'brabo console';
  };

  const remove = (id: string): void => {
    const found = cards.get(id);
    if (!found) return;
    const hadFocus = document.activeElement === found.card || found.card.contains(document.activeElement);
    const next = (found.card.nextElementSibling ?? found.card.previousElementSibling) as HTMLElement | null;
    found.card.remove();
    cards.delete(id);
    if (hadFocus) next?.focus();
    updateCount();
  };

  const decisions = decisionsFor(ctx, (entry) => remove(entry.action.id));

  const upsert = (entry: ReviewEntry): void => {
    const card = reviewCard(entry, decisions, { link: true });
    card.setAttribute('role', 'listitem');
    const existing = cards.get(entry.action.id);
    if (existing) {
      existing.card.replaceWith(card);
      cards.set(entry.action.id, { card, createdAt: entry.action.createdAt });
      return;
    }
    // Oldest first: a late arrival (clock order) goes before the first younger entry.
    let before: HTMLElement | null = null;
    for (const other of cards.values()) {
      if (other.createdAt > entry.action.createdAt) {
        before = other.card;
        break;
      }
    }
    list.insertBefore(card, before);
    cards.set(entry.action.id, { card, createdAt: entry.action.createdAt });
    updateCount();
  };

  const load = async (): Promise<void> => {
    const [queue] = await Promise.all([ctx.api.get<{ entries: ReviewEntry[]; truncated: boolean }>('/api/console/queue'), ctx.refreshProjects()]);
    ctx.live.watch(ctx.projects.map((p) => p.id));
    cards.clear();
    const fragment = document.createDocumentFragment();
    for (const entry of queue.entries) {
      const card = reviewCard(entry, decisions, { link: true });
      card.setAttribute('role', 'listitem');
      cards.set(entry.action.id, { card, createdAt: entry.action.createdAt });
      fragment.appendChild(card);
    }
    clear(list);
    list.appendChild(fragment);
    truncatedNote.hidden = !queue.truncated;
    updateCount();
    root.dataset['loaded'] = 'true';
  };

  const offLive = ctx.live.on((event, payload) => {
    if (event !== 'action.changed') return;
    const entry = payload.entry as ReviewEntry;
    if (entry.action.status === 'pending') upsert(entry);
    else remove(entry.action.id);
  });
  const offReconnect = ctx.live.onReconnect(() => void load());

  const onKey = (event: KeyboardEvent): void => {
    const target = event.target as HTMLElement;
    if (target.closest('input, textarea, select') || event.ctrlKey || event.metaKey || event.altKey) return;
    const all = [...list.children] as HTMLElement[];
    if (all.length === 0) return;
    const current = all.findIndex((card) => card === target || card.contains(target));
    let next = -1;
    if (event.key === 'j' || event.key === 'ArrowDown') next = Math.min(all.length - 1, current + 1);
    else if (event.key === 'k' || event.key === 'ArrowUp') next = Math.max(0, current < 0 ? 0 : current - 1);
    else if (current < 0 && (event.key === 'a' || event.key === 'd' || event.key === 'A')) {
      // Nothing focused yet: act on the first entry.
      all[0]?.focus();
      all[0]?.dispatchEvent(new KeyboardEvent('keydown', { key: event.key, bubbles: true }));
      event.preventDefault();
      return;
    } else return;
    event.preventDefault();
    all[next]?.focus();
    all[next]?.scrollIntoView({ block: 'nearest' });
  };
  document.addEventListener('keydown', onKey);

  void load().catch((error: Error) => root.append(h('p', { class: 'error' }, `Could not load the queue: ${error.message}`)));
  return () => {
    offLive();
    offReconnect();
    document.removeEventListener('keydown', onKey);
  };
}
