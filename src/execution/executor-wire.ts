// The messages of an external executor, one definition for both transports: the HTTP routes
// (src/http/routes/executors.ts) and the socket topic `executor:<type>` (executor-channel.ts).
import { z } from 'zod';

/** At most an hour (the dispatcher's largest executor lease); extend for longer work. */
export const LeaseSeconds = z.coerce.number().int().min(1).max(3600);

const JsonObject = z.record(z.string(), z.unknown());

export const ClaimedSchema = z.object({
  dispatchId: z.string(),
  attempt: z.number(),
  leaseUntil: z.string(),
  actionId: z.string(),
  projectId: z.string(),
  actionType: z.string(),
  payload: JsonObject,
  credentialRef: z.string().nullable(),
  proposerId: z.string(),
  decidedBy: z.string().nullable(),
});

export const ReportFields = {
  attempt: z.number().int().min(1),
  status: z.enum(['executed', 'failed']),
  code: z.string().min(1).max(64).optional(),
  message: z.string().min(1).max(4000).optional(),
  output: z.string().max(1_000_000).optional(),
  detail: JsonObject.optional(),
};

export const ExtendFields = { attempt: z.number().int().min(1), leaseSeconds: LeaseSeconds.optional() };

export const ReportedSchema = z.object({
  recorded: z.enum(['settled', 'replaced_outcome_unknown', 'duplicate']),
  state: z.enum(['executed', 'failed']),
});
