// `agent:<agentId>`: an agent waiting on an approval listens here for `task.action_settled`.
// An admin or service socket (the upstream api) may join any agent topic, or `agent:*` to relay every
// agent's events as `{agentId, payload}`. Delivery goes through pub/sub so it works across nodes.
import type { Logger } from 'pino';
import { z } from 'zod';
import {
  AGENT_EVENT_SCHEMAS,
  agentTopic,
  ALL_AGENTS_TOPIC,
  JOIN_ERRORS,
  PUSH_ERRORS,
  type AgentRelay,
  type Refusal,
} from '../runner-protocol/index.ts';
import { error, ok, type ChannelModule } from './channel.ts';
import { InvalidOutgoingPayloadError } from './errors.ts';
import type { PubSub } from './pubsub.ts';

export const AGENT_TOPIC_PREFIX = 'agent:';
/**
 * Internal (never joinable): what an agent token bound to a project hears on `agent:<id>`. Agent
 * ids repeat across projects (`dev-<module>`), so the bare topic would carry another project's
 * settlements and output to it.
 */
export const projectAgentTopic = (projectId: string, agentId: string): string =>
  `agent_of_project:${projectId}:${agentId}`;

export class AgentNotifier {
  readonly #pubsub: PubSub;
  readonly #logger: Logger;
  /** The channel module to route `agent:*` to. */
  readonly channel: ChannelModule;

  constructor(options: { pubsub: PubSub; logger: Logger }) {
    this.#pubsub = options.pubsub;
    this.#logger = options.logger;
    this.channel = {
      join: (topic, _payload, context) => {
        const agentId = topic.slice(AGENT_TOPIC_PREFIX.length);
        const { identity } = context;
        if (
          identity.kind === 'admin' ||
          identity.kind === 'service' ||
          (identity.kind === 'agent' && identity.agentId === agentId && agentId !== '*')
        )
          return ok();
        this.#logger.warn(
          { code: JOIN_ERRORS.forbiddenTopic, topic, identity: identity.kind },
          'agent join refused: identity may not listen on this topic',
        );
        return error({
          code: JOIN_ERRORS.forbiddenTopic,
          message: `this token may not join ${topic}`,
        } satisfies Refusal);
      },
      subscription: (topic, context) => {
        const { identity } = context;
        return identity.kind === 'agent' && identity.projectId
          ? projectAgentTopic(identity.projectId, identity.agentId)
          : topic;
      },
      handleIn: (event) =>
        error({
          code: PUSH_ERRORS.unknownEvent,
          message: `agent topics are server -> agent only; ${JSON.stringify(event).slice(0, 100)} ignored`,
        } satisfies Refusal),
    };
  }

  /**
   * Sends `event` to whoever listens on `agent:<agentId>` of `projectId`: the agent's own token
   * (bound to that project), admin and service sockets, and `agent:*` relays. Known events
   * are checked against their runner-protocol schema; a mismatch is a caller bug and throws.
   * Returns how many sockets on this node were listening.
   */
  notifyAgent(agentId: string, event: string, payload: unknown, projectId: string): number {
    const schema = (AGENT_EVENT_SCHEMAS as Record<string, z.ZodType | undefined>)[event];
    if (schema) {
      const parsed = schema.safeParse(payload);
      if (!parsed.success)
        throw new InvalidOutgoingPayloadError(
          `${event} payload does not match the agent protocol: ${z.prettifyError(parsed.error)}`,
        );
      payload = parsed.data;
    }
    const topic = agentTopic(agentId);
    const scoped = projectAgentTopic(projectId, agentId);
    const listening =
      this.#pubsub.localSubscriberCount(topic) +
      this.#pubsub.localSubscriberCount(scoped) +
      this.#pubsub.localSubscriberCount(ALL_AGENTS_TOPIC);
    this.#pubsub.broadcast({ topic, event, payload });
    this.#pubsub.broadcast({ topic: scoped, event, payload });
    this.#pubsub.broadcast({ topic: ALL_AGENTS_TOPIC, event, payload: { agentId, payload } satisfies AgentRelay });
    return listening;
  }
}
