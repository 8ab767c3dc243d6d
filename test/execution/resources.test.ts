import { describe, expect, it } from 'vitest';
import { DEFAULT_RESOURCE_LIMITS, minimumFromModuleMap, resolveResources } from '../../src/execution/resources.ts';

const limits = DEFAULT_RESOURCE_LIMITS;

describe('RN-683 container_start resources from module_map', () => {
  it('an empty module_map means the defaults are the minimum', () => {
    expect(minimumFromModuleMap({}, limits)).toEqual(limits.defaults);
  });

  it('the minimum is the sum of every module declaration when all modules declare', () => {
    const map = {
      api: { resources: { cpus: 0.5, memoryMb: 512, pids: 100 } },
      web: { resources: { cpus: 0.25, memoryMb: 256, pids: 50 } },
    };
    expect(minimumFromModuleMap(map, limits)).toEqual({ cpus: 0.75, memoryMb: 768, pids: 150 });
  });

  it('while any module declares nothing, the defaults are a lower bound', () => {
    const map = { api: { resources: { cpus: 0.5, memoryMb: 512, pids: 100 } }, web: {} };
    expect(minimumFromModuleMap(map, limits)).toEqual(limits.defaults);
    const big = { api: { resources: { cpus: 3, memoryMb: 4096, pids: 1000 } }, web: null };
    expect(minimumFromModuleMap(big, limits)).toEqual({ cpus: 3, memoryMb: 4096, pids: 1000 });
  });

  it('floors per field: a field every module declares is the plain sum, another falls back to the default', () => {
    const map = { api: { resources: { memoryMb: 300 } }, web: { resources: { memoryMb: 200, cpus: 2 } } };
    expect(minimumFromModuleMap(map, limits)).toEqual({ cpus: 2, memoryMb: 500, pids: limits.defaults.pids });
  });

  it('omitted fields (the handoff start omits every field) become the minimum', () => {
    const map = { api: { resources: { cpus: 2, memoryMb: 2048, pids: 600 } } };
    const result = resolveResources({}, map, limits);
    expect(result).toMatchObject({ ok: true, resources: { cpus: 2, memoryMb: 2048, pids: 600 }, capped: [] });
    expect(resolveResources(undefined, map, limits)).toMatchObject({ ok: true, resources: { cpus: 2 } });
  });

  it('a field below the minimum is resources_below_minimum naming the field and the minimum', () => {
    const map = { api: { resources: { cpus: 2, memoryMb: 2048, pids: 600 } } };
    const result = resolveResources({ memoryMb: 1024 }, map, limits);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe('resources_below_minimum');
    expect(result.message).toContain('2048');
    expect(result.message).toContain('memoryMb');
  });

  it('above the minimum the configured maxima apply (capped and reported)', () => {
    const result = resolveResources({ cpus: 64, memoryMb: 2048 }, {}, limits);
    expect(result).toMatchObject({
      ok: true,
      resources: { cpus: limits.maxima.cpus, memoryMb: 2048 },
      capped: ['cpus'],
    });
  });

  it.each([[{ cpus: -1 }], [{ memoryMb: 1.5 }], [{ pids: 'many' }], [{ cpus: Number.NaN }], [{ memoryMb: 0 }]])(
    'a malformed field %j is resource_limit_invalid, never a silent default',
    (requested) => {
      const result = resolveResources(requested as never, {}, limits);
      expect(result).toMatchObject({ ok: false, code: 'resource_limit_invalid' });
    },
  );
});
