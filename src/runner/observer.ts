// What the runner reports while it works. The terminal UI and the structured log both implement it,
// so every event an operator may need shows up in both places from one call site.
import type { Execute, Result } from '../../runner-protocol/index.ts';

export interface RunnerObserver {
  connecting(url: string): void;
  joined(topic: string, resent: number): void;
  disconnected(reason: string): void;
  joinRefused(code: string, message: string): void;
  dispatchStarted(execute: Execute): void;
  dispatchFinished(result: Result, durationMs: number): void;
  /** A re-delivery answered without running again (journal, or joined an in-flight run). */
  dispatchReplayed(result: Result, source: 'journal' | 'in_flight'): void;
  invalidExecute(detail: string, dispatchId: string | null): void;
  resultRejected(result: Result, reason: string): void;
  warning(code: string, message: string): void;
}

/** Fans one event out to several observers (UI + log). */
export function combineObservers(...observers: RunnerObserver[]): RunnerObserver {
  const fan =
    <K extends keyof RunnerObserver>(key: K) =>
    (...args: Parameters<RunnerObserver[K]>): void => {
      for (const observer of observers) (observer[key] as (...a: Parameters<RunnerObserver[K]>) => void)(...args);
    };
  return {
    connecting: fan('connecting'),
    joined: fan('joined'),
    disconnected: fan('disconnected'),
    joinRefused: fan('joinRefused'),
    dispatchStarted: fan('dispatchStarted'),
    dispatchFinished: fan('dispatchFinished'),
    dispatchReplayed: fan('dispatchReplayed'),
    invalidExecute: fan('invalidExecute'),
    resultRejected: fan('resultRejected'),
    warning: fan('warning'),
  };
}
