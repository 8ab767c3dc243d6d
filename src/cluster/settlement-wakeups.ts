// Long-polls and POST /actions' bounded wait may sit on any node while the action settles on
// another: a local wake-up is also broadcast on the cluster, and every node wakes its own waiters.
// A wake-up only says "read again" (the store is the truth), so a lost one costs the poll's timeout.
import type { BroadcastMessage, Subscriber } from '../../gateway/pubsub.ts';
import { SettlementWaiters } from '../agents/waiters.ts';
import type { ClusterPubSub } from './postgres-pubsub.ts';

export const SETTLED_TOPIC = 'cluster:settled';

export class ClusterSettlementWaiters extends SettlementWaiters implements Subscriber {
  readonly #pubsub: ClusterPubSub;

  constructor(pubsub: ClusterPubSub) {
    super();
    this.#pubsub = pubsub;
    pubsub.subscribe(SETTLED_TOPIC, this);
  }

  override wake(actionId: string): void {
    super.wake(actionId);
    this.#pubsub.broadcast({ topic: SETTLED_TOPIC, event: 'wake', payload: { actionId }, from: this });
  }

  deliver(message: BroadcastMessage): void {
    const actionId = (message.payload as { actionId?: unknown } | null)?.actionId;
    if (typeof actionId === 'string') super.wake(actionId);
  }

  close(): void {
    this.#pubsub.unsubscribe(SETTLED_TOPIC, this);
  }
}
