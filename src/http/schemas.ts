// zod schemas shared by several route files (each route file keeps its own request schemas).
import { z } from 'zod';
import { ACTION_TYPES, ROLES } from '../policy/index.ts';

export const Id = z.string().min(1).max(200);
/** A user or agent id as the caller names it. */
export const MemberId = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:@-]*$/, 'letters, digits and . _ : @ -');
export const ActionTypeSchema = z.enum(ACTION_TYPES);
export const RoleSchema = z.enum(ROLES);
export const ProjectParams = z.object({ id: Id });
export const ActionParams = z.object({ id: Id });
/**
 * Who acts comes from the credential (a human token's member; a service token names it with
 * `actingUserId`, or `userId`, its historical name). A human token may send its own id or none.
 */
export const ActingUser = { userId: MemberId.optional(), actingUserId: MemberId.optional() };
export const UserBody = z.object(ActingUser);

/** Nesting allowed in free-form JSON (payloads, module maps). Deeper input is refused with 400. */
export const MAX_JSON_DEPTH = 32;

/** Iterative, so hostile nesting cannot overflow the stack here (JSON.stringify later would). */
export function jsonDepthWithin(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (current === null || typeof current !== 'object') continue;
    if (depth >= max) return false;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return true;
}

/** A JSON object of the caller's (an action payload, a module's declaration), nesting bounded. */
export const FreeObject = z.record(z.string(), z.unknown()).refine((value) => jsonDepthWithin(value, MAX_JSON_DEPTH), {
  message: `nested deeper than ${MAX_JSON_DEPTH} levels`,
});

export const ErrorBody = z.looseObject({ error: z.string(), message: z.string() });
export const errorResponses = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 503: ErrorBody };

export const ActionSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  proposerId: z.string(),
  proposerKind: z.enum(['human', 'agent']),
  actionType: ActionTypeSchema,
  payload: z.record(z.string(), z.unknown()),
  status: z.enum(['pending', 'auto_approved', 'approved', 'denied']),
  reasonCode: z.string(),
  reason: z.string(),
  scopeRoot: z.string().nullable(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  denialReason: z.string().nullable(),
  createdAt: z.string(),
});

export const PermissionsSchema = z.object({
  allow: z.array(z.string()),
  deny: z.array(z.string()),
  ask: z.array(z.string()),
});
