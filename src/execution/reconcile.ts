// Start-up: bring project_containers in line with what the Docker engine actually has (the
// engine is the truth; a row may say `running` for a container that died with the host).
import type { DockerBroker } from '../../broker/index.ts';
import type { Logger } from '../logger.ts';
import type { ContainerLifecycle, Store } from '../store/types.ts';

export async function reconcileContainers(
  store: Store,
  broker: Pick<DockerBroker, 'reconcile'>,
  logger: Logger,
): Promise<number> {
  const rows = await store.read.containers.list();
  const expected: string[] = [];
  for (const row of rows) {
    const project = await store.read.projects.get(row.projectId);
    if (project?.executionMode === 'container') expected.push(row.projectId);
  }
  let listed;
  try {
    listed = await broker.reconcile(expected);
  } catch (error) {
    logger.error(
      { code: 'reconcile_failed', err: error },
      'could not reconcile containers with the Docker engine; the lifecycle table is left as it was',
    );
    return 0;
  }
  if (!listed.ok) {
    logger.warn(
      { code: listed.failure.code, detail: listed.failure.detail },
      `container reconciliation skipped: ${listed.failure.message}`,
    );
    return 0;
  }
  const byProject = new Map(rows.map((row) => [row.projectId, row]));
  const at = new Date().toISOString();
  let changed = 0;
  for (const info of listed.value) {
    const row = byProject.get(info.projectId);
    if (!row) {
      logger.warn(
        { code: 'unknown_container', projectId: info.projectId, containerId: info.containerId },
        'the engine has a managed container for a project this gateway does not know; left alone',
      );
      continue;
    }
    const state: ContainerLifecycle = info.state;
    // `failed` stays failed while the engine has nothing: it records the last start's outcome.
    if (state === 'absent' && (row.state === 'failed' || row.state === 'absent')) continue;
    if (row.state === state && row.containerId === info.containerId) continue;
    await store.transaction((tx) => tx.containers.setState(info.projectId, state, info.containerId, at));
    logger.info(
      { code: 'container_reconciled', projectId: info.projectId, from: row.state, to: state },
      'container lifecycle brought in line with the engine',
    );
    changed += 1;
  }
  return changed;
}
