// The live side of the gateway, wired in one place: live command output (LiveOutput, for SSE and
// `agent:<id>` `action.output`) and the console's per-project topic (ConsoleFeed). The app calls
// `wrapActions` (use cases announce their changes), `observer` (the dispatcher's output and
// settlements), `teeSink` (the runners' output pushes) and `attachGateway` once the socket exists.
import type { PubSub, RunnerGateway, RunnerSink } from '../../gateway/index.ts';
import { AGENT_EVENTS, type ActionOutput } from '../../runner-protocol/index.ts';
import type { Actions } from '../actions/index.ts';
import type { ExecutionObserver } from '../execution/ports.ts';
import type { Logger } from '../logger.ts';
import type { Store } from '../store/types.ts';
import { type CanWatch, ConsoleFeed } from './console-feed.ts';
import { LiveOutput, type OutputTarget } from './live-output.ts';
import { PubSubOutputRelay } from './output-relay.ts';
import type { ReviewDeps } from './review.ts';

export { CONSOLE_EVENTS, CONSOLE_TOPIC_PREFIX, consoleTopic, ConsoleFeed } from './console-feed.ts';
export { LiveOutput } from './live-output.ts';
export { reviewEntries } from './review.ts';
export type { ReviewEntry } from './review.ts';

export interface Live {
  output: LiveOutput;
  feed: ConsoleFeed;
  wrapActions(actions: Actions): Actions;
  observer: ExecutionObserver;
  teeSink(sink: RunnerSink): RunnerSink;
  attachGateway(gateway: RunnerGateway): void;
}

export function createLive(
  options: ReviewDeps & {
    store: Store;
    logger: Logger;
    capBytes: number;
    canWatch: CanWatch;
    /** The cluster's pub/sub: output seen on one node reaches the SSE viewers of every node. */
    pubsub?: PubSub;
  },
): Live {
  const { store, logger } = options;
  const relay = options.pubsub
    ? new PubSubOutputRelay(options.pubsub, logger.child({ component: 'live-output' }))
    : null;
  let gateway: RunnerGateway | null = null;
  const feed = new ConsoleFeed({ ...options, logger: logger.child({ component: 'console-feed' }) });
  const output = new LiveOutput({
    capBytes: options.capBytes,
    logger: logger.child({ component: 'live-output' }),
    ...(relay ? { relay } : {}),
    async resolveDispatch(dispatchId) {
      const dispatch = await store.read.dispatches.get(dispatchId);
      if (!dispatch) return null;
      const action = await store.read.actions.get(dispatch.actionId);
      if (!action) return null;
      return {
        target: { actionId: action.id, projectId: action.projectId, proposerId: action.proposerId },
        attempt: dispatch.attempt,
      };
    },
    publish(target: OutputTarget, chunk) {
      const payload: ActionOutput = {
        actionId: target.actionId,
        seq: chunk.seq,
        stream: chunk.stream,
        data: chunk.data,
      };
      gateway?.agents.notifyAgent(target.proposerId, AGENT_EVENTS.actionOutput, payload, target.projectId);
      feed.output(target.projectId, target.actionId, chunk);
    },
  });
  relay?.attach(output);
  const changed = (actionId: string): void => void feed.actionChanged(actionId);

  return {
    output,
    feed,
    wrapActions(actions) {
      return {
        ...actions,
        propose: async (input) => {
          const result = await actions.propose(input);
          changed(result.action.id);
          if (result.action.status === 'denied') output.settled(result.action.id, 'denied');
          return result;
        },
        approve: async (actionId, userId) => {
          const result = await actions.approve(actionId, userId);
          changed(actionId);
          return result;
        },
        approveAlways: async (actionId, userId) => {
          const result = await actions.approveAlways(actionId, userId);
          changed(actionId);
          if (result.patterns.length > 0 || result.autonomy)
            feed.projectChanged(result.action.projectId, result.autonomy ? 'autonomy' : 'permissions');
          return result;
        },
        deny: async (actionId, userId, reason) => {
          const result = await actions.deny(actionId, userId, reason);
          changed(actionId);
          if (result.action.status === 'denied') output.settled(actionId, 'denied');
          return result;
        },
        proposeContainerChange: async (projectId, userId, change) => {
          const result = await actions.proposeContainerChange(projectId, userId, change);
          changed(result.action.id);
          return result;
        },
        setMember: async (projectId, memberId, role, kind, actorId) => {
          const result = await actions.setMember(projectId, memberId, role, kind, actorId);
          feed.projectChanged(projectId, 'members');
          return result;
        },
        putPermissions: async (projectId, userId, raw) => {
          const result = await actions.putPermissions(projectId, userId, raw);
          feed.projectChanged(projectId, 'permissions');
          return result;
        },
        setAgentAutonomy: async (input) => {
          const result = await actions.setAgentAutonomy(input);
          feed.projectChanged(input.projectId, 'autonomy');
          return result;
        },
      };
    },
    observer: {
      output: (action, stream, chunk) =>
        output.brokerOutput(
          { actionId: action.id, projectId: action.projectId, proposerId: action.proposerId },
          stream,
          chunk,
        ),
      settled: (actionId, status) => {
        output.settled(actionId, status);
        changed(actionId);
      },
    },
    teeSink(sink) {
      return {
        onResult: (projectId, result) => sink.onResult(projectId, result),
        ...(sink.onOversizedResult ? { onOversizedResult: sink.onOversizedResult.bind(sink) } : {}),
        onOutput: async (projectId, chunk) => {
          const answer = await sink.onOutput?.(projectId, chunk);
          // Published only once the sink accepted it: output for another project's dispatch is refused (forbidden_dispatch).
          if (!answer || answer.ok) void output.runnerOutput(projectId, chunk);
          return answer;
        },
      };
    },
    attachGateway(attached) {
      gateway = attached;
      feed.attach((topic, event, payload) => attached.gateway.broadcast(topic, event, payload));
      attached.runners.on('runnerJoined', (info) => feed.runnerChanged(info.projectId, true));
      attached.runners.on('runnerLeft', (info) => feed.runnerChanged(info.projectId, false));
    },
  };
}
