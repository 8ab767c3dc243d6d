// Shapes the console reads from the gateway (the zod schemas beside the routes are the source).
export interface Action {
  id: string;
  projectId: string;
  proposerId: string;
  proposerKind: 'human' | 'agent';
  actionType: string;
  payload: Record<string, unknown>;
  status: 'pending' | 'auto_approved' | 'approved' | 'denied';
  reasonCode: string;
  reason: string;
  scopeRoot: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  denialReason: string | null;
  createdAt: string;
}

export interface FragmentRow {
  text: string;
  verdict: 'deny' | 'ask' | 'allow' | 'cd-in-scope' | 'none';
  pattern?: string;
  source?: string;
  via?: string;
  effect: string | null;
}

export type AlwaysAllowPreview =
  | {
      offered: true;
      writes:
        | { kind: 'patterns'; patterns: string[] }
        | { kind: 'autonomy'; agentId: string; actionType: string; mode: string };
    }
  | { offered: false; reason: string; message: string };

export interface ReviewEntry {
  action: Action;
  project: { id: string; name: string; executionMode: string };
  now: { policy: string; reasonCode: string; reason: string } | null;
  fragments: FragmentRow[];
  findings: string[];
  alwaysAllow: AlwaysAllowPreview;
}

export interface Presence {
  connected: boolean;
  hostname: string | null;
  runnerVersion: string | null;
  sandbox: string | null;
  joinedAt: string | null;
  lastSeen: string | null;
}

export interface ProjectRow {
  id: string;
  name: string;
  executionMode: string;
  ownerId: string;
  role: string | null;
  runner: Presence | null;
}

export interface Member {
  projectId: string;
  memberId: string;
  kind: 'human' | 'agent';
  role: string;
}

export interface AutonomyRule {
  projectId: string;
  agentId: string;
  actionType: string;
  mode: string;
  updatedBy: string;
  updatedAt: string;
}
