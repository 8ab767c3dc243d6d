// The operator console: log in with a token, then pages routed by the URL hash (#/queue,
// #/projects, #/projects/<id>, #/runners, #/containers, #/events, #/actions/<id>). The token is
// kept in sessionStorage (gone when the tab closes) and sent as a bearer header on every API call
// and as the socket's auth token; every decision is that token's. Logging in also sets the
// HttpOnly console cookie (POST /console/session): the console's own files load only with it.
import './style.css';
import { Api, ApiError, CONSOLE_KINDS, type Me } from './api.ts';
import { ACTING_KEY, type Ctx, TOKEN_KEY, actingUserOf } from './context.ts';
import { clear, h } from './dom.ts';
import { Live } from './live.ts';
import { actionPage } from './pages/action.ts';
import { containersPage } from './pages/containers.ts';
import { eventsPage } from './pages/events.ts';
import { projectPage, projectsPage } from './pages/projects.ts';
import { queuePage } from './pages/queue.ts';
import { runnersPage } from './pages/runners.ts';
import type { ProjectRow } from './types.ts';

const app = document.getElementById('app') as HTMLElement;
let cleanup: () => void = () => {};

function loginPage(message?: string): void {
  cleanup();
  cleanup = () => {};
  clear(app);
  const input = h('input', {
    type: 'password',
    name: 'token',
    id: 'token',
    autocomplete: 'off',
    required: true,
    'aria-label': 'Token',
    placeholder: 'brabo token',
  });
  const error = h('p', { class: 'error', role: 'alert' }, message ?? '');
  app.append(
    h(
      'main',
      { class: 'login' },
      h('h1', null, 'brabo console'),
      h(
        'p',
        { class: 'muted' },
        'Log in with your personal token. Every approval and denial you make here is recorded as yours.',
      ),
      h(
        'form',
        {
          onsubmit: (event: SubmitEvent) => {
            event.preventDefault();
            void login(input.value.trim(), error);
          },
        },
        h('label', { for: 'token' }, 'Token'),
        input,
        h('button', { type: 'submit', class: 'primary' }, 'Log in'),
        error,
      ),
    ),
  );
  input.focus();
}

async function login(token: string, error: HTMLElement): Promise<void> {
  if (token.length === 0) return;
  try {
    const me = await new Api(token).get<Me>('/api/me');
    if (!CONSOLE_KINDS.includes(me.kind)) {
      error.textContent =
        me.kind === 'admin'
          ? 'The admin token only provisions (projects, members, credentials); log in with your personal token: brabo token mint --kind human --member <you>.'
          : `This is ${me.kind === 'agent' ? 'an agent' : `a ${me.kind}`} token; the console needs your personal (human) token.`;
      return;
    }
    await new Api(token).openSession();
    sessionStorage.setItem(TOKEN_KEY, token);
    start(token, me);
  } catch (e) {
    const err = e as ApiError;
    error.textContent =
      err.status === 401 || err.status === 403
        ? `This token was refused (${err.code}).`
        : `Could not log in: ${err.message}`;
  }
}

function start(token: string, me: Me): void {
  const api = new Api(token);
  const live = new Live(token);
  const dot = h('span', { class: 'dot dot-off', title: 'live updates: connecting', 'data-testid': 'live-dot' });
  live.onStatus = (connected) => {
    dot.className = connected ? 'dot dot-on' : 'dot dot-off';
    dot.title = connected ? 'live updates: connected' : 'live updates: reconnecting';
    document.body.dataset['live'] = connected ? 'on' : 'off';
  };
  const ctx: Ctx = {
    api,
    live,
    me,
    projects: [],
    async refreshProjects() {
      ctx.projects = (await api.get<{ projects: ProjectRow[] }>('/api/console/projects')).projects;
    },
    actingUser: () => actingUserOf(me),
    navigate: (hash) => {
      location.hash = hash;
    },
  };
  const acting =
    me.kind !== 'human'
      ? h(
          'label',
          { class: 'acting' },
          'acting as ',
          h('input', {
            id: 'acting-as',
            value: sessionStorage.getItem(ACTING_KEY) ?? '',
            placeholder: 'member id',
            'aria-label': 'Member you act as',
            oninput: (event: Event) =>
              sessionStorage.setItem(ACTING_KEY, (event.target as HTMLInputElement).value.trim()),
          }),
        )
      : h('span', { class: 'acting' }, 'signed in as ', h('strong', null, me.userId ?? '?'));
  const nav = h(
    'nav',
    { 'aria-label': 'Pages' },
    [
      ['#/queue', 'Queue'],
      ['#/projects', 'Projects'],
      ['#/runners', 'Runners'],
      ['#/containers', 'Containers'],
      ['#/events', 'Events'],
    ].map(([href, label]) => h('a', { href: href as string, 'data-nav': href as string }, label as string)),
  );
  const main = h('main', { id: 'page', tabindex: -1 });
  clear(app);
  app.append(
    h(
      'header',
      { class: 'top' },
      h('a', { class: 'brand', href: '#/queue' }, 'brabo'),
      nav,
      h('div', { class: 'who' }, dot, acting, h('button', { class: 'link', onclick: logout }, 'Log out')),
    ),
    main,
  );
  const route = (): void => {
    cleanup();
    const [path = '', queryString = ''] = location.hash.replace(/^#/, '').split('?');
    const parts = path.split('/').filter(Boolean);
    for (const link of nav.querySelectorAll('a'))
      link.classList.toggle('active', path.startsWith(link.dataset['nav']?.slice(1) ?? '~'));
    main.removeAttribute('data-loaded');
    const page = parts[0] ?? 'queue';
    if (page === 'projects' && parts[1]) cleanup = projectPage(main, ctx, decodeURIComponent(parts[1]));
    else if (page === 'projects') cleanup = projectsPage(main, ctx);
    else if (page === 'runners') cleanup = runnersPage(main, ctx);
    else if (page === 'containers') cleanup = containersPage(main, ctx);
    else if (page === 'events') cleanup = eventsPage(main, ctx, new URLSearchParams(queryString));
    else if (page === 'actions' && parts[1]) cleanup = actionPage(main, ctx, decodeURIComponent(parts[1]));
    else cleanup = queuePage(main, ctx);
    main.dataset['page'] = page;
  };
  function logout(): void {
    void api.closeSession().catch(() => {});
    sessionStorage.removeItem(TOKEN_KEY);
    live.close();
    window.removeEventListener('hashchange', route);
    loginPage();
  }
  window.addEventListener('hashchange', route);
  void ctx.refreshProjects().then(route, (error: Error) => {
    main.append(h('p', { class: 'error' }, `Could not load your projects: ${error.message}`));
  });
}

const saved = sessionStorage.getItem(TOKEN_KEY);
if (saved) {
  new Api(saved).get<Me>('/api/me').then(
    (me) => start(saved, me),
    () => {
      sessionStorage.removeItem(TOKEN_KEY);
      loginPage('Your session ended; log in again.');
    },
  );
} else loginPage();
