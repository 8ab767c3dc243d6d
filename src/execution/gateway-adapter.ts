// Adapts the gateway's RunnerHub (gateway/) to the dispatcher's RunnerPort. On a cluster the
// directory (src/cluster) adds the runners connected to other nodes: connected means anywhere,
// and an action for a runner on another node is forwarded there.
import type { RunnerHub } from '../../gateway/index.ts';
import type { RunnerDirectory } from '../cluster/runner-directory.ts';
import type { RunnerPort } from './ports.ts';

export function runnerPortOf(hub: RunnerHub, directory: RunnerDirectory | null = null): RunnerPort {
  const local: RunnerPort = {
    isConnected: (projectId) => hub.isConnected(projectId),
    lastSeen: (projectId) => hub.lastSeen(projectId),
    execute: (projectId, execute) => hub.execute(projectId, execute),
    sandboxOf: (projectId) => hub.sandboxOf(projectId),
    onJoined(listener) {
      const handler = (info: { projectId: string }): void => listener(info.projectId);
      hub.on('runnerJoined', handler);
      return () => hub.off('runnerJoined', handler);
    },
    onLeft(listener) {
      const handler = (info: { projectId: string; reason: string }): void => listener(info.projectId, info.reason);
      hub.on('runnerLeft', handler);
      return () => hub.off('runnerLeft', handler);
    },
  };
  if (!directory) return local;
  return {
    ...local,
    isConnected: (projectId) => hub.isConnected(projectId) || directory.remoteHolder(projectId) !== null,
    locate: (projectId) => (hub.isConnected(projectId) ? { at: 'here' } : directory.remoteHolder(projectId)),
    forward: (nodeId, actionId) => directory.forward(nodeId, actionId),
    lastSeen: async (projectId) => (hub.isConnected(projectId) ? new Date() : directory.lastSeen(projectId)),
    onJoined(listener) {
      const offLocal = local.onJoined(listener);
      const offRemote = directory.onJoined(listener);
      return () => {
        offLocal();
        offRemote();
      };
    },
  };
}
