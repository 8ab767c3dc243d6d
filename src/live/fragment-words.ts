// The words for one fragment's verdict, written once for both places that explain a command:
// `brabo check` (src/cli/check.ts) and the console's fragment table (console/src/review-card.ts).
// No imports, so the console bundles just this file: the shape below is the policy's
// FragmentVerdict (src/policy/types.ts) as far as the words need it.
export interface VerdictOfFragment {
  verdict: 'deny' | 'ask' | 'allow' | 'cd-in-scope' | 'none';
  pattern?: string;
  source?: string;
}

export function describeVerdict(fragment: VerdictOfFragment): string {
  const pattern = fragment.pattern ?? '';
  switch (fragment.verdict) {
    case 'deny':
      return fragment.source === 'builtin' ? `denied by the built-in pattern ${pattern}` : `denied by deny ${pattern}`;
    case 'ask':
      return `asks for approval: ask ${pattern}`;
    case 'allow':
      return `allowed by allow ${pattern}`;
    case 'cd-in-scope':
      return 'cd inside the project folder (counts as allowed)';
    case 'none':
      return 'no rule matches';
  }
}
