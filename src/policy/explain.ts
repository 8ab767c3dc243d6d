// What `brabo check` prints beside the decision: how the command was read, fragment by fragment.
import { analyzeCommand } from './analysis.ts';
import { effectOf } from './external-effect.ts';
import { MAX_COMMAND_LENGTH } from './limits.ts';
import type { Effect } from './external-effect.ts';
import type { Redirect, UnsafeFinding } from './tokenizer.ts';
import { verbOf } from './tokenizer.ts';

export interface FragmentExplanation {
  text: string;
  argv: string[];
  verb: string | null;
  redirects: Redirect[];
  /** Readings behind wrappers (`sudo rm x` -> `rm x`), the argv itself first. */
  views: string[][];
  /** Commands found in `sh -c` strings, as text. */
  nested: string[][];
  effect: Effect | null;
}

export interface CommandExplanation {
  fragments: FragmentExplanation[];
  findings: UnsafeFinding[];
}

export function explainFragments(command: string): CommandExplanation {
  // Over the cap decide() reads nothing, and neither does the explanation.
  const analysis = analyzeCommand(typeof command === 'string' && command.length <= MAX_COMMAND_LENGTH ? command : '');
  return {
    findings: analysis.findings,
    fragments: analysis.fragments.map((f) => ({
      text: f.fragment.text,
      argv: f.fragment.argv,
      verb: verbOf(f.fragment.argv) ?? null,
      redirects: f.fragment.redirects,
      views: f.views.map((v) => [...v]),
      nested: f.nested.map((n) => n.fragments.map((x) => x.fragment.text)),
      effect: f.views.map(effectOf).find((e) => e !== null) ?? null,
    })),
  };
}
