// Readiness (/readyz): can this node serve right now? It asks each part it depends on (the
// store, and the Docker engine when the broker is on) and names the part that failed, so an
// orchestrator stops routing to a node whose database went away and an operator sees why.
import type { BrokerResult } from '../../broker/port.ts';
import type { Store } from '../store/types.ts';

export interface ReadinessCheck {
  name: string;
  ok: boolean;
  /** Present when not ok: a wire code and an actionable sentence. */
  code?: string;
  message?: string;
}

export interface ReadinessReport {
  status: 'ready' | 'not_ready';
  checks: ReadinessCheck[];
}

export interface ReadinessDeps {
  store: Pick<Store, 'read'>;
  /** The broker's list() when the Docker broker is enabled; null when it is off. */
  docker: (() => Promise<BrokerResult<unknown>>) | null;
  /** A part that takes longer than this is not ready (default 2000 ms). */
  timeoutMs?: number;
}

const PROBE_ID = '00000000-0000-0000-0000-00000000readyz';

class ProbeTimeout extends Error {}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function createReadiness(deps: ReadinessDeps): () => Promise<ReadinessReport> {
  const timeoutMs = deps.timeoutMs ?? 2_000;
  const store = async (): Promise<ReadinessCheck> => {
    try {
      await within(deps.store.read.projects.get(PROBE_ID), timeoutMs);
      return { name: 'store', ok: true };
    } catch (error) {
      if (error instanceof ProbeTimeout) {
        return {
          name: 'store',
          ok: false,
          code: 'store_timeout',
          message: `the store did not answer a read within ${timeoutMs} ms; check the database server and its connections`,
        };
      }
      const code =
        typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : 'store_unavailable';
      return {
        name: 'store',
        ok: false,
        code,
        message: `the store failed a read (${(error as Error).message}); check the database (DATABASE_URL) or the data dir`,
      };
    }
  };
  const docker = async (probe: () => Promise<BrokerResult<unknown>>): Promise<ReadinessCheck> => {
    try {
      const result = await within(probe(), timeoutMs);
      if (result.ok) return { name: 'docker', ok: true };
      return { name: 'docker', ok: false, code: result.failure.code, message: result.failure.message };
    } catch (error) {
      const message =
        error instanceof ProbeTimeout
          ? `the Docker engine did not answer within ${timeoutMs} ms`
          : (error as Error).message;
      return {
        name: 'docker',
        ok: false,
        code: 'broker_unavailable',
        message: `${message}; check that dockerd runs and DOCKER_HOST points at it`,
      };
    }
  };
  return async () => {
    const checks = await Promise.all([store(), ...(deps.docker ? [docker(deps.docker)] : [])]);
    return { status: checks.every((check) => check.ok) ? 'ready' : 'not_ready', checks };
  };
}
