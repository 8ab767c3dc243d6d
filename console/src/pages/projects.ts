// Projects: the list this token sees, and one project's members, its permissions.json (edited
// list by list, one pattern per line, the gateway's validation errors shown on their line) and
// its agents' autonomy, with the "auto mode" toggle (the `*` rule: auto_approve ↔ manual).
import { ApiError } from '../api.ts';
import { actingUserOf, type Ctx } from '../context.ts';
import { ago, append, clear, h, toast } from '../dom.ts';
import { grid, listPage } from '../grid.ts';
import type { AutonomyRule, Member } from '../types.ts';

export function projectsPage(root: HTMLElement, ctx: Ctx): () => void {
  const body = listPage(root, 'Projects', ['project', 'mode', 'owner', 'your role', 'runner']);
  const render = (): void => {
    clear(body);
    for (const p of ctx.projects) {
      body.append(
        h(
          'tr',
          null,
          h('td', null, h('a', { href: `#/projects/${p.id}` }, p.name)),
          h('td', null, p.executionMode),
          h('td', null, p.ownerId),
          h('td', null, p.role ?? (ctx.me.kind === 'admin' ? 'admin' : '—')),
          h(
            'td',
            null,
            p.runner
              ? p.runner.connected
                ? `connected (${p.runner.hostname ?? 'unknown host'})`
                : `offline, last seen ${ago(p.runner.lastSeen)}`
              : '—',
          ),
        ),
      );
    }
    if (ctx.projects.length === 0)
      body.append(h('tr', null, h('td', { colspan: 5, class: 'muted' }, 'No projects for this token.')));
    root.dataset['loaded'] = 'true';
  };
  void ctx.refreshProjects().then(render);
  return () => {};
}

const LISTS = ['allow', 'deny', 'ask'] as const;
type ListName = (typeof LISTS)[number];
interface Issue {
  list: ListName | null;
  index: number | null;
  entry?: string;
  problem: string;
}

export function projectPage(root: HTMLElement, ctx: Ctx, projectId: string): () => void {
  clear(root);
  const name = ctx.projects.find((p) => p.id === projectId)?.name ?? projectId;
  const membersSlot = h('div');
  const permissionsSlot = h('div');
  const autonomySlot = h('div');
  root.append(
    h('div', { class: 'page-head' }, h('h1', null, name), h('a', { href: '#/projects' }, '← projects')),
    h('section', { class: 'panel' }, h('h2', null, 'Members'), membersSlot),
    h('section', { class: 'panel' }, h('h2', null, 'permissions.json'), permissionsSlot),
    h('section', { class: 'panel' }, h('h2', null, 'Agent autonomy'), autonomySlot),
  );
  let members: Member[] = [];

  const loadMembers = async (): Promise<void> => {
    members = (await ctx.api.get<{ members: Member[] }>(`/api/projects/${projectId}/members`)).members;
    clear(membersSlot);
    const memberInput = h('input', {
      name: 'memberId',
      placeholder: 'member id',
      required: true,
      'aria-label': 'Member id',
    });
    const roleSelect = h(
      'select',
      { name: 'role', 'aria-label': 'Role' },
      ['developer', 'maintainer', 'owner'].map((r) => h('option', { value: r }, r)),
    );
    const kindSelect = h(
      'select',
      { name: 'kind', 'aria-label': 'Kind' },
      ['human', 'agent'].map((k) => h('option', { value: k }, k)),
    );
    membersSlot.append(
      grid(
        ['member', 'kind', 'role'],
        h(
          'tbody',
          null,
          members.map((m) =>
            h(
              'tr',
              { 'data-member': m.memberId },
              h('td', null, m.memberId),
              h('td', null, m.kind),
              h('td', null, m.role),
            ),
          ),
        ),
      ),
      h(
        'form',
        {
          class: 'inline-form',
          onsubmit: async (event: SubmitEvent) => {
            event.preventDefault();
            const actingUserId = actingUserOf(ctx.me);
            if (actingUserId === null) return;
            try {
              await ctx.api.put(`/api/projects/${projectId}/members/${encodeURIComponent(memberInput.value.trim())}`, {
                role: roleSelect.value,
                kind: kindSelect.value,
                actingUserId,
              });
              toast(`${memberInput.value} is now ${roleSelect.value}`);
              await loadMembers();
              await loadAutonomy();
            } catch (error) {
              toast(`Could not set the member: ${(error as Error).message}`, 'error');
            }
          },
        },
        memberInput,
        kindSelect,
        roleSelect,
        h('button', { type: 'submit' }, 'Add or change'),
      ),
    );
  };

  const loadPermissions = async (): Promise<void> => {
    const view = await ctx.api.get<{
      permissions: Record<ListName, string[]>;
      broken: boolean;
      problem: { code: string; message: string } | null;
      exists: boolean;
      warnings?: string[];
    }>(`/api/projects/${projectId}/permissions`);
    clear(permissionsSlot);
    const areas = Object.fromEntries(
      LISTS.map((list) => [
        list,
        h('textarea', {
          name: list,
          rows: Math.max(3, view.permissions[list].length + 1),
          spellcheck: false,
          'aria-label': `${list} patterns, one per line`,
        }),
      ]),
    ) as Record<ListName, HTMLTextAreaElement>;
    const errors = Object.fromEntries(
      LISTS.map((list) => [list, h('ul', { class: 'issues', 'data-list': list })]),
    ) as Record<ListName, HTMLUListElement>;
    const general = h('ul', { class: 'issues' });
    // Entries kept but matching nothing (`GitPush(algo)`, spec "Pattern format").
    const warningList = h('ul', { class: 'warnings' });
    const showWarnings = (warnings: readonly string[]): void => {
      clear(warningList);
      for (const warning of warnings) warningList.append(h('li', null, warning));
    };
    showWarnings(view.warnings ?? []);
    for (const list of LISTS) areas[list].value = view.permissions[list].join('\n');
    const linesOf = (list: ListName): string[] =>
      areas[list].value
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l.length > 0);
    const showIssues = (issues: Issue[]): void => {
      for (const list of LISTS) {
        clear(errors[list]);
        areas[list].classList.remove('invalid');
      }
      clear(general);
      for (const issue of issues) {
        if (issue.list && LISTS.includes(issue.list)) {
          areas[issue.list].classList.add('invalid');
          const where =
            issue.index === null
              ? ''
              : `line ${issue.index + 1}${issue.entry !== undefined ? ` (${issue.entry})` : ''}: `;
          errors[issue.list].append(h('li', null, where + issue.problem));
        } else general.append(h('li', null, issue.problem));
      }
    };
    append(permissionsSlot, [
      view.broken && view.problem
        ? h(
            'p',
            { class: 'error' },
            `The file on disk is broken (${view.problem.code}): ${view.problem.message}. Until it is fixed only its deny and ask rules apply.`,
          )
        : null,
      h(
        'p',
        { class: 'muted' },
        'One pattern per line, e.g. ',
        h('code', null, 'Terminal(npm test:*)'),
        ' or ',
        h('code', null, 'GitPush()'),
        '. Saving replaces the file.',
      ),
      h(
        'div',
        { class: 'lists' },
        LISTS.map((list) =>
          h('label', { class: 'list' }, h('span', { class: 'list-name' }, list), areas[list], errors[list]),
        ),
      ),
      general,
      warningList,
      h(
        'button',
        {
          class: 'primary',
          onclick: async () => {
            const userId = actingUserOf(ctx.me);
            if (userId === null) return;
            try {
              const saved = await ctx.api.put<{ warnings?: string[] }>(`/api/projects/${projectId}/permissions`, {
                userId,
                allow: linesOf('allow'),
                deny: linesOf('deny'),
                ask: linesOf('ask'),
              });
              showIssues([]);
              showWarnings(saved.warnings ?? []);
              toast(
                saved.warnings && saved.warnings.length > 0
                  ? `permissions.json saved; ${saved.warnings.length} entr${saved.warnings.length === 1 ? 'y matches' : 'ies match'} nothing`
                  : 'permissions.json saved',
              );
            } catch (error) {
              const e = error as ApiError;
              const issues = Array.isArray(e.body?.['issues'])
                ? (e.body['issues'] as Issue[])
                : [{ list: null, index: null, problem: `${e.message} [${e.code}]` }];
              showIssues(issues);
              toast(`Not saved: ${e.code}`, 'error');
            }
          },
        },
        'Save permissions.json',
      ),
    ]);
  };

  const loadAutonomy = async (): Promise<void> => {
    const rules = (await ctx.api.get<{ rules: AutonomyRule[] }>(`/api/projects/${projectId}/agent-autonomy`)).rules;
    clear(autonomySlot);
    const agents = [
      ...new Set([...members.filter((m) => m.kind === 'agent').map((m) => m.memberId), ...rules.map((r) => r.agentId)]),
    ].sort();
    const setRule = async (agentId: string, actionType: string, mode: string): Promise<void> => {
      const userId = actingUserOf(ctx.me);
      if (userId === null) return;
      try {
        await ctx.api.put(`/api/projects/${projectId}/agent-autonomy`, { userId, agentId, actionType, mode });
        toast(`${agentId} ${actionType} → ${mode}`);
      } catch (error) {
        toast(`Could not change autonomy: ${(error as Error).message}`, 'error');
      }
      await loadAutonomy();
    };
    if (agents.length === 0) autonomySlot.append(h('p', { class: 'muted' }, 'No agents in this project yet.'));
    for (const agentId of agents) {
      const own = rules.filter((r) => r.agentId === agentId);
      const wildcard = own.find((r) => r.actionType === '*');
      const auto = wildcard?.mode === 'auto_approve';
      const toggle = h('input', {
        type: 'checkbox',
        role: 'switch',
        'data-agent': agentId,
        class: 'auto-mode',
        'aria-label': `Auto mode for ${agentId}`,
      });
      toggle.checked = auto;
      toggle.addEventListener('change', () => void setRule(agentId, '*', toggle.checked ? 'auto_approve' : 'manual'));
      const typeInput = h(
        'select',
        { 'aria-label': 'Action type' },
        ['terminal', 'git_push', 'git_merge', 'pr_open', 'container_start', 'container_stop', 'container_remove'].map(
          (t) => h('option', { value: t }, t),
        ),
      );
      const modeInput = h(
        'select',
        { 'aria-label': 'Mode' },
        ['auto_approve', 'require_approval', 'deny'].map((m) => h('option', { value: m }, m)),
      );
      autonomySlot.append(
        h(
          'div',
          { class: 'agent', 'data-agent': agentId },
          h('h3', null, agentId),
          h(
            'label',
            { class: 'switch' },
            toggle,
            ` Auto mode ${auto ? 'on' : 'off'}`,
            h(
              'span',
              { class: 'muted' },
              ' — the * rule; specific rules still win; ceilings (git push, deploys…) always ask',
            ),
          ),
          own.length > 0
            ? h(
                'ul',
                { class: 'rules' },
                own.map((r) =>
                  h(
                    'li',
                    null,
                    h('code', null, `${r.actionType}: ${r.mode}`),
                    h('span', { class: 'muted' }, ` by ${r.updatedBy}, ${ago(r.updatedAt)}`),
                  ),
                ),
              )
            : h('p', { class: 'muted' }, 'No rules: every proposal goes through permissions.json and the ceilings.'),
          h(
            'form',
            {
              class: 'inline-form',
              onsubmit: (e: SubmitEvent) => {
                e.preventDefault();
                void setRule(agentId, typeInput.value, modeInput.value);
              },
            },
            typeInput,
            modeInput,
            h('button', { type: 'submit' }, 'Set rule'),
          ),
        ),
      );
    }
    root.dataset['loaded'] = 'true';
  };

  const load = async (): Promise<void> => {
    try {
      await loadMembers();
      await Promise.all([loadPermissions(), loadAutonomy()]);
    } catch (error) {
      root.append(h('p', { class: 'error' }, `Could not load the project: ${(error as Error).message}`));
    }
  };
  const offLive = ctx.live.on((event, payload) => {
    if (event !== 'project.changed' || payload.projectId !== projectId) return;
    if (payload.what === 'members') void loadMembers();
    else if (payload.what === 'autonomy') void loadAutonomy();
  });
  ctx.live.watch([...new Set([...ctx.projects.map((p) => p.id), projectId])]);
  void load();
  return offLive;
}
