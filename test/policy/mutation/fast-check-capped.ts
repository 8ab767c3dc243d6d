// fast-check as the mutation run sees it: vitest.mutation.config.ts resolves 'fast-check' here for
// the policy suites; `npm test` never loads this file. Stryker reruns the covering tests once per
// mutant, and a 2 000-run property then costs more than every example test of its file together.
// So each property keeps its arbitraries and predicate but runs at most MUTATION_NUM_RUNS cases,
// from a fixed seed: every mutant meets the same cases, and a mutant is never "killed" by a case
// the unmutated engine would also fail (the dry run checks the unmutated engine passes them all).
// Fewer cases can only let a mutant survive, so the reported score is a lower bound.
import * as fastCheck from 'fast-check';

export * from 'fast-check';

/** Runs per property under mutation. */
export const MUTATION_NUM_RUNS = 40;
/** The seed of every property under mutation, unless the test names its own. */
export const MUTATION_SEED = 9;

function cappedParameters<Ts>(parameters: fastCheck.Parameters<Ts> | undefined): fastCheck.Parameters<Ts> {
  const asked = parameters?.numRuns ?? MUTATION_NUM_RUNS;
  return { seed: MUTATION_SEED, ...parameters, numRuns: Math.min(asked, MUTATION_NUM_RUNS) };
}

export function assert<Ts>(
  property: fastCheck.IRawProperty<Ts>,
  parameters?: fastCheck.Parameters<Ts>,
): Promise<void> | void {
  return fastCheck.assert(property, cappedParameters(parameters));
}

export default { ...fastCheck, assert };
