// Runtime configuration: CLI flags over environment over defaults. Everything a deployment can
// change lives here, resolved once at start.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface AppConfig {
  host: string;
  port: number;
  /** Where the SQLite file and the generated admin token live. */
  dataDir: string;
  /** BRABO_ADMIN_TOKEN; when absent a token is generated at first start into the data dir. */
  adminToken: string | null;
  /** PROJECT_WORKSPACES_ROOT: parent of container projects' folders. */
  projectWorkspacesRoot: string;
  /** BRABO_PROJECTS_BASE: parent of mounted projects' folders. */
  projectsBase: string;
  /** The gateway's own checkout; a runner root may never overlap it (RN-170). */
  gatewayCheckout: string;
  logLevel: string;
}

export interface ConfigOverrides {
  host?: string;
  port?: number;
  dataDir?: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly code = 'config_invalid';
}

/** The repository root this code runs from (src/config.ts -> ..). */
export const GATEWAY_CHECKOUT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function loadConfig(overrides: ConfigOverrides = {}, env: NodeJS.ProcessEnv = process.env): AppConfig {
  const dataDir = resolve(overrides.dataDir ?? env.BRABO_DATA_DIR ?? './.brabo');
  const port = overrides.port ?? (env.PORT ? Number(env.PORT) : 4000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`port ${String(port)} is not a TCP port (0-65535); pass --port N`);
  }
  const adminToken = env.BRABO_ADMIN_TOKEN && env.BRABO_ADMIN_TOKEN.length > 0 ? env.BRABO_ADMIN_TOKEN : null;
  if (adminToken !== null && adminToken.length < 16) {
    throw new ConfigError('BRABO_ADMIN_TOKEN is shorter than 16 characters; use a long random value or unset it to have one generated');
  }
  return {
    host: overrides.host ?? env.HOST ?? '127.0.0.1',
    port,
    dataDir,
    adminToken,
    projectWorkspacesRoot: resolve(env.PROJECT_WORKSPACES_ROOT ?? join(dataDir, 'workspaces')),
    projectsBase: resolve(env.BRABO_PROJECTS_BASE ?? join(dataDir, 'projects')),
    gatewayCheckout: resolve(env.BRABO_GATEWAY_CHECKOUT ?? GATEWAY_CHECKOUT),
    logLevel: env.LOG_LEVEL ?? 'info',
  };
}
