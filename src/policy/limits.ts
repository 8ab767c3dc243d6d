// The bounds of what the policy engine reads. decide() is linear in its input, and these keep
// the largest input small enough that one decision never blocks the event loop for long (the
// HTTP API accepts bodies up to 1 MiB; a 400 KB proposal once froze the gateway for a minute).

/**
 * Commands longer than this many UTF-16 code units are not parsed at all: the answer is
 * require_approval with reason `command_too_long` (a human reads it). Agents' real commands are a
 * few hundred characters; 16 KiB leaves room for long generated argument lists, and keeps the
 * slowest shape under 50 ms of one core (bench:policy). Here-documents, the usual way to send
 * long text, are never auto-approved anyway.
 */
export const MAX_COMMAND_LENGTH = 16_384;

/**
 * Characters analysed below the top-level command in all (`sh -c` strings, `eval`, substitutions):
 * nested text is a copy of part of the command, so without a budget `"$($($(…"` analyses the tail
 * of the line once per `$(`. Past it the command is unsafe (never auto-approved).
 */
export const MAX_NESTED_CHARACTERS = MAX_COMMAND_LENGTH;
