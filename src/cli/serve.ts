// `brabo serve [--port 4000] [--host 127.0.0.1] [--data-dir ./.brabo] [--docker] [--container-image IMG]
//   [--runner-grace-ms N] [--delivery-timeout-ms N]`: HTTP API and the Phoenix socket on one port.
import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApp } from '../app.ts';
import { loadConfig, parsePositive } from '../config.ts';
import { CONSOLE_DIST } from '../http/console-assets.ts';
import { EXIT_USAGE, reportStartupFailure } from './startup-failure.ts';

export const SERVE_HELP = `Usage: brabo serve [options]

Runs the brabo gateway: the operator console (/, built by npm run build), the HTTP API (/api,
/docs, /healthz, /readyz, /metrics) and the Phoenix socket for runners and agents (/socket), on
one port. Flags win over variables, variables over the defaults.

Options:
  --port N                  TCP port (default 4000; 0 = any free port)          BRABO_PORT
  --host ADDR               listen address (default 127.0.0.1)                   BRABO_HOST
  --data-dir DIR            SQLite store and generated admin token (default ./.brabo)
                                                                                 BRABO_DATA_DIR
  --docker                  run container projects on this Docker engine         BRABO_DOCKER=1
  --container-image IMG     dev container image, never pulled (default brabo-dev:latest)
                                                                                 BRABO_CONTAINER_IMAGE
  --runner-grace-ms N       wait after a runner disconnects before runner_lost (default 10000)
                                                                                 BRABO_RUNNER_GRACE_MS
  --delivery-timeout-ms N   time for a runner to ack an execute (default 10000)  BRABO_DELIVERY_TIMEOUT_MS
  -h, --help                this text

Environment (see README "Configuration" for every variable):
  BRABO_ADMIN_TOKEN         admin bearer token, >= 16 characters (default: generated into the data dir)
  BRABO_DATABASE_URL        postgres://USER@HOST:5432/DB to keep the store in Postgres (default SQLite)
  BRABO_LOG_LEVEL           fatal|error|warn|info|debug|trace|silent (default info); JSON logs on stdout
  BRABO_PROJECT_WORKSPACES_ROOT, BRABO_PROJECTS_BASE, BRABO_GATEWAY_CHECKOUT   project folders
  BRABO_CONTAINER_USER, BRABO_DOCKER_LABELS, DOCKER_HOST                       the Docker broker
  BRABO_COMMAND_TIMEOUT_MS, BRABO_OUTPUT_CAP_BYTES, BRABO_PROPOSE_WAIT_MS,
  BRABO_RESUME_WAIT_MS, BRABO_RESOURCE_DEFAULT_*, BRABO_RESOURCE_MAX_*        execution limits
  BRABO_SERVICE_TOKENS=0, BRABO_METRICS_TOKEN, BRABO_AUTH_MAX_FAILURES,
  BRABO_TRUSTED_PROXIES                                                        credentials and limits
  BRABO_NODE_ID, BRABO_NODE_LEASE_MS, BRABO_NODE_HEARTBEAT_MS,
  BRABO_CLUSTER_POLL_MS, BRABO_PG_WRITERS, BRABO_PG_READERS                    several nodes on Postgres
  BRABO_DEBUG=1             print the stack trace of a start-up failure
  Old names still read, with a warning: HOST, PORT, LOG_LEVEL, DATABASE_URL, PROJECT_WORKSPACES_ROOT.

Exit codes: 0 stopped by SIGINT/SIGTERM, 1 start-up failure, 2 usage error.
`;

export async function run(argv: string[]): Promise<number> {
  let values: {
    port?: string;
    host?: string;
    'data-dir'?: string;
    docker?: boolean;
    'container-image'?: string;
    'runner-grace-ms'?: string;
    'delivery-timeout-ms'?: string;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'data-dir': { type: 'string' },
        docker: { type: 'boolean' },
        'container-image': { type: 'string' },
        'runner-grace-ms': { type: 'string' },
        'delivery-timeout-ms': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    process.stderr.write(`brabo serve: usage: ${(error as Error).message}; see brabo serve --help\n`);
    return EXIT_USAGE;
  }
  if (values.help) {
    process.stdout.write(SERVE_HELP);
    return 0;
  }
  let config;
  try {
    config = loadConfig({
      ...(values.port !== undefined ? { port: Number(values.port) } : {}),
      ...(values.host !== undefined ? { host: values.host } : {}),
      ...(values['data-dir'] !== undefined ? { dataDir: values['data-dir'] } : {}),
      ...(values.docker ? { docker: true } : {}),
      ...(values['container-image'] !== undefined ? { containerImage: values['container-image'] } : {}),
      ...(values['runner-grace-ms'] !== undefined
        ? { runnerGraceMs: parsePositive('--runner-grace-ms', values['runner-grace-ms']) }
        : {}),
      ...(values['delivery-timeout-ms'] !== undefined
        ? { deliveryTimeoutMs: parsePositive('--delivery-timeout-ms', values['delivery-timeout-ms']) }
        : {}),
    });
  } catch (error) {
    return reportStartupFailure('brabo serve', error);
  }
  // Printed once, before anything else can fail: the operator sees them whatever happens next.
  for (const warning of config.warnings ?? []) process.stderr.write(`brabo serve: warning: ${warning}\n`);
  const context = { host: config.host, port: config.port, dataDir: config.dataDir };
  let app: Awaited<ReturnType<typeof createApp>>;
  try {
    ensureWritableDir(config.dataDir);
    app = await createApp(config, { defaultMetrics: true });
  } catch (error) {
    // Every start-up failure is one sentence with a code and the next step (stack: BRABO_DEBUG=1).
    return reportStartupFailure('brabo serve', error, context);
  }
  try {
    const address = await app.http.listen({ port: config.port, host: config.host });
    await app.start();
    const admin = app.adminBootstrap;
    const adminLine =
      admin.source === 'generated'
        ? `admin token in ${admin.path} (mode 0600): written once; the server keeps only its hash and never reads the file again, so store it elsewhere and delete the file if you like`
        : admin.source === 'imported'
          ? `admin token in ${admin.path} registered as admin credential ${admin.credentialId} (hash only; the file is no longer read)`
          : admin.source === 'env'
            ? `admin token in BRABO_ADMIN_TOKEN (from the environment; admin credential ${admin.credentialId}, ${admin.usable} usable: brabo token list --kind admin)`
            : `admin token in the store (hashes only; ${admin.usable} usable admin credential(s): brabo token list --kind admin)`;
    const docker = config.execution?.docker.enabled
      ? `Docker broker on (image ${config.execution.docker.image})`
      : 'no Docker broker (BRABO_DOCKER unset)';
    process.stdout.write(
      `brabo serve: listening on ${address} (data dir ${config.dataDir}; store ${config.databaseUrl ? 'Postgres (BRABO_DATABASE_URL)' : 'SQLite'})\n` +
        `brabo serve: runner socket at ${address.replace(/^http/, 'ws')}/socket (${docker})\n` +
        (existsSync(join(CONSOLE_DIST, 'index.html'))
          ? `brabo serve: console at ${address}/ (log in with a human token: brabo token mint --kind human --member ID)\n`
          : `brabo serve: console not built: / answers 503 until \`npm run build\` writes dist/console (then restart)\n`) +
        `brabo serve: ${adminLine}\n`,
    );
  } catch (error) {
    await app.close().catch(() => {});
    return reportStartupFailure('brabo serve', error, context);
  }
  return new Promise<number>((resolve) => {
    const stop = (signal: string) => {
      app.logger.info({ signal }, 'shutting down');
      app.close().then(
        () => resolve(0),
        (error: unknown) => {
          app.logger.error({ err: error, code: 'shutdown_failed' }, 'error while shutting down');
          resolve(1);
        },
      );
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}

/** The data dir exists (created if needed) and this user can write it; throws the errno otherwise. */
function ensureWritableDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
  accessSync(dir, constants.W_OK | constants.X_OK);
}
