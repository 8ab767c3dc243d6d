// Materialization of a mounted project's folder (RN-501): mkdir -p under BRABO_PROJECTS_BASE and a
// write probe, before any lifecycle transition. A failure names the variable, the path, the likely
// cause and the next step, so an operator can fix the host without reading code.
import { mkdir, open, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

export type MaterializeResult =
  | { ok: true; path: string; verifiedAt: Date }
  | { ok: false; code: 'workspace_not_writable'; message: string; detail: { path: string; errno?: string } };

export interface MaterializeOptions {
  /** Value of BRABO_PROJECTS_BASE, for the message. */
  base: string;
  /** The project's folder (inside base). */
  folder: string;
  now?: () => Date;
  /** The uid the project's image runs as, for the message (ADR 0024: non-root). */
  imageUser?: string;
}

export async function materializeWorkspace(options: MaterializeOptions): Promise<MaterializeResult> {
  const folder = path.resolve(options.folder);
  const probe = path.join(folder, `.brabo-write-probe-${randomBytes(6).toString('hex')}`);
  let stage = 'create';
  try {
    await mkdir(folder, { recursive: true });
    stage = 'write';
    const handle = await open(probe, 'wx', 0o600);
    try {
      await handle.writeFile('probe');
      await handle.sync();
    } finally {
      await handle.close();
    }
    stage = 'remove';
    await rm(probe);
    return { ok: true, path: folder, verifiedAt: (options.now ?? (() => new Date()))() };
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).code;
    await rm(probe, { force: true }).catch(() => undefined);
    const action = stage === 'create' ? 'create' : stage === 'write' ? 'write into' : 'remove a probe file from';
    return {
      ok: false,
      code: 'workspace_not_writable',
      detail: { path: folder, ...(errno ? { errno } : {}) },
      message:
        `BRABO_PROJECTS_BASE=${options.base}: the server could not ${action} the project folder ${folder}` +
        `${errno ? ` (${errno})` : ''}. Likely cause: the folder (or ${options.base}) on the host is owned by ` +
        `another user, and the server and the project image run as non-root` +
        `${options.imageUser ? ` (${options.imageUser})` : ''}. Next step: on the host, give that user write ` +
        `access (e.g. chown -R <uid>:<gid> ${folder}) or point BRABO_PROJECTS_BASE at a writable folder, then start the container again.`,
    };
  }
}
