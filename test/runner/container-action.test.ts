// Use-case test of container actions against a recording fake of the ContainerBrokerPort (the real
// Docker path is covered in runner-docker.integration.test.ts).
import { describe, expect, it } from 'vitest';
import type { BrokerResult, ContainerBrokerPort, ContainerInfo, ContainerSpec } from '../../broker/port.ts';
import { DEFAULT_CONTAINER_RESOURCES, executeContainer } from '../../src/runner/container-action.ts';

function recordingBroker(answer: BrokerResult<ContainerInfo>) {
  const calls: Array<[string, unknown]> = [];
  const respond = async (name: string, arg: unknown) => {
    calls.push([name, arg]);
    return answer;
  };
  const broker: ContainerBrokerPort = {
    start: (spec: ContainerSpec) => respond('start', spec),
    stop: (projectId) => respond('stop', projectId),
    remove: (projectId) => respond('remove', projectId),
    inspect: (projectId) => respond('inspect', projectId),
    list: async () => ({ ok: true, value: [] }),
    exec: async () => ({ ok: false, failure: { code: 'broker_error', message: 'unused' } }),
  };
  return { broker, calls };
}

const running: BrokerResult<ContainerInfo> = {
  ok: true,
  value: { projectId: 'p', containerId: 'abcdef0123456789', state: 'running' },
};
const context = (broker: ContainerBrokerPort) => ({
  projectId: 'p',
  root: '/home/me/project',
  broker: async () => ({ ok: true as const, value: broker }),
});

describe('container actions on the user Docker (RN-497)', () => {
  it('container_start mounts the runner root and fills omitted resources with the defaults', async () => {
    const { broker, calls } = recordingBroker(running);
    const result = await executeContainer(
      { dispatchId: 'c1', attempt: 2, action: { type: 'container_start', resources: { cpus: 1 }, image: 'img:1' } },
      context(broker),
    );
    expect(calls).toEqual([
      [
        'start',
        {
          projectId: 'p',
          workspaceHostPath: '/home/me/project',
          image: 'img:1',
          resources: { ...DEFAULT_CONTAINER_RESOURCES, cpus: 1 },
        },
      ],
    ]);
    expect(result).toMatchObject({ dispatchId: 'c1', attempt: 2, status: 'executed', exitCode: 0 });
    expect(result.stdout).toContain('abcdef012345');
  });

  it('container_stop and container_remove address the runner project', async () => {
    const { broker, calls } = recordingBroker(running);
    await executeContainer({ dispatchId: 'c2', attempt: 1, action: { type: 'container_stop' } }, context(broker));
    await executeContainer({ dispatchId: 'c3', attempt: 1, action: { type: 'container_remove' } }, context(broker));
    expect(calls).toEqual([
      ['stop', 'p'],
      ['remove', 'p'],
    ]);
  });

  it('a broker failure is a failed result carrying the broker code and sentence', async () => {
    const { broker } = recordingBroker({
      ok: false,
      failure: { code: 'image_missing', message: 'image img:1 is not on this machine; build it first' },
    });
    const result = await executeContainer(
      { dispatchId: 'c4', attempt: 1, action: { type: 'container_start' } },
      context(broker),
    );
    expect(result).toEqual({
      dispatchId: 'c4',
      attempt: 1,
      status: 'failed',
      reason: { code: 'image_missing', message: 'image img:1 is not on this machine; build it first' },
    });
  });

  it('no broker (Docker unusable) is failed broker_unavailable; a throwing adapter is broker_error', async () => {
    const unavailable = await executeContainer(
      { dispatchId: 'c5', attempt: 1, action: { type: 'container_stop' } },
      {
        projectId: 'p',
        root: '/r',
        broker: async () => ({ ok: false, failure: { code: 'broker_unavailable', message: 'no docker' } }),
      },
    );
    expect(unavailable).toMatchObject({ status: 'failed', reason: { code: 'broker_unavailable' } });
    const throwing = {
      ...recordingBroker(running).broker,
      stop: async () => Promise.reject(new Error('socket hang up')),
    };
    const crashed = await executeContainer(
      { dispatchId: 'c6', attempt: 1, action: { type: 'container_stop' } },
      context(throwing),
    );
    expect(crashed).toMatchObject({
      status: 'failed',
      reason: { code: 'broker_error', message: expect.stringContaining('socket hang up') },
    });
  });
});
