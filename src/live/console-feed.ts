// The console's live updates, on the gateway's own Phoenix socket. One topic per project:
//
//   project:<projectId>
//     action.changed    {entry: ReviewEntry, execution: {status, outcome} | null}
//                       an action was proposed, approved, denied or settled (entry.action.status
//                       says which; pending ones carry the fragment table and always-allow preview)
//     action.output     {actionId, seq, stream, data}   live output of a running action
//     runner.changed    {projectId, connected}            a runner joined or left
//     container.changed {projectId}                       a container action settled
//     project.changed   {projectId, what}                 members, permissions or autonomy changed
//
// Who may join is decided by `canWatch` (the authorization table: the admin token, or a human
// member of the project). The console never pushes on these topics: decisions go through HTTP,
// where each one acts as the logged-in human.
import type { Logger } from 'pino';
import { error, ok, type ChannelModule } from '../../gateway/index.ts';
import type { SocketIdentity } from '../../gateway/auth.ts';
import type { ActionOutput } from '../../runner-protocol/index.ts';
import type { Store } from '../store/types.ts';
import type { OutputChunk } from './output-buffer.ts';
import { briefEntry, type ReviewDeps, reviewEntries } from './review.ts';

export const CONSOLE_TOPIC_PREFIX = 'project:';
export const consoleTopic = (projectId: string): string => `${CONSOLE_TOPIC_PREFIX}${projectId}`;
export const CONSOLE_EVENTS = {
  actionChanged: 'action.changed',
  actionOutput: 'action.output',
  runnerChanged: 'runner.changed',
  containerChanged: 'container.changed',
  projectChanged: 'project.changed',
} as const;

export type CanWatch = (identity: SocketIdentity, projectId: string) => boolean | Promise<boolean>;

export interface ConsoleFeedOptions extends ReviewDeps {
  store: Store;
  canWatch: CanWatch;
  logger: Logger;
}

export class ConsoleFeed {
  readonly #o: ConsoleFeedOptions;
  #broadcast: ((topic: string, event: string, payload: unknown) => void) | null = null;
  /** Per action, the previous broadcast: reads finish in call order, so the last one wins. */
  readonly #chains = new Map<string, Promise<void>>();
  readonly channel: ChannelModule;

  constructor(options: ConsoleFeedOptions) {
    this.#o = options;
    this.channel = {
      join: async (topic, _payload, context) => {
        const projectId = topic.slice(CONSOLE_TOPIC_PREFIX.length);
        const project = projectId === '' ? null : await options.store.read.projects.get(projectId);
        if (project && (await options.canWatch(context.identity, projectId))) return ok({ projectId });
        options.logger.warn(
          { code: 'forbidden_topic', topic, identity: context.identity.kind },
          'console join refused',
        );
        return error({ code: 'forbidden_topic', message: `this token may not watch ${topic}` });
      },
      handleIn: () =>
        error({
          code: 'unknown_event',
          message: 'console topics are server -> console only; decide through the HTTP API',
        }),
    };
  }

  /** Wires the gateway's broadcast (the gateway is created after the feed). */
  attach(broadcast: (topic: string, event: string, payload: unknown) => void): void {
    this.#broadcast = broadcast;
  }

  /** After any change of an action (proposed, decided, settled): its current entry goes out. */
  actionChanged(actionId: string): Promise<void> {
    const previous = this.#chains.get(actionId) ?? Promise.resolve();
    const next = previous.then(() => this.#sendAction(actionId));
    this.#chains.set(actionId, next);
    void next.finally(() => {
      if (this.#chains.get(actionId) === next) this.#chains.delete(actionId);
    });
    return next;
  }

  output(projectId: string, actionId: string, chunk: OutputChunk): void {
    this.#send(projectId, CONSOLE_EVENTS.actionOutput, {
      actionId,
      seq: chunk.seq,
      stream: chunk.stream,
      data: chunk.data,
    } satisfies ActionOutput);
  }

  runnerChanged(projectId: string, connected: boolean): void {
    this.#send(projectId, CONSOLE_EVENTS.runnerChanged, { projectId, connected });
  }

  containerChanged(projectId: string): void {
    this.#send(projectId, CONSOLE_EVENTS.containerChanged, { projectId });
  }

  projectChanged(projectId: string, what: 'members' | 'permissions' | 'autonomy'): void {
    this.#send(projectId, CONSOLE_EVENTS.projectChanged, { projectId, what });
  }

  async #sendAction(actionId: string): Promise<void> {
    try {
      const action = await this.#o.store.read.actions.get(actionId);
      if (!action) return;
      // Only a pending action needs its fragment table: the others are leaving the queue.
      const entry =
        action.status === 'pending' ? (await reviewEntries(this.#o, [action]))[0] : await briefEntry(this.#o, action);
      if (!entry) return;
      const handoff = await this.#o.store.read.handoffs.getByAction(actionId);
      this.#send(action.projectId, CONSOLE_EVENTS.actionChanged, {
        entry,
        execution: handoff ? { status: handoff.status, outcome: handoff.outcome } : null,
      });
      const settled = handoff?.status === 'executed' || handoff?.status === 'failed';
      if (settled && action.actionType.startsWith('container_')) this.containerChanged(action.projectId);
    } catch (err) {
      // Viewers miss one update (they reconcile on their next load); the action itself is fine.
      this.#o.logger.warn(
        { code: 'console_feed_failed', err, actionId },
        'could not publish an action change to the console',
      );
    }
  }

  #send(projectId: string, event: string, payload: unknown): void {
    try {
      this.#broadcast?.(consoleTopic(projectId), event, payload);
    } catch (err) {
      this.#o.logger.warn({ code: 'console_feed_failed', err, projectId, event }, 'could not publish to the console');
    }
  }
}
