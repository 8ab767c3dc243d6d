// Create options, hardening defaults, resource validation and error classification (unit).
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { resolveConfig } from '../../broker/config.ts';
import { containerName, createOptions, labelFilters, validateResources } from '../../broker/container-spec.ts';
import { classifyDockerError } from '../../broker/failures.ts';

const config = resolveConfig({ defaultImage: 'img:1', labels: { team: 'a' }, logger: pino({ level: 'silent' }) }, {});

describe('container spec', () => {
  const options = createOptions(
    config,
    {
      projectId: 'p-1',
      workspaceHostPath: '/srv/ws/p-1',
      resources: { cpus: 1.5, memoryMb: 64, pids: 128 },
    },
    [],
  );

  it('is hardened by default: no capabilities, no-new-privileges, non-root, init', () => {
    expect(options.User).toBe('1000:1000');
    expect(options.HostConfig?.CapDrop).toEqual(['ALL']);
    expect(options.HostConfig?.CapAdd).toEqual([]);
    expect(options.HostConfig?.SecurityOpt).toEqual(['no-new-privileges']);
    expect(options.HostConfig?.Init).toBe(true);
  });

  it('mounts the project folder at /work with a Mounts bind (never Binds, which creates folders)', () => {
    expect(options.HostConfig?.Mounts).toEqual([
      { Type: 'bind', Source: '/srv/ws/p-1', Target: '/work', ReadOnly: false },
    ]);
    expect(options.HostConfig?.Binds).toBeUndefined();
  });

  it('limits CPUs, memory with swap equal to memory, and pids', () => {
    expect(options.HostConfig?.NanoCpus).toBe(1_500_000_000);
    expect(options.HostConfig?.Memory).toBe(64 * 1024 * 1024);
    expect(options.HostConfig?.MemorySwap).toBe(64 * 1024 * 1024);
    expect(options.HostConfig?.PidsLimit).toBe(128);
  });

  it('labels the container with the project and the broker scope', () => {
    expect(options.Labels).toEqual({ team: 'a', 'brabo.managed': 'true', 'brabo.project': 'p-1' });
    expect(labelFilters(config, 'p-1')).toEqual(['team=a', 'brabo.managed=true', 'brabo.project=p-1']);
    expect(options.Image).toBe('img:1');
  });

  it('derives a deterministic, Docker-valid name even from an odd project id', () => {
    expect(containerName(config, 'p-1')).toBe('brabo-p-1');
    const odd = containerName(config, 'Ünïcode/id with spaces');
    expect(odd).toMatch(/^[a-zA-Z0-9][a-zA-Z0-9_.-]+$/);
    expect(containerName(config, 'Ünïcode/id with spaces')).toBe(odd);
    expect(containerName(config, 'Ünïcode/id with spaces!')).not.toBe(odd);
  });

  it.each([
    [{ cpus: 0, memoryMb: 64, pids: 64 }, 'cpus'],
    [{ cpus: Number.NaN, memoryMb: 64, pids: 64 }, 'cpus'],
    [{ cpus: 1, memoryMb: 4, pids: 64 }, 'memoryMb'],
    [{ cpus: 1, memoryMb: 64.5, pids: 64 }, 'memoryMb'],
    [{ cpus: 1, memoryMb: 64, pids: 0 }, 'pids'],
  ])('refuses invalid resources %j as resource_limit_invalid on %s', (resources, field) => {
    const failure = validateResources(resources);
    expect(failure?.code).toBe('resource_limit_invalid');
    expect(failure?.detail?.field).toBe(field);
  });
});

describe('classifyDockerError', () => {
  const context = {
    endpoint: 'unix:///x.sock',
    action: 'create the container',
    image: 'img:1',
    workspaceHostPath: '/srv/ws',
  };

  it('maps socket errors to broker_unavailable with the endpoint and errno', () => {
    const error = Object.assign(new Error('connect ENOENT /x.sock'), { code: 'ENOENT', errno: -2 });
    const failure = classifyDockerError(error, context);
    expect(failure.code).toBe('broker_unavailable');
    expect(failure.message).toContain('unix:///x.sock');
    expect(failure.message).toContain('ENOENT');
  });

  it('maps engine answers by status and text', () => {
    const http = (statusCode: number, message: string) =>
      Object.assign(new Error('x'), { statusCode, json: { message } });
    expect(classifyDockerError(http(404, 'No such image: img:1'), context).code).toBe('image_missing');
    expect(
      classifyDockerError(
        http(400, 'invalid mount config for type "bind": bind source path does not exist: /srv/ws'),
        context,
      ).code,
    ).toBe('workspace_missing');
    expect(
      classifyDockerError(http(400, 'Range of CPUs is from 0.01 to 2.00, as there are only 2 CPUs available'), context)
        .code,
    ).toBe('resource_limit_invalid');
    const other = classifyDockerError(http(500, 'something broke'), context);
    expect(other.code).toBe('broker_error');
    expect(other.message).toContain('something broke');
  });
});
