// `brabo serve [--port 4000] [--host 127.0.0.1] [--data-dir ./.brabo]`
import { parseArgs } from 'node:util';
import { createApp } from '../app.ts';
import { ConfigError, loadConfig } from '../config.ts';

const USAGE = 'usage: brabo serve [--port 4000] [--host 127.0.0.1] [--data-dir ./.brabo]';

export async function run(argv: string[]): Promise<number> {
  let values: { port?: string; host?: string; 'data-dir'?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { port: { type: 'string' }, host: { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
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
    });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`brabo serve: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const app = await createApp(config, { defaultMetrics: true });
  try {
    const address = await app.http.listen({ port: config.port, host: config.host });
    const where = app.adminToken.source === 'env' ? 'BRABO_ADMIN_TOKEN (from the environment)' : `${app.adminToken.path} (mode 0600)`;
    process.stdout.write(`brabo serve: listening on ${address} (data dir ${config.dataDir})\nbrabo serve: admin token in ${where}\n`);
  } catch (error) {
    app.logger.error({ err: error, code: 'listen_failed', host: config.host, port: config.port }, 'could not listen; is the port in use?');
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
