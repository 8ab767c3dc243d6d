// One structured logger for the process (pino). Secrets are redacted by path so a careless log
// call cannot leak a token.
import { pino, type Logger } from 'pino';

export type { Logger };

export const REDACTED_PATHS = [
  'token',
  '*.token',
  'adminToken',
  '*.adminToken',
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
];

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    { level, base: { service: 'brabo-gateway' }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } },
    destination as pino.DestinationStream | undefined,
  );
}
