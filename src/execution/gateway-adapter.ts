// Adapts the gateway's RunnerHub (gateway/) to the dispatcher's RunnerPort.
import type { RunnerHub } from '../../gateway/index.ts';
import type { RunnerPort } from './ports.ts';

export function runnerPortOf(hub: RunnerHub): RunnerPort {
  return {
    isConnected: (projectId) => hub.isConnected(projectId),
    lastSeen: (projectId) => hub.lastSeen(projectId),
    execute: (projectId, execute) => hub.execute(projectId, execute),
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
}
