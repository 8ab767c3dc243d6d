// Public API of the gateway. `createRunnerGateway` wires the endpoint with the runner and agent
// channels; `createGateway` is the bare Phoenix Channels endpoint for other channel modules.
import pino, { type Logger } from 'pino';
import type { Server } from 'node:http';
import { AgentNotifier } from './agent-channel.ts';
import type { SocketAuthenticator, SocketIdentity } from './auth.ts';
import { error, type ChannelModule } from './channel.ts';
import { createGateway, type ChannelRoute, type Gateway, type GatewayOptions } from './endpoint.ts';
import { LocalPresence, type PresenceTracker } from './presence.ts';
import { LocalPubSub, type PubSub } from './pubsub.ts';
import { RunnerHub, type RunnerSessions, type RunnerSink } from './runner-hub.ts';

export * from './auth.ts';
export { ChannelServer, CHANNEL_EVENTS, error, ok } from './channel.ts';
export type { ChannelContext, ChannelModule, Reply, TerminateReason } from './channel.ts';
export { createGateway } from './endpoint.ts';
export type { ChannelRoute, DisconnectOptions, Gateway, GatewayOptions } from './endpoint.ts';
export {
  CLOSE_CODES,
  InvalidOutgoingPayloadError,
  MalformedFrameError,
  PROTOCOL_REASONS,
  UnencodableMessageError,
} from './errors.ts';
export { LocalPresence, PRESENCE_EVENTS } from './presence.ts';
export type { PresenceMeta, PresenceState, PresenceTracker } from './presence.ts';
export { LocalPubSub } from './pubsub.ts';
export type { BroadcastMessage, PubSub, Subscriber } from './pubsub.ts';
export { RunnerHub } from './runner-hub.ts';
export type {
  DeliveryOutcome,
  RunnerHubEvents,
  RunnerInfo,
  RunnerReporter,
  RunnerSessions,
  RunnerSink,
  SinkAnswer,
} from './runner-hub.ts';
export { AgentNotifier } from './agent-channel.ts';

export interface RunnerGateway {
  gateway: Gateway;
  runners: RunnerHub;
  agents: AgentNotifier;
}

/** The product's socket: `runner:*` (RunnerHub), `agent:*` (AgentNotifier), plus any extra routes. */
export function createRunnerGateway(
  options: {
    server: Server;
    authenticate: SocketAuthenticator;
    logger?: Logger;
    pubsub?: PubSub;
    presence?: PresenceTracker;
    sink?: RunnerSink;
    /** The cluster-wide one-runner-per-project lock; without it the check is this node's. */
    sessions?: RunnerSessions;
    deliveryTimeoutMs?: number;
    extraChannels?: ChannelRoute[];
    /**
     * Checked before every channel's own join: a refusal (`{code, message}`) is the join's error
     * reply. The product passes its authorization table here (src/auth/socket.ts).
     */
    authorizeJoin?: JoinAuthorizer;
  } & Pick<
    GatewayOptions,
    'path' | 'maxFrameBytes' | 'idleTimeoutMs' | 'maxChannelsPerSocket' | 'maxPendingMessages' | 'checkOrigin'
  >,
): RunnerGateway {
  const logger = options.logger ?? pino({ name: 'gateway' });
  const pubsub = options.pubsub ?? new LocalPubSub();
  const presence = options.presence ?? new LocalPresence(pubsub);
  const runners = new RunnerHub({
    presence,
    pubsub,
    logger,
    ...(options.sink ? { sink: options.sink } : {}),
    ...(options.sessions ? { sessions: options.sessions } : {}),
    ...(options.deliveryTimeoutMs ? { deliveryTimeoutMs: options.deliveryTimeoutMs } : {}),
  });
  const agents = new AgentNotifier({ pubsub, logger });
  const {
    sink: _sink,
    sessions: _sessions,
    deliveryTimeoutMs: _timeout,
    extraChannels = [],
    authorizeJoin,
    ...endpoint
  } = options;
  const guard = (route: ChannelRoute): ChannelRoute =>
    authorizeJoin ? { topic: route.topic, module: guardedModule(route.module, authorizeJoin, logger) } : route;
  const gateway = createGateway({
    ...endpoint,
    logger,
    pubsub,
    presence,
    channels: [
      { topic: 'runner:*', module: runners.channel },
      { topic: 'agent:*', module: agents.channel },
      ...extraChannels,
    ].map(guard),
  });
  return { gateway, runners, agents };
}

export type JoinAuthorizer = (
  identity: SocketIdentity,
  topic: string,
) => Promise<{ code: string; message: string } | null> | { code: string; message: string } | null;

/**
 * Every optional callback of a ChannelModule, forwarded by the join guard as the module's own. The
 * check below stops the build when ChannelModule gains a callback this list lacks: a dropped one
 * once cost the runner topic its immediate acks and its named result_too_large answer whenever
 * joins were authorized (every real server).
 */
const FORWARDED_CALLBACKS = [
  'subscription',
  'afterJoin',
  'handleIn',
  'acceptsOversized',
  'handleOversized',
  'immediate',
  'terminate',
] as const satisfies ReadonlyArray<Exclude<keyof ChannelModule, 'join'>>;
type UnforwardedCallback = Exclude<keyof ChannelModule, 'join' | (typeof FORWARDED_CALLBACKS)[number]>;
const everyCallbackForwarded: [UnforwardedCallback] extends [never] ? true : UnforwardedCallback = true;
void everyCallbackForwarded;

/** The module with `authorize` checked first; its other callbacks are the module's own (bound to it). */
function guardedModule(module: ChannelModule, authorize: JoinAuthorizer, logger: Logger): ChannelModule {
  const forwarded: Partial<Record<(typeof FORWARDED_CALLBACKS)[number], unknown>> = {};
  for (const key of FORWARDED_CALLBACKS) {
    const callback = module[key] as ((...args: never[]) => unknown) | undefined;
    if (callback) forwarded[key] = callback.bind(module);
  }
  return {
    ...(forwarded as Omit<ChannelModule, 'join'>),
    async join(topic, payload, context) {
      const refusal = await authorize(context.identity, topic);
      if (refusal) {
        logger.warn(
          { code: refusal.code, topic, identity: context.identity.kind },
          'join refused by the authorization table',
        );
        return error(refusal);
      }
      return module.join(topic, payload, context);
    },
  };
}
