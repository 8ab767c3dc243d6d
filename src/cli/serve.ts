// `brabo serve [--port 4000] [--host 127.0.0.1] [--data-dir ./.brabo] [--docker] [--container-image IMG]
//   [--runner-grace-ms N] [--delivery-timeout-ms N]`: HTTP API and the Phoenix socket on one port.
import { parseArgs } from 'node:util';
import { createApp } from '../app.ts';
import { ConfigError, loadConfig, parsePositive } from '../config.ts';
import { StoreCorruptError } from '../store/errors.ts';
import { ClusterConfigError } from '../cluster/config.ts';
import { StorePoolConfigError } from '../store/index.ts';
import { PostgresStartError, PostgresUnreachableError } from '../store/postgres/errors.ts';

const USAGE =
  'usage: brabo serve [--port 4000] [--host 127.0.0.1] [--data-dir ./.brabo] [--docker] [--container-image IMG] [--runner-grace-ms N] [--delivery-timeout-ms N]';

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
    process.stderr.write(`brabo serve: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
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
      ...(values['runner-grace-ms'] !== undefined ? { runnerGraceMs: parsePositive('--runner-grace-ms', values['runner-grace-ms']) } : {}),
      ...(values['delivery-timeout-ms'] !== undefined ? { deliveryTimeoutMs: parsePositive('--delivery-timeout-ms', values['delivery-timeout-ms']) } : {}),
    });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`brabo serve: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  let app: Awaited<ReturnType<typeof createApp>>;
  try {
    app = await createApp(config, { defaultMetrics: true });
  } catch (error) {
    // A named start-up failure (store unreachable, migration refused, ...) is one sentence for the
    // operator, not a stack trace; anything unnamed is a bug and keeps its stack.
    if (
      error instanceof PostgresUnreachableError ||
      error instanceof PostgresStartError ||
      error instanceof StoreCorruptError ||
      error instanceof ClusterConfigError ||
      error instanceof StorePoolConfigError
    ) {
      process.stderr.write(`brabo serve: ${error.code}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  try {
    const address = await app.http.listen({ port: config.port, host: config.host });
    await app.start();
    const where = app.adminToken.source === 'env' ? 'BRABO_ADMIN_TOKEN (from the environment)' : `${app.adminToken.path} (mode 0600)`;
    const docker = config.execution?.docker.enabled ? `Docker broker on (image ${config.execution.docker.image})` : 'no Docker broker (BRABO_DOCKER unset)';
    process.stdout.write(
      `brabo serve: listening on ${address} (data dir ${config.dataDir}; store ${config.databaseUrl ? 'Postgres (DATABASE_URL)' : 'SQLite'})\n` +
        `brabo serve: runner socket at ${address.replace(/^http/, 'ws')}/socket (${docker})\n` +
        `brabo serve: admin token in ${where}\n`,
    );
  } catch (error) {
    app.logger.error({ err: error, code: 'listen_failed', host: config.host, port: config.port }, 'could not listen or start execution; is the port in use?');
    await app.close();
    return 1;
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
