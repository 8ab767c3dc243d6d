// Property tests of decide() and parsePermissions() (fast-check). Commands are generated from a
// shell-ish vocabulary (balanced quotes, no trailing backslash) so that "appending a fragment"
// means what it says; garbage inputs are generated without any such care.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide, parsePermissions, parsePermissionsText, tokenize } from '../../src/policy/index.ts';
import { ACTION_TYPES } from '../../src/policy/types.ts';
import type { Decision, DecisionInput, Permissions, Policy, ResolvedAutonomy } from '../../src/policy/types.ts';
import { DEV_ALLOW, ROOT } from './adversarial-harness.ts';

const RUNS = 500;
const RANK: Record<Policy, number> = { deny: 0, require_approval: 1, auto_approve: 2 };
const POLICIES = ['auto_approve', 'require_approval', 'deny'];

const VERBS = [
  'ls',
  'cat',
  'echo',
  'git',
  'pnpm',
  'npm',
  'cd',
  'rm',
  'curl',
  'sudo',
  'timeout',
  'env',
  'sh',
  'bash',
  'kubectl',
  'gh',
  'tee',
  'grep',
  'make',
  'python3',
  'FOO=1',
  'xargs',
  'nohup',
];
const ARGS = [
  '-la',
  '-rf',
  '/',
  '/*',
  'src',
  '..',
  '../..',
  '/etc/passwd',
  '$HOME',
  '~',
  'push',
  'status',
  'test',
  'test:unit',
  '-C',
  'x',
  '-c',
  'alias.p=push',
  'p',
  'apply',
  'pr',
  'create',
  '"a b"',
  "'c d'",
  '2>/dev/null',
  '> out.txt',
  '> permissions.json',
  '/dev/null',
  `${ROOT}/src`,
  '$(ls)',
  '`ls`',
  '*.ts',
  '--x=/etc',
  '5',
  '-n',
  '30',
  'publish',
  'remote',
  'add',
  'origin',
  'main',
  '-v',
  'log',
  'diff',
  '"rm -rf /"',
  "'git push'",
  'curl',
  'rm',
  '-fr',
  'src/../..',
  '#x',
  '<(ls)',
];
const SEPARATORS = [' && ', ' || ', ' ; ', ' | ', ' |& ', ' & ', '\n', ';'];
const PATTERNS = [
  'Terminal(ls)',
  'Terminal(cat)',
  'Terminal(git status)',
  'Terminal(git:*)',
  'Terminal(curl:*)',
  'Terminal(rm)',
  'Terminal(pnpm test:*)',
  'Terminal(echo)',
  'Terminal(cd)',
  'Terminal(sudo)',
  'Terminal(tee)',
  'Terminal(sh)',
  'Terminal(git push)',
  'Terminal(rm -rf)',
  'Terminal(FOO=1 ls)',
  'Terminal(kubectl)',
  'Terminal(gh pr)',
  'Terminal(env)',
  'Terminal(timeout)',
  'GitCommit()',
];
const EXTERNAL = [
  'git push',
  'git -C src push origin main',
  'sudo ls',
  'doas make',
  'kubectl -n prod apply -f x',
  'gh pr create',
  'terraform -chdir=x apply',
  'docker push img',
  'npm publish',
  'timeout 5 git push',
  'env A=1 git push',
  "sh -c 'git push'",
  'git remote add o x',
  'helm upgrade x',
  'cargo publish',
];

const fragmentArb = fc
  .tuple(fc.constantFrom(...VERBS), fc.array(fc.constantFrom(...ARGS), { maxLength: 3 }))
  .map(([verb, args]) => [verb, ...args].join(' '));
const separatorArb = fc.constantFrom(...SEPARATORS);
const commandArb = fc
  .tuple(fragmentArb, fc.array(fc.tuple(separatorArb, fragmentArb), { maxLength: 3 }))
  .map(([first, rest]) => first + rest.map(([sep, frag]) => sep + frag).join(''));
const patternsArb = fc.subarray(PATTERNS, { maxLength: 5 });
const permissionsArb: fc.Arbitrary<Permissions> = fc.record({
  allow: fc.oneof(patternsArb, fc.constant(DEV_ALLOW)),
  deny: patternsArb,
  ask: patternsArb,
});
const autonomyArb: fc.Arbitrary<ResolvedAutonomy | null> = fc.oneof(
  fc.constant(null),
  fc.record({
    mode: fc.constantFrom<Policy>('auto_approve', 'require_approval'),
    origin: fc.constantFrom<'especifica' | 'curinga'>('especifica', 'curinga'),
  }),
);
const cwdArb = fc.constantFrom(ROOT, `${ROOT}/src`, '/tmp');

interface Context {
  permissions: Permissions;
  autonomy: ResolvedAutonomy | null;
  containerRunning: boolean;
  cwd: string;
  role: 'developer' | 'maintainer' | 'owner';
}
const contextArb: fc.Arbitrary<Context> = fc.record({
  permissions: permissionsArb,
  autonomy: autonomyArb,
  containerRunning: fc.boolean(),
  cwd: cwdArb,
  role: fc.constantFrom('developer', 'maintainer', 'owner'),
});

function terminal(command: string, ctx: Context): DecisionInput {
  return {
    actionType: 'terminal',
    payload: { command, cwd: ctx.cwd },
    role: ctx.role,
    autonomy: ctx.autonomy,
    permissions: ctx.permissions,
    scopeRoot: ROOT,
    containerRunning: ctx.containerRunning,
  };
}
const run = (command: string, ctx: Context): Decision => decide(terminal(command, ctx));
const explain = (d: Decision): string => `${d.policy} (${d.reasonCode}): ${d.reason}`;

function isWellFormed(d: unknown): boolean {
  if (typeof d !== 'object' || d === null) return false;
  const { policy, reason, reasonCode } = d as Record<string, unknown>;
  return POLICIES.includes(policy as string) && typeof reason === 'string' && typeof reasonCode === 'string';
}

describe('decide() never throws', () => {
  it('on arbitrary command strings (any code unit, any length)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), contextArb, (command, ctx) => {
        expect(isWellFormed(run(command, ctx))).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });
  it('on shell-ish command strings with stray metacharacters', () => {
    const piece = fc.oneof(
      fragmentArb,
      fc.constantFrom('"', "'", '\\', '$(', ')', '`', '(', '{', '}', '<<', '#', '\r', '\0', '\u200b'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), contextArb, (pieces, ctx) => {
        expect(isWellFormed(run(pieces.join(''), ctx))).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });
  it('on arbitrary DecisionInput shapes, and never auto-approves an invalid type, role or command', () => {
    const garbage = fc.record(
      {
        actionType: fc.oneof(fc.constantFrom(...ACTION_TYPES), fc.anything()),
        payload: fc.oneof(fc.record({ command: fc.anything(), cwd: fc.anything() }), fc.anything()),
        role: fc.oneof(fc.constantFrom('developer', 'maintainer', 'owner'), fc.anything()),
        autonomy: fc.oneof(autonomyArb, fc.anything()),
        permissions: fc.oneof(permissionsArb, fc.anything()),
        scopeRoot: fc.oneof(fc.constant(ROOT), fc.anything()),
        containerRunning: fc.anything(),
        permissionsBroken: fc.anything(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(garbage, fc.anything()), (raw) => {
        const decision = decide(raw as DecisionInput);
        expect(isWellFormed(decision)).toBe(true);
        const input = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
        const payload = input['payload'];
        const invalidType = !(ACTION_TYPES as readonly unknown[]).includes(input['actionType']);
        const invalidRole = !['developer', 'maintainer', 'owner'].includes(input['role'] as string);
        const invalidCommand =
          input['actionType'] === 'terminal' &&
          typeof (typeof payload === 'object' && payload !== null
            ? (payload as Record<string, unknown>)['command']
            : undefined) !== 'string';
        if (invalidType || invalidRole || invalidCommand) expect(decision.policy).not.toBe('auto_approve');
      }),
      { numRuns: RUNS },
    );
  });
});

describe('monotonicity: more text, more deny, more ask never loosen', () => {
  it('appending a fragment never loosens, unless that fragment alone is auto-approved', () => {
    fc.assert(
      fc.property(commandArb, separatorArb, fragmentArb, contextArb, (command, sep, fragment, ctx) => {
        const before = run(command, ctx);
        const after = run(command + sep + fragment, ctx);
        if (RANK[after.policy] <= RANK[before.policy]) return;
        const alone = run(fragment, ctx);
        expect(
          alone.policy,
          `${JSON.stringify(command)} -> ${explain(before)}; + ${JSON.stringify(sep + fragment)} -> ${explain(after)}`,
        ).toBe('auto_approve');
      }),
      { numRuns: RUNS },
    );
  });
  it('adding a deny pattern never loosens', () => {
    fc.assert(
      fc.property(commandArb, contextArb, fc.constantFrom(...PATTERNS), (command, ctx, pattern) => {
        const before = run(command, ctx);
        const after = run(command, {
          ...ctx,
          permissions: { ...ctx.permissions, deny: [...ctx.permissions.deny, pattern] },
        });
        expect(
          RANK[after.policy],
          `${JSON.stringify(command)} + deny ${pattern}: ${explain(before)} -> ${explain(after)}`,
        ).toBeLessThanOrEqual(RANK[before.policy]);
      }),
      { numRuns: RUNS },
    );
  });
  it('adding an ask pattern never loosens', () => {
    fc.assert(
      fc.property(commandArb, contextArb, fc.constantFrom(...PATTERNS), (command, ctx, pattern) => {
        const before = run(command, ctx);
        const after = run(command, {
          ...ctx,
          permissions: { ...ctx.permissions, ask: [...ctx.permissions.ask, pattern] },
        });
        expect(
          RANK[after.policy],
          `${JSON.stringify(command)} + ask ${pattern}: ${explain(before)} -> ${explain(after)}`,
        ).toBeLessThanOrEqual(RANK[before.policy]);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('deny is final', () => {
  const everyVerbAllowed = [...PATTERNS, ...DEV_ALLOW, ...VERBS.map((v) => `Terminal(${v})`)];
  it('no autonomy, container floor or extra allow pattern turns a deny into anything else', () => {
    fc.assert(
      fc.property(commandArb, contextArb, autonomyArb, fc.boolean(), (command, ctx, autonomy, containerRunning) => {
        const first = run(command, ctx);
        if (first.policy !== 'deny') return;
        const loosened = run(command, {
          ...ctx,
          autonomy,
          containerRunning,
          permissions: { ...ctx.permissions, allow: [...ctx.permissions.allow, ...everyVerbAllowed] },
        });
        expect(loosened.policy, `${JSON.stringify(command)}: ${explain(first)} -> ${explain(loosened)}`).toBe('deny');
      }),
      { numRuns: RUNS },
    );
  });
  it('agent_autonomy deny denies every command and every action type', () => {
    fc.assert(
      fc.property(
        commandArb,
        contextArb,
        fc.constantFrom(...ACTION_TYPES),
        fc.constantFrom<'especifica' | 'curinga'>('especifica', 'curinga'),
        (command, ctx, actionType, origin) => {
          const decision = decide({
            ...terminal(command, { ...ctx, permissions: { ...ctx.permissions, allow: everyVerbAllowed } }),
            actionType,
            autonomy: { mode: 'deny', origin },
          });
          expect(decision.policy).toBe('deny');
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('RN-603: the wildcard lifts only the path scope and the compound rule', () => {
  it('curinga and especifica differ only by ceiling_path_scope / ceiling_compound_unmatched', () => {
    fc.assert(
      fc.property(commandArb, contextArb, (command, ctx) => {
        const wildcard = run(command, { ...ctx, autonomy: { mode: 'auto_approve', origin: 'curinga' } });
        const specific = run(command, { ...ctx, autonomy: { mode: 'auto_approve', origin: 'especifica' } });
        if (wildcard.policy === specific.policy) return;
        const seen = `${JSON.stringify(command)}: curinga ${explain(wildcard)}; especifica ${explain(specific)}`;
        expect(wildcard.policy, seen).toBe('auto_approve');
        expect(specific.policy, seen).toBe('require_approval');
        expect(['ceiling_path_scope', 'ceiling_compound_unmatched'], seen).toContain(specific.reasonCode);
      }),
      { numRuns: RUNS },
    );
  });
  it('a fragment with an external effect anywhere is never auto-approved in auto mode', () => {
    const withExternal = fc
      .tuple(
        fc.array(fc.tuple(fragmentArb, separatorArb), { maxLength: 3 }),
        fc.constantFrom(...EXTERNAL),
        fc.array(fc.tuple(separatorArb, fragmentArb), { maxLength: 2 }),
      )
      .map(
        ([before, external, after]) =>
          before.map(([f, s]) => f + s).join('') + external + after.map(([s, f]) => s + f).join(''),
      );
    fc.assert(
      fc.property(withExternal, contextArb, (command, ctx) => {
        const decision = run(command, {
          ...ctx,
          role: 'maintainer',
          autonomy: { mode: 'auto_approve', origin: 'curinga' },
          containerRunning: true,
        });
        expect(decision.policy, `${JSON.stringify(command)}: ${explain(decision)}`).not.toBe('auto_approve');
      }),
      { numRuns: RUNS },
    );
  });
});

describe('parsePermissions() / parsePermissionsText()', () => {
  const entry = fc.oneof(
    fc.constantFrom(...PATTERNS, 'GitPush()', 'GitPush(algo)', 'Termnal(ls)', 'Terminal(', 'terminal(ls)', ''),
    fc.string({ maxLength: 20 }),
    fc.anything(),
  );
  const listish = fc.oneof(fc.array(entry, { maxLength: 5 }), fc.anything());
  const fileish = fc.oneof(
    fc.record({ allow: listish, deny: listish, ask: listish }, { requiredKeys: [] }),
    fc.anything(),
  );

  it('never throws; a failure names a PermissionsError and salvages no allow', () => {
    fc.assert(
      fc.property(fileish, (raw) => {
        const parsed = parsePermissions(raw);
        if (parsed.ok) return;
        expect(parsed.error.name).toBe('PermissionsError');
        expect(['permissions_invalid_json', 'permissions_invalid']).toContain(parsed.error.code);
        expect(parsed.error.message.length).toBeGreaterThan(0);
        expect(parsed.salvaged.allow).toEqual([]);
        const input = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
        for (const list of ['deny', 'ask'] as const) {
          const original = Array.isArray(input[list]) ? (input[list] as unknown[]) : [];
          for (const kept of parsed.salvaged[list]) expect(original).toContain(kept);
        }
      }),
      { numRuns: RUNS },
    );
  });
  it('text: never throws on arbitrary text or JSON', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 200 }),
          fileish.map((v) => JSON.stringify(v) ?? 'undefined'),
        ),
        (text) => {
          const parsed = parsePermissionsText(text);
          if (!parsed.ok) expect(parsed.salvaged.allow).toEqual([]);
        },
      ),
      { numRuns: RUNS },
    );
  });
  it('a salvaged file decides like the valid deny/ask entries alone and never auto-approves', () => {
    fc.assert(
      fc.property(fileish, commandArb, (raw, command) => {
        const parsed = parsePermissions(raw);
        if (parsed.ok) return;
        const decision = decide({
          ...terminal(command, {
            permissions: parsed.salvaged,
            autonomy: { mode: 'auto_approve', origin: 'curinga' },
            containerRunning: true,
            cwd: ROOT,
            role: 'owner',
          }),
          permissionsBroken: true,
        });
        expect(decision.policy).not.toBe('auto_approve');
      }),
      { numRuns: RUNS },
    );
  });
});

describe('tokenize(): fragment split', () => {
  const printable = (exclude: string) =>
    fc.string({
      unit: fc
        .integer({ min: 0x20, max: 0x7e })
        .map((n) => String.fromCharCode(n))
        .filter((ch) => !exclude.includes(ch)),
      minLength: 1,
      maxLength: 12,
    });
  // Each word: its value and one shell spelling of it.
  const wordArb = fc.oneof(
    fc.stringMatching(/^[A-Za-z0-9._/:=@%+,-]{1,12}$/).map((w) => ({ value: w, text: w })),
    printable("'").map((w) => ({ value: w, text: `'${w}'` })),
    printable('"\\$`').map((w) => ({ value: w, text: `"${w}"` })),
  );
  const fragmentWords = fc.array(wordArb, { minLength: 1, maxLength: 5 });

  it('quoted separators stay inside words; unquoted ones split exactly there', () => {
    fc.assert(
      fc.property(fragmentWords, fc.array(fc.tuple(separatorArb, fragmentWords), { maxLength: 4 }), (first, rest) => {
        const fragments = [first, ...rest.map(([, words]) => words)];
        const command =
          first.map((w) => w.text).join(' ') +
          rest.map(([sep, words]) => sep + words.map((w) => w.text).join(' ')).join('');
        const tokenized = tokenize(command);
        expect(tokenized.findings, JSON.stringify(command)).toEqual([]);
        expect(
          tokenized.fragments.map((f) => f.argv),
          JSON.stringify(command),
        ).toEqual(fragments.map((words) => words.map((w) => w.value)));
      }),
      { numRuns: RUNS },
    );
  });
  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(Array.isArray(tokenize(text).fragments)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });
});
