// Resolution of a container_start's resources (RN-683). Execution, not policy: decide() and who
// may approve never look at this. Pure.

export const RESOURCE_FIELDS = ['cpus', 'memoryMb', 'pids'] as const;
export type ResourceField = (typeof RESOURCE_FIELDS)[number];
export type Resources = Record<ResourceField, number>;

/** What one module of the project's module_map declares it needs (any field may be missing). */
export interface ModuleDeclaration {
  resources?: Partial<Resources> | null;
}
export type ModuleMap = Readonly<Record<string, ModuleDeclaration | null | undefined>>;

export interface ResourceLimits {
  /** Today's defaults: the lower bound while any module still declares nothing. */
  defaults: Resources;
  /** The configured maxima ("the usual caps"). */
  maxima: Resources;
}

export const DEFAULT_RESOURCE_LIMITS: ResourceLimits = {
  defaults: { cpus: 1, memoryMb: 1024, pids: 512 },
  maxima: { cpus: 4, memoryMb: 8192, pids: 4096 },
};

export type ResourceResolution =
  | { ok: true; resources: Resources; minimum: Resources; capped: ResourceField[] }
  | { ok: false; code: 'resources_below_minimum' | 'resource_limit_invalid'; message: string; minimum: Resources };

const UNITS: Record<ResourceField, string> = { cpus: 'CPUs', memoryMb: 'MiB of memory', pids: 'processes' };

const isPositiveNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;

/**
 * The minimum per field: the sum of each module's declaration, floored at the default while any
 * module declares nothing for that field (an empty module_map is "nothing declared").
 */
export function minimumFromModuleMap(
  moduleMap: ModuleMap,
  limits: ResourceLimits = DEFAULT_RESOURCE_LIMITS,
): Resources {
  const modules = Object.values(moduleMap);
  const minimum = { ...limits.defaults };
  for (const field of RESOURCE_FIELDS) {
    let sum = 0;
    let someUndeclared = modules.length === 0;
    for (const module of modules) {
      const declared = module?.resources?.[field];
      if (isPositiveNumber(declared)) sum += declared;
      else someUndeclared = true;
    }
    minimum[field] = someUndeclared ? Math.max(sum, limits.defaults[field]) : sum;
  }
  return minimum;
}

/**
 * Omitted fields become the minimum; a field below the minimum fails before any image decision or
 * lifecycle transition; above it the configured maxima apply (the value is capped, and reported).
 */
export function resolveResources(
  requested: Partial<Record<ResourceField, unknown>> | null | undefined,
  moduleMap: ModuleMap,
  limits: ResourceLimits = DEFAULT_RESOURCE_LIMITS,
): ResourceResolution {
  const minimum = minimumFromModuleMap(moduleMap, limits);
  const resources = { ...minimum };
  const capped: ResourceField[] = [];
  for (const field of RESOURCE_FIELDS) {
    const value = requested?.[field];
    if (value === undefined || value === null) continue;
    if (!isPositiveNumber(value) || (field !== 'cpus' && !Number.isInteger(value))) {
      return {
        ok: false,
        code: 'resource_limit_invalid',
        minimum,
        message: `container_start asked for ${field}=${JSON.stringify(value)}, which is not a positive ${field === 'cpus' ? 'number' : 'integer'}; omit the field to use the minimum (${minimum[field]} ${UNITS[field]}).`,
      };
    }
    if (value < minimum[field]) {
      return {
        ok: false,
        code: 'resources_below_minimum',
        minimum,
        message: `container_start asked for ${value} ${UNITS[field]} but the project's module_map needs at least ${minimum[field]}; raise ${field} to ${minimum[field]} or omit it to use the minimum.`,
      };
    }
    resources[field] = value;
  }
  for (const field of RESOURCE_FIELDS) {
    if (resources[field] > limits.maxima[field]) {
      resources[field] = limits.maxima[field];
      capped.push(field);
    }
  }
  return { ok: true, resources, minimum, capped };
}
