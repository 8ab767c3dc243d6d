// The console's cookie: a page load cannot send a bearer header, so the console's static files
// also accept the person's token from an HttpOnly, SameSite=Strict cookie. `POST /console/session`
// (bearer, a human or service token) sets it to that same token; `DELETE` clears it. Only the
// static-file routes read it (table.ts `consoleCookie`), and they re-check the credential on every
// request, so revoking or expiring the token closes the console at the next load. Without a usable
// credential `/` answers 401 with a small self-contained login page (no app code).
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerOf } from './bearer.ts';

export const CONSOLE_COOKIE = 'brabo_console';

/** The console cookie's value, or null. Only the static-file routes call this. */
export function consoleCookieOf(header: string | undefined): string | null {
  if (typeof header !== 'string') return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== CONSOLE_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return value.length > 0 ? value : null;
  }
  return null;
}

const cookie = (request: FastifyRequest, value: string, extra: string[] = []): string =>
  [
    `${CONSOLE_COOKIE}=${value}`,
    'HttpOnly',
    'SameSite=Strict',
    'Path=/',
    ...(request.protocol === 'https' ? ['Secure'] : []),
    ...extra,
  ].join('; ');

export function registerConsoleSession(app: FastifyInstance): void {
  app.post('/console/session', { schema: { hide: true } }, async (request, reply) => {
    // The guard authenticated this bearer token and the table allowed its kind.
    const token = bearerOf(request.headers.authorization);
    if (token === null) throw new Error('POST /console/session runs behind the authorization guard');
    return reply.code(204).header('set-cookie', cookie(request, token)).send();
  });
  app.delete('/console/session', { schema: { hide: true } }, async (request, reply) =>
    reply
      .code(204)
      .header('set-cookie', cookie(request, '', ['Max-Age=0']))
      .send(),
  );
}

// The login page: inline, so it needs no file the cookie guards; its script and style are allowed
// by their hashes in its CSP (no 'unsafe-inline'). It sets the cookie, keeps the token for the app
// (sessionStorage, as the app's own login does) and reloads.
const LOGIN_STYLE =
  'body{font:16px system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#f6f7f9}' +
  'form{background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002;display:grid;gap:.75rem;width:22rem}' +
  'input{padding:.5rem;font:inherit}button{padding:.5rem;font:inherit}.error{color:#b00020;min-height:1.2em;margin:0}';
const LOGIN_SCRIPT =
  "document.getElementById('login').addEventListener('submit',async(e)=>{e.preventDefault();" +
  "const t=document.getElementById('token').value.trim();const out=document.getElementById('error');if(!t)return;" +
  "const r=await fetch('/console/session',{method:'POST',headers:{authorization:'Bearer '+t}});" +
  "if(r.ok){sessionStorage.setItem('brabo.token',t);location.reload();return;}" +
  "const b=await r.json().catch(()=>({}));out.textContent='This token was refused ('+(b.error||r.status)+')'+(b.message?': '+b.message:'.');});";

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

export const LOGIN_CSP = [
  "default-src 'none'",
  `script-src ${sha256(LOGIN_SCRIPT)}`,
  `style-src ${sha256(LOGIN_STYLE)}`,
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const LOGIN_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>brabo console: log in</title><style>${LOGIN_STYLE}</style></head>
<body><form id="login" class="login"><h1>brabo console</h1>
<label for="token">Your personal token (brabo token mint --kind human --member &lt;you&gt;)</label>
<input type="password" id="token" name="token" autocomplete="off" required>
<p id="error" class="error" role="alert"></p><button type="submit">Log in</button></form>
<script>${LOGIN_SCRIPT}</script></body></html>
`;

/** 401 for a console file without a usable credential: the login page for `/`, JSON otherwise. */
export function consoleUnauthorized(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: { code: string; message: string },
): FastifyReply {
  if (request.routeOptions.url !== '/')
    return reply.code(401).send({ error: answer.code, message: `${answer.message} (or log in to the console at /)` });
  return reply
    .code(401)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', LOGIN_CSP)
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .send(LOGIN_PAGE);
}
