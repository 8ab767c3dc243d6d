// Execution targets: where a claimed dispatch runs. `container` projects run on the Docker broker
// (BrokerTarget), `mounted` / `runner` projects on the runner connected for the project, on
// whichever node holds its socket (RunnerTarget). The dispatcher does what is common (plan,
// resources, claim transaction, crash handling) and asks the target the rest; adding a target
// (another node's broker, a remote executor) means implementing this, not threading a flag.
import type { Dispatch, Project, ProposedAction } from '../store/types.ts';
import type { ExecutionOutcome } from './outcome.ts';
import type { ExecutionPlan } from './plan.ts';
import type { Resources } from './resources.ts';

/** How the claim records the dispatch: its state once claimed, the target label, the lease (from the claim's time). */
export interface ClaimShape {
  to: 'sent' | 'running';
  target: string;
  leaseMs: number | null;
}

export interface Claimed<H> {
  claim: Dispatch;
  previousContainerId: string | null;
  handedOff: H;
}

/** Runs the claim transaction; `handOff` runs inside it once the claim has won, before the commit. */
export type Claimer = <H>(shape: ClaimShape, handOff: (claim: Dispatch) => H) => Promise<Claimed<H> | null>;

/** What #run knows once the action is planned, and how far it got (for its crash handler). */
export interface TargetJob {
  dispatch: Dispatch;
  action: ProposedAction;
  project: Project;
  plan: Exclude<ExecutionPlan, { kind: 'elsewhere' }>;
  scopeRoot: string;
  resources: Resources | null;
  mode: 'live' | 'resume';
  progress: { claim: Dispatch | null; sent: boolean; forwarded: boolean };
}

/** What a target may do instead of running now; each ends the dispatcher's handling of the job. */
export interface TargetControls {
  /** Nothing here can run it: the dispatch stays queued for another executor. */
  park(reason: { code: string; message: string }): void;
  /** Wait for the project's runner to (re)connect, then dispatch again. */
  awaitRunner(): void;
  /** A pre-claim failure (fenced on `queued`). */
  fail(outcome: ExecutionOutcome): Promise<boolean>;
}

export interface ExecutionTarget {
  readonly name: 'broker' | 'runner';
  /** True to go on and claim; false when the target parked, forwarded, deferred or failed the job. */
  ready(job: TargetJob, controls: TargetControls): Promise<boolean>;
  /** Claims the dispatch through `claim` and runs it; records what it knows. */
  run(job: TargetJob, claim: Claimer): Promise<void>;
}
