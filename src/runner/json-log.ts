// The runner's structured log: pino's line format (`{"level":30,"time":…,"name":…,"msg":…}`,
// errors as {type, message, stack}) without pino, so the runner package depends only on
// phoenix, ws and zod. Implements the part of pino's Logger the runner and the broker call
// (child, trace…fatal, flush, level); typed as pino's Logger for them.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity } as const;
export type JsonLogLevel = keyof typeof LEVELS;

export type JsonLogDestination = { kind: 'fd'; fd: number } | { kind: 'file'; path: string } | { kind: 'none' };

export interface JsonLogOptions {
  name: string;
  level: JsonLogLevel;
  destination: JsonLogDestination;
}

/** What the log writes to: one open file descriptor for the whole process. */
interface Sink {
  write(line: string): void;
  close(): void;
}

function openSink(destination: JsonLogDestination): Sink {
  if (destination.kind === 'none') return { write: () => {}, close: () => {} };
  let fd: number;
  let owned = false;
  let closed = false;
  if (destination.kind === 'fd') {
    fd = destination.fd;
  } else {
    mkdirSync(path.dirname(destination.path), { recursive: true });
    fd = openSync(destination.path, 'a', 0o600);
    owned = true;
  }
  return {
    // Synchronous appends: a line is on disk before the process can exit, and lines from
    // concurrent commands never interleave (each is one write of a whole line).
    write: (line) => {
      // After close the number may belong to another file: never write through it again.
      if (closed) return;
      try {
        writeSync(fd, line);
      } catch {
        // A full disk or a closed stderr must not stop the runner: the terminal UI still reports.
      }
    },
    close: () => {
      if (closed) return;
      closed = true;
      if (owned) closeSync(fd);
    },
  };
}

function serializeError(value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  const out: Record<string, unknown> = { type: value.name, message: value.message, stack: value.stack };
  for (const [key, field] of Object.entries(value)) out[key] = field;
  return out;
}

class JsonLog {
  readonly #sink: Sink;
  readonly #bindings: Record<string, unknown>;
  readonly #threshold: number;
  readonly level: JsonLogLevel;

  constructor(sink: Sink, level: JsonLogLevel, bindings: Record<string, unknown>) {
    this.#sink = sink;
    this.level = level;
    this.#threshold = LEVELS[level];
    this.#bindings = bindings;
  }

  child(bindings: Record<string, unknown>): JsonLog {
    return new JsonLog(this.#sink, this.level, { ...this.#bindings, ...bindings });
  }

  isLevelEnabled(level: JsonLogLevel): boolean {
    return LEVELS[level] >= this.#threshold;
  }

  trace(obj: unknown, msg?: string): void {
    this.#log('trace', obj, msg);
  }
  debug(obj: unknown, msg?: string): void {
    this.#log('debug', obj, msg);
  }
  info(obj: unknown, msg?: string): void {
    this.#log('info', obj, msg);
  }
  warn(obj: unknown, msg?: string): void {
    this.#log('warn', obj, msg);
  }
  error(obj: unknown, msg?: string): void {
    this.#log('error', obj, msg);
  }
  fatal(obj: unknown, msg?: string): void {
    this.#log('fatal', obj, msg);
  }

  /** Writes are synchronous: nothing is buffered. */
  flush(): void {}

  close(): void {
    this.#sink.close();
  }

  #log(level: JsonLogLevel, obj: unknown, msg: string | undefined): void {
    const value = LEVELS[level];
    if (value < this.#threshold) return;
    const line: Record<string, unknown> = {
      level: value,
      time: Date.now(),
      pid: process.pid,
      hostname: HOST,
      ...this.#bindings,
    };
    if (typeof obj === 'string') {
      line.msg = obj;
    } else if (obj instanceof Error) {
      line.err = serializeError(obj);
      line.msg = msg ?? obj.message;
    } else {
      if (obj !== null && typeof obj === 'object') {
        for (const [key, field] of Object.entries(obj))
          line[key] = key === 'err' || key === 'error' ? serializeError(field) : field;
      }
      if (msg !== undefined) line.msg = msg;
    }
    let text: string;
    try {
      text = JSON.stringify(line, redactTokens);
    } catch {
      text = JSON.stringify({
        level: value,
        time: line.time,
        msg: line.msg,
        logError: 'unserializable fields dropped',
      });
    }
    this.#sink.write(`${text}\n`);
  }
}

const HOST = hostname();

/** Like the server's pino redaction: a token never reaches the log, whatever object holds it. */
function redactTokens(key: string, value: unknown): unknown {
  return key === 'token' || key === 'authorization' ? '[redacted]' : value;
}

export function createJsonLog(options: JsonLogOptions): Logger & { close(): void } {
  const log = new JsonLog(openSink(options.destination), options.level, { name: options.name });
  // The runner's and broker's code is typed against pino's Logger; this implements the methods
  // they call (see the header).
  return log as unknown as Logger & { close(): void };
}
