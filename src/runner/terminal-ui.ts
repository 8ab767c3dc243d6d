// The runner's human-facing output: plain lines on stdout that read well in a terminal, a pipe or a
// CI log. Colours only when the stream is a TTY and NO_COLOR is unset.
import type { Execute, Result } from '../../runner-protocol/index.ts';
import type { RunnerObserver } from './observer.ts';

export interface TerminalUiOptions {
  write: (text: string) => void;
  color: boolean;
}

export interface RunnerBanner {
  version: string;
  url: string;
  projectId: string;
  root: string;
  journal: string;
  journalResults: number;
  logTarget: string;
  /** One line: which sandbox contains which commands. */
  sandbox?: string;
}

const CODES = { dim: 2, red: 31, green: 32, yellow: 33, cyan: 36 } as const;
type Tone = keyof typeof CODES;

export class TerminalUi implements RunnerObserver {
  readonly #write: (text: string) => void;
  readonly #color: boolean;

  constructor(options: TerminalUiOptions) {
    this.#write = options.write;
    this.#color = options.color;
  }

  static forStdout(): TerminalUi {
    const color = process.stdout.isTTY === true && process.env.NO_COLOR === undefined;
    return new TerminalUi({ write: (text) => process.stdout.write(text), color });
  }

  banner(info: RunnerBanner): void {
    this.#line(`brabo runner ${info.version}`);
    this.#line(`  server   ${info.url}`);
    this.#line(`  project  ${info.projectId}`);
    this.#line(`  root     ${info.root}`);
    this.#line(`  journal  ${info.journal} (${info.journalResults} results)`);
    this.#line(`  logs     ${info.logTarget}`);
    if (info.sandbox !== undefined) this.#line(`  sandbox  ${info.sandbox}`);
  }

  fatal(message: string): void {
    this.#line(this.#paint('red', `✖ ${message}`));
  }

  info(message: string): void {
    this.#line(message);
  }

  connecting(url: string): void {
    this.#line(this.#paint('dim', `… connecting to ${url}`));
  }

  joined(topic: string, resent: number): void {
    const extra = resent > 0 ? `; re-sent ${resent} unacknowledged result(s)` : '';
    this.#line(this.#paint('green', `● connected, joined ${topic}${extra}`));
  }

  disconnected(reason: string): void {
    this.#line(this.#paint('yellow', `○ disconnected: ${reason}`));
  }

  joinRefused(code: string, message: string): void {
    this.#line(
      this.#paint('red', `✖ the server refused to let this runner join: ${code}${message ? ` (${message})` : ''}`),
    );
  }

  dispatchStarted(execute: Execute): void {
    const { action } = execute;
    const what = action.type === 'terminal' ? `$ ${oneLine(action.command)}  (${action.cwd})` : action.type;
    const attempt = execute.attempt > 1 ? ` [attempt ${execute.attempt}]` : '';
    this.#line(`${this.#paint('cyan', '▶')} ${execute.dispatchId}${attempt} ${what}`);
  }

  dispatchFinished(result: Result, durationMs: number): void {
    const took = formatDuration(durationMs);
    const truncated = result.truncated === true ? ', output truncated' : '';
    if (result.status === 'executed') {
      const ok = result.exitCode === 0 || result.exitCode === undefined;
      const mark = ok ? this.#paint('green', '✔') : this.#paint('red', '✖');
      this.#line(`${mark} ${result.dispatchId} exit ${result.exitCode ?? 0} in ${took}${truncated}`);
    } else if (result.status === 'failed') {
      this.#line(
        `${this.#paint('red', '✖')} ${result.dispatchId} failed after ${took}: ${reasonText(result)}${truncated}`,
      );
    } else {
      this.#line(`${this.#paint('yellow', '⊘')} ${result.dispatchId} refused: ${reasonText(result)}`);
    }
  }

  dispatchReplayed(result: Result, source: 'journal' | 'in_flight'): void {
    const from = source === 'journal' ? 'answered from the journal' : 'already running; answered with its result';
    this.#line(
      this.#paint(
        'dim',
        `↺ ${result.dispatchId} [attempt ${result.attempt}] ${from} (${result.status}), not run again`,
      ),
    );
  }

  invalidExecute(detail: string, dispatchId: string | null): void {
    const who =
      dispatchId === null
        ? 'an execute without a readable dispatchId was ignored'
        : `${dispatchId} is not a valid execute`;
    this.#line(this.#paint('yellow', `⊘ ${who}: ${detail}`));
  }

  resultRejected(result: Result, reason: string): void {
    this.#line(
      this.#paint(
        'yellow',
        `! the server did not accept the result of ${result.dispatchId} [attempt ${result.attempt}]: ${reason}`,
      ),
    );
  }

  warning(code: string, message: string): void {
    this.#line(this.#paint('yellow', `! ${code}: ${message}`));
  }

  #paint(tone: Tone, text: string): string {
    return this.#color ? `\u001b[${CODES[tone]}m${text}\u001b[0m` : text;
  }

  #line(text: string): void {
    const time = new Date().toTimeString().slice(0, 8);
    this.#write(`${this.#paint('dim', time)} ${text}\n`);
  }
}

function reasonText(result: Result): string {
  return result.reason === undefined ? 'no reason given' : `${result.reason.code} — ${result.reason.message}`;
}

/** Commands are shown on one line, shortened; the log has them in full. */
function oneLine(command: string): string {
  const flat = command.replace(/\s*\n\s*/g, ' ⏎ ');
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
