// Read models for the operator console (and any script): lists across the caller's projects that
// the per-project routes do not give in one call. Every list is bounded.
//   (GET /api/me, who the token is, is src/http/routes/credentials.ts)
//   GET /api/console/projects    projects the caller sees, with its role and runner presence
//   GET /api/console/queue       pending actions across those projects, as review entries
//   GET /api/console/actions/:id one action as a review entry, with its execution
//   GET /api/console/runners     runner presence per runner/mounted project
//   GET /api/console/events      one project's event log filtered by type and actor, with counts
//                                of human versus policy decisions
// Which projects a caller sees comes from `viewerOf`: the admin token sees every project; a human
// token (issue 12) sees the projects it is a member of.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { EVENT } from '../../actions/events.ts';
import { briefEntries, type ReviewDeps, reviewEntries } from '../../live/review.ts';
import type { Project, SessionEvent, Store } from '../../store/types.ts';
import { ActionParams, errorResponses, Id } from '../schemas.ts';

export type Viewer = { kind: 'admin' } | { kind: 'human'; userId: string };

export interface RunnerPresence {
  connected: boolean;
  hostname: string | null;
  runnerVersion: string | null;
  /** The sandbox state the runner reported at join (issue 9), when it did. */
  sandbox: string | null;
  joinedAt: string | null;
  lastSeen: string | null;
}

export interface ConsoleRouteDeps extends ReviewDeps {
  store: Store;
  viewerOf(request: FastifyRequest): Viewer;
  /** Runner presence per project; absent without the runner gateway. */
  runnerPresence?(projectId: string): RunnerPresence;
}

/** Most projects a console lists; most pending actions a queue holds; most events scanned. */
export const CONSOLE_LIMITS = { projects: 1000, queue: 5000, eventsScanned: 50_000 } as const;

const HUMAN_DECISIONS: readonly string[] = [EVENT.actionApproved, EVENT.actionDenied];

const EntrySchema = z.record(z.string(), z.unknown());
const PresenceSchema = z.object({
  connected: z.boolean(),
  hostname: z.string().nullable(),
  runnerVersion: z.string().nullable(),
  sandbox: z.string().nullable(),
  joinedAt: z.string().nullable(),
  lastSeen: z.string().nullable(),
});

export const consoleRoutes: FastifyPluginAsyncZod<ConsoleRouteDeps> = async (app, deps) => {
  const { store } = deps;

  async function visibleProjects(viewer: Viewer): Promise<Array<{ project: Project; role: string | null }>> {
    if (viewer.kind === 'admin')
      return (await store.read.projects.list(CONSOLE_LIMITS.projects)).map((project) => ({ project, role: null }));
    const memberships = await store.read.members.listByMember(viewer.userId, CONSOLE_LIMITS.projects);
    const rows: Array<{ project: Project; role: string | null }> = [];
    for (const m of memberships) {
      const project = await store.read.projects.get(m.projectId);
      if (project && m.kind === 'human') rows.push({ project, role: m.role });
    }
    return rows;
  }

  async function canSee(viewer: Viewer, projectId: string): Promise<boolean> {
    if (viewer.kind === 'admin') return true;
    const member = await store.read.members.get(projectId, viewer.userId);
    return member !== null && member.kind === 'human';
  }

  const forbidden = (what: string) => ({
    error: 'forbidden_project',
    message: `this token is not a member of the project of ${what}`,
  });

  app.get(
    '/api/console/projects',
    {
      schema: {
        tags: ['console'],
        response: {
          200: z.object({
            projects: z.array(
              z.object({
                id: z.string(),
                name: z.string(),
                executionMode: z.string(),
                ownerId: z.string(),
                role: z.string().nullable(),
                runner: PresenceSchema.nullable(),
              }),
            ),
          }),
        },
      },
    },
    async (request) => {
      const rows = await visibleProjects(deps.viewerOf(request));
      return {
        projects: rows.map(({ project, role }) => ({
          id: project.id,
          name: project.name,
          executionMode: project.executionMode,
          ownerId: project.ownerId,
          role,
          runner: project.executionMode !== 'container' && deps.runnerPresence ? deps.runnerPresence(project.id) : null,
        })),
      };
    },
  );

  app.get(
    '/api/console/queue',
    {
      schema: {
        tags: ['console'],
        description:
          "Pending actions across the caller's projects, oldest first, each with the reason sentence and the always-allow preview; the first `detail` entries also carry the fragment table (`now` set), the others are brief (`now: null`) and are completed with GET /api/console/review?ids=.",
        querystring: z.object({
          limit: z.coerce.number().int().min(1).max(CONSOLE_LIMITS.queue).default(CONSOLE_LIMITS.queue),
          detail: z.coerce.number().int().min(0).max(CONSOLE_LIMITS.queue).default(CONSOLE_LIMITS.queue),
        }),
        response: { 200: z.object({ entries: z.array(EntrySchema), truncated: z.boolean() }) },
      },
    },
    async (request) => {
      const { limit, detail } = request.query;
      const rows = await visibleProjects(deps.viewerOf(request));
      const pending = [];
      for (const { project } of rows)
        pending.push(...(await store.read.actions.list(project.id, { status: 'pending', limit: limit + 1 })));
      pending.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
      const kept = pending.slice(0, limit);
      const full = await reviewEntries(deps, kept.slice(0, detail));
      const brief = await briefEntries(deps, kept.slice(detail));
      return {
        entries: [...full, ...brief] as unknown as Array<Record<string, unknown>>,
        truncated: pending.length > limit,
      };
    },
  );

  app.get(
    '/api/console/review',
    {
      schema: {
        tags: ['console'],
        description:
          'Full review entries (fragment table included) for up to 100 action ids, in the order asked; unknown or invisible ids are left out.',
        querystring: z.object({
          ids: z
            .string()
            .min(1)
            .max(100 * 201),
        }),
        response: { 200: z.object({ entries: z.array(EntrySchema) }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const ids = [...new Set(request.query.ids.split(',').filter((id) => id.length > 0))];
      if (ids.length > 100)
        return reply.code(400).send({ error: 'too_many_ids', message: `at most 100 ids per call, got ${ids.length}` });
      const viewer = deps.viewerOf(request);
      const actions = [];
      for (const id of ids) {
        const action = await store.read.actions.get(id);
        if (action && (await canSee(viewer, action.projectId))) actions.push(action);
      }
      return { entries: (await reviewEntries(deps, actions)) as unknown as Array<Record<string, unknown>> };
    },
  );

  app.get(
    '/api/console/actions/:id',
    {
      schema: {
        tags: ['console'],
        params: ActionParams,
        response: {
          200: z.object({ entry: EntrySchema, execution: z.record(z.string(), z.unknown()).nullable() }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const action = await store.read.actions.get(request.params.id);
      if (!action)
        return reply.code(404).send({ error: 'action_not_found', message: `no action with id ${request.params.id}` });
      if (!(await canSee(deps.viewerOf(request), action.projectId)))
        return reply.code(403).send(forbidden(`action ${action.id}`));
      const [entry] = await reviewEntries(deps, [action]);
      const dispatch = await store.read.dispatches.getByAction(action.id);
      return {
        entry: (entry ?? { action }) as unknown as Record<string, unknown>,
        execution: dispatch
          ? {
              state: dispatch.state,
              attempt: dispatch.attempt,
              target: dispatch.target,
              outcome: dispatch.outcome,
              updatedAt: dispatch.updatedAt,
            }
          : null,
      };
    },
  );

  app.get(
    '/api/console/runners',
    {
      schema: {
        tags: ['console'],
        response: {
          200: z.object({
            runners: z.array(
              PresenceSchema.extend({ projectId: z.string(), projectName: z.string(), executionMode: z.string() }),
            ),
          }),
        },
      },
    },
    async (request) => {
      const rows = await visibleProjects(deps.viewerOf(request));
      const absent: RunnerPresence = {
        connected: false,
        hostname: null,
        runnerVersion: null,
        sandbox: null,
        joinedAt: null,
        lastSeen: null,
      };
      return {
        runners: rows
          .filter(({ project }) => project.executionMode !== 'container')
          .map(({ project }) => ({
            projectId: project.id,
            projectName: project.name,
            executionMode: project.executionMode,
            ...(deps.runnerPresence?.(project.id) ?? absent),
          })),
      };
    },
  );

  app.get(
    '/api/console/events',
    {
      schema: {
        tags: ['console'],
        description:
          "One project's event log, newest first, filtered by `type` (exact event code) and `actor` (actor id, or `system`), with counts over the whole log of decisions by a human (approve / deny clicks) and by the policy (auto-approved or denied at creation).",
        querystring: z.object({
          projectId: Id,
          type: z.string().max(100).optional(),
          actor: z.string().max(200).optional(),
          limit: z.coerce.number().int().min(1).max(1000).default(200),
        }),
        response: {
          200: z.object({
            events: z.array(z.record(z.string(), z.unknown())),
            counts: z.object({
              humanDecisions: z.number(),
              policyDecisions: z.number(),
              scanned: z.number(),
              byType: z.record(z.string(), z.number()),
            }),
            actors: z.array(z.string()),
            scanComplete: z.boolean(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { projectId, type, actor, limit } = request.query;
      if (!(await store.read.projects.get(projectId)))
        return reply.code(404).send({ error: 'project_not_found', message: `no project with id ${projectId}` });
      if (!(await canSee(deps.viewerOf(request), projectId)))
        return reply.code(403).send(forbidden(`project ${projectId}`));
      const matches: SessionEvent[] = [];
      const byType: Record<string, number> = {};
      const actors = new Set<string>();
      let human = 0;
      let policy = 0;
      let scanned = 0;
      let after = 0;
      for (;;) {
        const page = await store.read.events.listAfter(projectId, after, 1000);
        for (const event of page) {
          scanned++;
          byType[event.type] = (byType[event.type] ?? 0) + 1;
          actors.add(event.actorId ?? 'system');
          if (HUMAN_DECISIONS.includes(event.type) && event.actorKind === 'user') human++;
          const status = event.payload['status'];
          if (event.type === EVENT.actionCreated && (status === 'auto_approved' || status === 'denied')) policy++;
          if (
            (type === undefined || event.type === type) &&
            (actor === undefined || (event.actorId ?? 'system') === actor)
          )
            matches.push(event);
        }
        if (page.length < 1000 || scanned >= CONSOLE_LIMITS.eventsScanned) break;
        after = (page[page.length - 1] as SessionEvent).id;
      }
      return {
        events: matches.slice(-limit).reverse() as unknown as Array<Record<string, unknown>>,
        counts: { humanDecisions: human, policyDecisions: policy, scanned, byType },
        actors: [...actors].sort(),
        scanComplete: scanned < CONSOLE_LIMITS.eventsScanned,
      };
    },
  );
};
