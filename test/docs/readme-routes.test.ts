// README's route table names every /api route the gateway registers (issue 15.7: the task routes
// were missing). A route counts as documented when README has its full path, or a row that has
// its parent path and its last segment (`…/deny` next to `/api/actions/:id/approve`).
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
const routesDir = resolve(ROOT, 'src/http/routes');

function registeredRoutes(): Array<[string, string]> {
  const routes: Array<[string, string]> = [];
  for (const file of readdirSync(routesDir).filter((name) => name.endsWith('.ts'))) {
    const text = readFileSync(resolve(routesDir, file), 'utf8');
    for (const match of text.matchAll(/app\.(get|post|put|delete)\(\s*'(\/api\/[^']+)'/g))
      routes.push([match[1]!.toUpperCase(), match[2]!]);
  }
  return routes;
}

function documented(path: string): boolean {
  if (readme.includes(path)) return true;
  const segments = path.split('/');
  const last = `/${segments[segments.length - 1]}`;
  const parent = segments.slice(0, -1).join('/');
  return readme.split('\n').some((line) => line.includes(last) && line.includes(parent));
}

describe('README route table', () => {
  const routes = registeredRoutes();
  it('finds the registered routes', () => {
    expect(routes.length).toBeGreaterThan(20);
  });
  it.each(routes)('documents %s %s', (_method, path) => {
    expect(documented(path), path).toBe(true);
  });
  it.each(['`POST /api/projects/:id/tasks`', '`GET /api/tasks/:id`'])('names the task route %s', (route) => {
    expect(readme).toContain(route);
  });
});
