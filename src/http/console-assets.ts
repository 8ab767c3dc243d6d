// Serves the console's built assets (`npm run build` -> dist/console) at `/`. Files are read once
// at start-up into memory (a few hundred KB): no file-system path is ever built from a request, so
// there is nothing to traverse. Hashed asset names are cached for a year; index.html never is.
// The files need a credential like every route but health, readiness and metrics: the console
// cookie (console-session.ts) or a bearer token; the authorization table has their rows. A strict
// CSP: own origin only, no inline script, no CDN, no external font.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, resolve, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PACKAGE_ROOT } from '../package-info.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.map': 'application/json',
};

export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self' ws: wss:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** Where the build puts the console, relative to the package root (src/http/ is two levels down). */
export const CONSOLE_DIST = resolve(PACKAGE_ROOT, 'dist/console');

interface Asset {
  body: Buffer;
  type: string;
  immutable: boolean;
}

export function loadConsoleAssets(dir: string = CONSOLE_DIST): Map<string, Asset> | null {
  if (!existsSync(join(dir, 'index.html'))) return null;
  const assets = new Map<string, Asset>();
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const url = `/${relative(dir, path).split(sep).join('/')}`;
        assets.set(url, {
          body: readFileSync(path),
          type: TYPES[extname(name)] ?? 'application/octet-stream',
          immutable: url.startsWith('/assets/'),
        });
      }
    }
  };
  walk(dir);
  return assets;
}

export function registerConsoleAssets(app: FastifyInstance, assets: Map<string, Asset> | null): void {
  const send = (url: string) => async (_request: unknown, reply: import('fastify').FastifyReply) => {
    const asset = assets?.get(url);
    if (!asset) {
      if (url === '/index.html') {
        return reply
          .code(503)
          .type('text/plain; charset=utf-8')
          .send(
            'The console is not built. Run `npm run build` (it writes dist/console), then restart `brabo serve`.\n',
          );
      }
      return reply.code(404).send({ error: 'not_found', message: `no console asset ${url}` });
    }
    void reply.header('content-type', asset.type);
    void reply.header('x-content-type-options', 'nosniff');
    void reply.header('cache-control', asset.immutable ? 'private, max-age=31536000, immutable' : 'private, no-cache');
    if (asset.type.startsWith('text/html')) {
      void reply.header('content-security-policy', CONSOLE_CSP);
      void reply.header('x-frame-options', 'DENY');
      void reply.header('referrer-policy', 'no-referrer');
    }
    return reply.send(asset.body);
  };
  app.get('/', { schema: { hide: true } }, send('/index.html'));
  app.get('/favicon.svg', { schema: { hide: true } }, send('/favicon.svg'));
  app.get<{ Params: { '*': string } }>('/assets/*', { schema: { hide: true } }, async (request, reply) =>
    send(`/assets/${request.params['*']}`)(request, reply),
  );
}
