// Named errors and the close codes the gateway uses. Close codes follow RFC 6455 so that the
// official phoenix client reacts as intended: every code below makes it reconnect.

/** WebSocket close codes the gateway sends. */
export const CLOSE_CODES = {
  /** Server shutting down or draining: reconnect elsewhere / later. */
  goingAway: 1001,
  /** A frame that is not a Phoenix v2 message. */
  malformedFrame: 1007,
  /** Credentials revoked, or a peer that does not keep up with what we send. */
  policyViolation: 1008,
  /** A frame above `maxFrameBytes` (ws closes with this code itself). */
  frameTooLarge: 1009,
} as const;

/** A frame that cannot be decoded as a Phoenix v2 message. Contained to its socket. */
export class MalformedFrameError extends Error {
  readonly code = 'malformed_frame';
  constructor(message: string) {
    super(message);
    this.name = 'MalformedFrameError';
  }
}

/** A message the gateway refuses to send (e.g. a binary field longer than 255 bytes). */
export class UnencodableMessageError extends Error {
  readonly code = 'unencodable_message';
  constructor(message: string) {
    super(message);
    this.name = 'UnencodableMessageError';
  }
}

/** A server-side payload that does not match the runner protocol (a bug in the caller). */
export class InvalidOutgoingPayloadError extends Error {
  readonly code = 'invalid_outgoing_payload';
  constructor(message: string) {
    super(message);
    this.name = 'InvalidOutgoingPayloadError';
  }
}

/** Phoenix's own protocol-level refusal reasons (reply `{reason}`), kept verbatim. */
export const PROTOCOL_REASONS = {
  unmatchedTopic: 'unmatched topic',
  tooManyChannels: 'too many channels joined',
  joinCrashed: 'join crashed',
  channelCrash: 'channel_crash',
  unhandledEvent: 'unhandled event',
} as const;
