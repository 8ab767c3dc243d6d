// Live command output, fanned out while the command runs. Sources: the runner's `output` pushes
// (text, already decoded per stream) and the broker's exec stream (bytes, decoded here per
// stream so a UTF-8 character split across frames survives). Each action's output is kept in a
// bounded OutputBuffer (the outcome cap, per stream) and forwarded to:
//   - `watch()` listeners (the SSE route `GET /api/actions/:id/output`), replay first, then live;
//   - `publish` (the app sends it to `agent:<proposer>` as `action.output` and to the console's
//     `project:<projectId>` topic).
// The stream ends when the action settles (executed, failed, denied). Settled buffers are kept
// for a bounded number of actions so a late viewer still gets the replay; older ones fall back
// to the recorded outcome (the route reads it from the store).
// In a cluster the chunks arrive on the node holding the runner's socket (or running the broker
// exec); `relay` hands every kept chunk and each end to the other nodes, which mirror them
// (mirrorChunk, mirrorEnd) with the origin's seqs, so a viewer on any node sees the same stream.
import { StringDecoder } from 'node:string_decoder';
import type { Output } from '../../runner-protocol/index.ts';
import type { Logger } from '../logger.ts';
import { type OutputChunk, OutputBuffer, type OutputStream } from './output-buffer.ts';

export interface OutputTarget {
  actionId: string;
  projectId: string;
  /** The proposer (an agent id usually): its `agent:<id>` topic gets `action.output`. */
  proposerId: string;
}

export type SettledStatus = 'executed' | 'failed' | 'denied';

export interface OutputEnd {
  status: SettledStatus;
  truncated: boolean;
}

export type LiveEvent = { kind: 'chunk'; chunk: OutputChunk } | { kind: 'end'; end: OutputEnd };
export type LiveListener = (event: LiveEvent) => void;

export interface Watch {
  /** What was kept before the watch began (after the cursor the caller gave). */
  replay: OutputChunk[];
  /** Set when the action had settled already: nothing more will come. */
  ended: OutputEnd | null;
  truncated: boolean;
  close(): void;
}

/** A dispatch as the hub needs it: whose action, which project, which attempt is current. */
export interface DispatchRef {
  target: OutputTarget;
  attempt: number;
}

/** Where chunks kept here and ends seen here go for the other nodes (src/live/output-relay.ts). */
export interface OutputRelay {
  chunk(target: OutputTarget, chunk: OutputChunk, truncated: boolean): void;
  end(actionId: string, status: SettledStatus, truncated: boolean): void;
}

export interface LiveOutputOptions {
  capBytes: number;
  /** Looks a dispatch up (store read); null when unknown. */
  resolveDispatch(dispatchId: string): Promise<DispatchRef | null>;
  publish(target: OutputTarget, chunk: OutputChunk): void;
  logger: Logger;
  /** How many settled actions keep their buffer for late viewers. */
  retainSettled?: number;
  /**
   * How many unsettled buffers are kept at most. A settlement this node never hears of (in a
   * cluster the result may be recorded elsewhere) must not pin a buffer forever: past the bound,
   * the least recently active one nobody watches is dropped (its output stays in the outcome).
   */
  maxOpen?: number;
  /** Absent on a single node. */
  relay?: OutputRelay;
}

interface Entry {
  target: OutputTarget | null;
  buffer: OutputBuffer;
  listeners: Set<LiveListener>;
  ended: OutputEnd | null;
  decoders: Partial<Record<OutputStream, StringDecoder>>;
  /** Highest runner seq seen per attempt: a repeated push is not shown twice. */
  runnerSeq: Map<number, number>;
  lastActivity: number;
}

export class LiveOutput {
  readonly #o: LiveOutputOptions;
  readonly #retain: number;
  readonly #maxOpen: number;
  readonly #entries = new Map<string, Entry>();
  /** Settled action ids, oldest first (bounded by `retainSettled`). */
  readonly #settled: string[] = [];
  readonly #dispatches = new Map<string, Promise<DispatchRef | null>>();

  constructor(options: LiveOutputOptions) {
    this.#o = options;
    this.#retain = options.retainSettled ?? 64;
    this.#maxOpen = options.maxOpen ?? 1000;
  }

  /** Broker exec bytes for an action whose target is known (the dispatcher has the action). */
  brokerOutput(target: OutputTarget, stream: OutputStream, bytes: Buffer): void {
    const entry = this.#entry(target.actionId, target);
    if (entry.ended) return;
    const decoder = (entry.decoders[stream] ??= new StringDecoder('utf8'));
    this.#append(entry, stream, decoder.write(bytes));
  }

  /**
   * A runner's `output` push. Only counted when the dispatch belongs to the runner's own project
   * and the attempt is the current one: a runner cannot write into another project's stream.
   */
  async runnerOutput(projectId: string, output: Output): Promise<void> {
    const ref = await this.#dispatch(output.dispatchId);
    if (!ref || ref.target.projectId !== projectId || ref.attempt !== output.attempt) {
      this.#o.logger.debug(
        { code: 'live_output_ignored', dispatchId: output.dispatchId, attempt: output.attempt },
        'runner output for an unknown dispatch or a stale attempt is not streamed',
      );
      return;
    }
    const entry = this.#entry(ref.target.actionId, ref.target);
    if (entry.ended) return;
    const last = entry.runnerSeq.get(output.attempt) ?? -1;
    if (output.seq <= last) return;
    entry.runnerSeq.set(output.attempt, output.seq);
    this.#append(entry, output.stream, output.data);
  }

  /** The action settled: flush decoders, end every watch, keep the buffer for late viewers. */
  settled(actionId: string, status: SettledStatus): void {
    const ended = this.#end(actionId, status, false);
    if (ended) this.#relay((relay) => relay.end(actionId, ended.status, ended.truncated));
  }

  /** A chunk another node kept for this action (its seq is the origin's); published there already. */
  mirrorChunk(target: OutputTarget, chunk: OutputChunk, truncated: boolean): void {
    const entry = this.#entry(target.actionId, target);
    if (entry.ended || !entry.buffer.accept(chunk, truncated)) return;
    entry.lastActivity = Date.now();
    for (const listener of [...entry.listeners]) this.#call(listener, { kind: 'chunk', chunk });
  }

  /** The action settled on another node (`truncated`: the origin dropped output past the cap). */
  mirrorEnd(actionId: string, status: SettledStatus, truncated: boolean): void {
    this.#end(actionId, status, truncated);
  }

  /** Null when the action had ended already. */
  #end(actionId: string, status: SettledStatus, truncated: boolean): OutputEnd | null {
    const entry = this.#entries.get(actionId) ?? this.#entry(actionId, null);
    if (entry.ended) return null;
    if (truncated) entry.buffer.truncated = true;
    for (const stream of ['stdout', 'stderr'] as const) {
      const rest = entry.decoders[stream]?.end();
      if (rest) this.#append(entry, stream, rest);
    }
    entry.ended = { status, truncated: entry.buffer.truncated };
    for (const listener of [...entry.listeners]) this.#call(listener, { kind: 'end', end: entry.ended });
    entry.listeners.clear();
    entry.decoders = {};
    for (const [dispatchId, ref] of this.#dispatches)
      void ref.then((r) => r?.target.actionId === actionId && this.#dispatches.delete(dispatchId));
    this.#settled.push(actionId);
    while (this.#settled.length > this.#retain) {
      const old = this.#settled.shift() as string;
      const oldEntry = this.#entries.get(old);
      if (oldEntry?.ended && oldEntry.listeners.size === 0) this.#entries.delete(old);
    }
    return entry.ended;
  }

  #relay(send: (relay: OutputRelay) => void): void {
    const relay = this.#o.relay;
    if (!relay) return;
    try {
      send(relay);
    } catch (error) {
      this.#o.logger.error(
        { code: 'live_output_relay_failed', err: error },
        'could not hand live output to the other nodes; viewers there get the outcome when it is recorded',
      );
    }
  }

  /** Whether output for this action is held here (running, or settled and still retained). */
  has(actionId: string): boolean {
    return this.#entries.has(actionId);
  }

  /**
   * Replay (chunks after `after`, -1 = all) then live chunks until the action settles. Works for
   * an action that has not started yet: its chunks and end arrive when they happen.
   */
  watch(actionId: string, after: number, listener: LiveListener): Watch {
    const entry = this.#entry(actionId, null);
    const replay = entry.buffer.since(after);
    if (entry.ended) return { replay, ended: entry.ended, truncated: entry.buffer.truncated, close() {} };
    // A viewer resuming after `after` on a node whose mirror is behind the one it read before must
    // not get those seqs again when they arrive here.
    const live: LiveListener = (event) => {
      if (event.kind === 'end' || event.chunk.seq > after) listener(event);
    };
    entry.listeners.add(live);
    return {
      replay,
      ended: null,
      truncated: entry.buffer.truncated,
      close: () => {
        entry.listeners.delete(live);
        // A watch on an action that never ran leaves nothing behind.
        if (entry.listeners.size === 0 && entry.target === null && !entry.ended && entry.buffer.since(-1).length === 0)
          this.#entries.delete(actionId);
      },
    };
  }

  /** Number of actions holding a buffer (diagnostics and the boundedness test). */
  get size(): number {
    return this.#entries.size;
  }

  #append(entry: Entry, stream: OutputStream, text: string): void {
    entry.lastActivity = Date.now();
    const chunk = entry.buffer.append(stream, text);
    if (!chunk) return;
    for (const listener of [...entry.listeners]) this.#call(listener, { kind: 'chunk', chunk });
    if (entry.target) {
      const target = entry.target;
      this.#relay((relay) => relay.chunk(target, chunk, entry.buffer.truncated));
      try {
        this.#o.publish(entry.target, chunk);
      } catch (error) {
        this.#o.logger.error(
          { code: 'live_output_publish_failed', err: error, actionId: entry.target.actionId },
          'could not publish a live output chunk; viewers of the SSE stream still get it',
        );
      }
    }
  }

  #call(listener: LiveListener, event: LiveEvent): void {
    try {
      listener(event);
    } catch (error) {
      this.#o.logger.error({ code: 'live_output_listener_failed', err: error }, 'a live output listener threw');
    }
  }

  #entry(actionId: string, target: OutputTarget | null): Entry {
    let entry = this.#entries.get(actionId);
    if (!entry) {
      entry = {
        target,
        buffer: new OutputBuffer(this.#o.capBytes),
        listeners: new Set(),
        ended: null,
        decoders: {},
        runnerSeq: new Map(),
        lastActivity: Date.now(),
      };
      this.#entries.set(actionId, entry);
      this.#boundOpen();
    } else if (entry.target === null && target !== null) {
      entry.target = target;
    }
    return entry;
  }

  /** Drops the least recently active unwatched, unsettled buffers beyond `maxOpen`. */
  #boundOpen(): void {
    const open = [...this.#entries].filter(([, e]) => !e.ended);
    let excess = open.length - this.#maxOpen;
    if (excess <= 0) return;
    open.sort(([, a], [, b]) => a.lastActivity - b.lastActivity);
    for (const [actionId, entry] of open) {
      if (excess <= 0) break;
      if (entry.listeners.size > 0) continue;
      this.#entries.delete(actionId);
      excess--;
      this.#o.logger.debug(
        { code: 'live_output_evicted', actionId },
        'an unsettled live output buffer was dropped (bound reached); its outcome keeps the output',
      );
    }
  }

  #dispatch(dispatchId: string): Promise<DispatchRef | null> {
    let ref = this.#dispatches.get(dispatchId);
    if (!ref) {
      ref = this.#o.resolveDispatch(dispatchId).then(
        (found) => {
          if (!found) this.#dispatches.delete(dispatchId); // unknown ids are not remembered: no growth from junk
          return found;
        },
        (error: unknown) => {
          this.#o.logger.warn(
            { code: 'live_output_lookup_failed', err: error, dispatchId },
            'could not look the dispatch up; its output is not streamed live',
          );
          this.#dispatches.delete(dispatchId);
          return null;
        },
      );
      this.#dispatches.set(dispatchId, ref);
    }
    return ref;
  }
}
