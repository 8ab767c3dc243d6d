// The approval queue: every pending action across the projects this token sees, oldest first,
// live (pending actions appear and disappear without a reload). Keys: j/k or arrows move between
// entries; on an entry a approves, d denies (type the reason, Enter), A always-allows.
//
// A thousand entries stay fast: the first screen is built at once, the rest in small batches
// between frames (the page answers keys meanwhile); the server sends the fragment table for the
// first entries only and the others fetch theirs when they come near the viewport.
import type { Ctx } from '../context.ts';
import { clear, h } from '../dom.ts';
import { decisionsFor, reviewCard, wireDecisions } from '../review-card.ts';
import type { ReviewEntry } from '../types.ts';

/** Entries built before the first paint, and per batch after it. */
const FIRST_SCREEN = 30;
const BATCH = 100;
/** Entries the server explains in the list answer; the others are filled in on demand. */
const DETAILED = 40;

export function queuePage(root: HTMLElement, ctx: Ctx): () => void {
  const entries = new Map<string, ReviewEntry>();
  const cards = new Map<string, HTMLElement>();
  /** Ordered entries not built yet (progressive rendering). */
  let unbuilt: ReviewEntry[] = [];
  let building: ReturnType<typeof setTimeout> | null = null;
  let closed = false;
  const list = h('div', { class: 'queue', role: 'list', 'aria-label': 'Pending actions' });
  const count = h('span', { class: 'count', 'data-testid': 'queue-count' }, '…');
  const empty = h(
    'p',
    { class: 'empty muted', hidden: true },
    'Nothing waits for a decision. New proposals appear here as they arrive.',
  );
  const truncatedNote = h(
    'p',
    { class: 'muted', hidden: true },
    'Showing the oldest entries only; decide some to see more.',
  );
  clear(root);
  root.append(
    h(
      'div',
      { class: 'page-head' },
      h('h1', null, 'Approval queue ', count),
      h(
        'p',
        { class: 'hint muted' },
        'Keys: ',
        h('kbd', null, 'j'),
        '/',
        h('kbd', null, 'k'),
        ' move · ',
        h('kbd', null, 'a'),
        ' approve · ',
        h('kbd', null, 'd'),
        ' deny · ',
        h('kbd', null, 'A'),
        ' always allow · ',
        h('kbd', null, 'Enter'),
        ' open',
      ),
    ),
    truncatedNote,
    empty,
    list,
  );

  const updateCount = (): void => {
    const total = entries.size;
    count.textContent = String(total);
    empty.hidden = total > 0;
    document.title = total > 0 ? `(${total}) brabo console` : 'brabo console';
  };

  // Brief cards fetch their fragment table when they come within a screen of the viewport.
  const wanted = new Set<string>();
  let fetchTimer: ReturnType<typeof setTimeout> | null = null;
  const fillIn = async (): Promise<void> => {
    fetchTimer = null;
    const ids = [...wanted].slice(0, 50);
    for (const id of ids) wanted.delete(id);
    if (ids.length === 0) return;
    try {
      const { entries: full } = await ctx.api.get<{ entries: ReviewEntry[] }>(
        `/api/console/review?ids=${ids.map(encodeURIComponent).join(',')}`,
      );
      for (const entry of full)
        if (entries.get(entry.action.id)?.action.status === 'pending' && entry.action.status === 'pending')
          replace(entry);
    } catch {
      // The card keeps its reason sentence; the table comes with the next scroll or reload.
    }
    if (wanted.size > 0) fetchTimer = setTimeout(() => void fillIn(), 0);
  };
  const observer = new IntersectionObserver(
    (seen) => {
      for (const s of seen) {
        if (!s.isIntersecting) continue;
        const id = (s.target as HTMLElement).dataset['id'];
        observer.unobserve(s.target);
        if (id) wanted.add(id);
      }
      if (wanted.size > 0 && fetchTimer === null) fetchTimer = setTimeout(() => void fillIn(), 30);
    },
    { rootMargin: '800px 0px' },
  );

  const build = (entry: ReviewEntry): HTMLElement => {
    const card = reviewCard(entry, { link: true });
    card.setAttribute('role', 'listitem');
    cards.set(entry.action.id, card);
    if (card.dataset['brief'] !== undefined) observer.observe(card);
    return card;
  };

  const replace = (entry: ReviewEntry): void => {
    entries.set(entry.action.id, entry);
    const old = cards.get(entry.action.id);
    if (!old) return; // not built yet: it is built from the new entry
    const hadFocus = document.activeElement === old;
    const denying =
      old.querySelector('form.deny-form:not([hidden])') !== null || (old.contains(document.activeElement) && !hadFocus);
    if (denying) return; // never yank a half-typed denial reason away
    observer.unobserve(old);
    const card = build(entry);
    old.replaceWith(card);
    if (hadFocus) card.focus();
  };

  const remove = (id: string): void => {
    if (!entries.delete(id)) return;
    unbuilt = unbuilt.filter((e) => e.action.id !== id);
    const card = cards.get(id);
    if (card) {
      const hadFocus = document.activeElement === card || card.contains(document.activeElement);
      const next = (card.nextElementSibling ?? card.previousElementSibling) as HTMLElement | null;
      observer.unobserve(card);
      card.remove();
      cards.delete(id);
      if (hadFocus) next?.focus();
    }
    updateCount();
  };

  const upsert = (entry: ReviewEntry): void => {
    if (entries.has(entry.action.id)) return replace(entry);
    entries.set(entry.action.id, entry);
    if (unbuilt.length > 0) {
      // Still building: it joins the unbuilt tail in order.
      const at = unbuilt.findIndex((e) => e.action.createdAt > entry.action.createdAt);
      if (at < 0) unbuilt.push(entry);
      else unbuilt.splice(at, 0, entry);
    } else {
      // Oldest first: a late arrival (clock order) goes before the first younger entry.
      let before: HTMLElement | null = null;
      for (const [id, card] of cards) {
        if ((entries.get(id)?.action.createdAt ?? '') > entry.action.createdAt) {
          before = card;
          break;
        }
      }
      list.insertBefore(build(entry), before);
    }
    updateCount();
  };

  const buildSome = (n: number): void => {
    const batch = unbuilt.splice(0, n);
    if (batch.length === 0) return;
    const fragment = document.createDocumentFragment();
    for (const entry of batch) fragment.appendChild(build(entry));
    list.appendChild(fragment);
  };
  const buildRest = (): void => {
    building = null;
    if (closed) return;
    buildSome(BATCH);
    if (unbuilt.length > 0) building = setTimeout(buildRest, 0);
    else {
      root.dataset['complete'] = 'true';
      performance.mark('brabo:queue-complete');
    }
  };

  const decisions = decisionsFor(ctx, (entry) => remove(entry.action.id));
  wireDecisions(list, (id) => entries.get(id), decisions, { link: true });

  const load = async (): Promise<void> => {
    performance.mark('brabo:queue-fetch');
    const [queue] = await Promise.all([
      ctx.api.get<{ entries: ReviewEntry[]; truncated: boolean }>(`/api/console/queue?detail=${DETAILED}`),
      ctx.refreshProjects(),
    ]);
    performance.mark('brabo:queue-fetched'); // the benchmark reads these marks for its breakdown
    if (closed) return;
    ctx.live.watch(ctx.projects.map((p) => p.id));
    if (building) clearTimeout(building);
    for (const card of cards.values()) observer.unobserve(card);
    entries.clear();
    cards.clear();
    clear(list);
    delete root.dataset['complete'];
    for (const entry of queue.entries) entries.set(entry.action.id, entry);
    unbuilt = [...queue.entries];
    buildSome(FIRST_SCREEN);
    truncatedNote.hidden = !queue.truncated;
    updateCount();
    root.dataset['loaded'] = 'true';
    performance.mark('brabo:queue-first-screen');
    buildRest();
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
    const all = list.children;
    if (all.length === 0) return;
    const current = target.closest('article.entry') as HTMLElement | null;
    let next: Element | null = null;
    if (event.key === 'j' || event.key === 'ArrowDown')
      next = current ? (current.nextElementSibling ?? current) : (all[0] ?? null);
    else if (event.key === 'k' || event.key === 'ArrowUp')
      next = current ? (current.previousElementSibling ?? current) : (all[0] ?? null);
    else if (!current && (event.key === 'a' || event.key === 'd' || event.key === 'A')) {
      // Nothing focused yet: act on the first entry.
      const first = all[0] as HTMLElement;
      first.focus();
      first.dispatchEvent(new KeyboardEvent('keydown', { key: event.key, bubbles: true }));
      event.preventDefault();
      return;
    } else return;
    event.preventDefault();
    (next as HTMLElement | null)?.focus();
    (next as HTMLElement | null)?.scrollIntoView({ block: 'nearest' });
  };
  document.addEventListener('keydown', onKey);

  void load().catch((error: Error) =>
    root.append(h('p', { class: 'error' }, `Could not load the queue: ${error.message}`)),
  );
  return () => {
    closed = true;
    if (building) clearTimeout(building);
    if (fetchTimer) clearTimeout(fetchTimer);
    observer.disconnect();
    offLive();
    offReconnect();
    document.removeEventListener('keydown', onKey);
  };
}
