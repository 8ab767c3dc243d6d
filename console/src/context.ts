// What every page gets: the API client and live socket of the logged-in token, who that is, and
// the projects it sees. Decisions carry the acting user: a human token's own member id (the
// gateway checks it), or — with the admin token, before human tokens — the name typed in the
// header's "acting as" box.
import type { Api, Me } from './api.ts';
import { toast } from './dom.ts';
import type { Live } from './live.ts';
import type { ProjectRow } from './types.ts';

export interface Ctx {
  api: Api;
  live: Live;
  me: Me;
  projects: ProjectRow[];
  refreshProjects(): Promise<void>;
  /** The member the console acts as; null (with a toast) when the admin has not named one. */
  actingUser(): string | null;
  navigate(hash: string): void;
}

export const ACTING_KEY = 'brabo.actingUser';
export const TOKEN_KEY = 'brabo.token';

export function actingUserOf(me: Me): string | null {
  if (me.kind === 'human') return me.userId;
  // admin / service tokens: the gateway lets them name the acting member.
  const named = sessionStorage.getItem(ACTING_KEY)?.trim() ?? '';
  if (named.length === 0) {
    toast('Type the member you act as in the "acting as" box first (the admin token names its acting user).', 'error');
    document.getElementById('acting-as')?.focus();
    return null;
  }
  return named;
}

export function projectName(ctx: Ctx, projectId: string): string {
  return ctx.projects.find((p) => p.id === projectId)?.name ?? projectId;
}
