// Scripts written and run, second round (mutation testing of written-scripts.ts, redirections.ts
// and analysis.ts at stop 25): which redirections print echo's text into the file (`>`, `>>`, `>|`,
// `&>`, `&>>`, `1>`; not `2>`, not `<`), which feed a shell its input (`<`, `0<`; not `3<`), a
// descriptor nobody names (`sh <&3`), the file find hands to `-exec sh {}` (any file: this was
// auto-approved), and the pipelines walked back to a shell. Each row also has its twin that runs
// no written file and stays as it was. Past the nested budget the written text is no longer read,
// and the command asks.
import { describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../src/policy/analysis.ts';
import { MAX_NESTED_CHARACTERS } from '../../src/policy/limits.ts';
import { MANUAL, ask, auto, c, deny, runCases } from './adversarial-harness.ts';

const TOOLS = 'echo printf sh bash dash cat tee sort cp cd env find nice xargs';
const PERMS = { allow: TOOLS.split(' ').map((t) => `Terminal(${t}:*)`), deny: [], ask: [] };
const SETUP = { ...MANUAL, label: 'echo, printf, find and the shells allowed', permissions: PERMS };
const ALLOWED = auto('permissions_allow');
const WRITTEN_AND_RUN = ask('unsafe_shell_construct');
const DENIED = deny('builtin_deny');

runCases('RN-075 a deny printed into a script it runs, by every redirection that prints', SETUP, [
  ...[
    "echo 'rm -rf /' 1>x.sh; sh x.sh",
    "echo 'rm -rf /' >> x.sh; sh x.sh",
    "echo 'rm -rf /' >| x.sh; sh x.sh",
    "echo 'rm -rf /' &> x.sh; sh x.sh",
    "echo 'rm -rf /' &>> x.sh; sh x.sh",
    "echo 'rm -rf /' > ./x.sh; sh x.sh/",
    "echo 'rm -rf /' > d/x.sh; sh ./d/./x.sh",
    "echo 'rm -rf /' > //x.sh; sh /x.sh",
  ].map((command) => c(command, DENIED)),
  // Through a pipe: `|&` is a pipe too, and `nice cat` passes its input on like cat.
  c("echo 'rm -rf /' |& sh", DENIED),
  c("echo 'rm -rf /' | nice cat | sh", DENIED),
  c("echo 'rm -rf /' |& cat |& sh", DENIED),
]);

runCases('RN-075 a word the shell expands is not read as written', SETUP, [
  c('echo "rm -rf /$X" > x.sh; sh x.sh', WRITTEN_AND_RUN),
  c('echo "rm -rf /$X" | sh', ask('ceiling_path_scope')),
]);

runCases('RN-075 a script written another way, or a file nobody names, asks', SETUP, [
  ...[
    // Standard error into the file: what it holds is unknown.
    "echo 'rm -rf /' 2> x.sh; sh x.sh",
    // A descriptor the shell reads its commands from.
    'echo ls > x.sh; sh <&3',
    'echo ls > x.sh; sh 0<&3',
    'echo ls > x.sh; bash -s <&4',
    // find runs whatever file it finds.
    'echo ls > x.sh; find . -name x.sh -exec sh {} \\;',
    'echo ls > x.sh; find . -exec bash ./{} +',
    "echo ls > x.sh; find . -exec sh -c 'sh {}' \\;",
    'echo ls > x.sh; find . -execdir dash {} \\;',
    'echo ls > x.sh; find . -name x.sh -exec bash -e {} +',
    'echo ls > x.sh; find . -ok sh ./{} \\;',
    'echo ls > x.sh; echo x.sh | xargs -I{} sh {}',
    "echo ls > x.sh; find . -name '*.sh' | xargs sh",
    // A glob in one of several written names may be the name run.
    'echo a > a.txt; echo x > b[x].sh; sh build.sh',
    // tee writes the file the shell reads through the pipe.
    'tee x.sh < in.txt | sh',
    'echo ls > x.sh; cat x.sh |& sh',
  ].map((command) => c(command, WRITTEN_AND_RUN)),
]);

runCases('RN-075 a file handed on by name through a variable or xargs input is outside the scope', SETUP, [
  c('echo ls > x.sh; find . -name x.sh -exec sh -c \'sh "$1"\' _ {} \\;', ask('ceiling_path_scope')),
  c('echo ls > x.sh; cat list | xargs sh', ask('ceiling_path_scope')),
]);

runCases('RN-075 a command that runs no file it writes stays as it was', SETUP, [
  ...[
    // `<` and `3<` write nothing; `sh 3< x.sh` reads its commands from standard input, not x.sh.
    "echo 'rm -rf /' < x.sh; sh x.sh",
    'echo ls > x.sh; sh 3< x.sh',
    // Another file runs.
    "echo 'rm -rf /' > x.sh; sh y.sh",
    'echo ls > x.sh; find . -name y.sh -exec cat {} \\;',
    // Only the fragments piping into the shell hand it lines; cat reads the terminal here.
    'echo ls > x.sh; echo ls | sh',
    "echo 'rm -rf /'; cat | sh",
    // sort runs nothing it reads; cat is the command, not a file named cat.
    'echo ls > x.sh; cat x.sh | sort',
    'echo ls > cat; cat x.sh | sh',
    // `--rcfile` with no file; a variable that is not BASH_ENV or ENV.
    'echo ls > x.sh; bash --rcfile',
    'echo ls > x.sh; env MY_ENV=x.sh bash -c ls',
    'echo ls > x.sh; env XBASH_ENV=x.sh bash -c ls',
    // A descriptor duplicated writes no file, not even inside .git.
    'cd .git && echo hi >&2',
    'cd .git && echo hi >&12',
    'cd .git && echo hi >&-',
  ].map((command) => c(command, ALLOWED)),
  c('echo ls > x.sh; env BASH_ENV=x.sh bash -c ls', WRITTEN_AND_RUN),
  c('echo ls > x.sh; env ENV=x.sh sh -c ls', WRITTEN_AND_RUN),
]);

// printf reuses its format for each group of arguments: a short line prints a long text.
const LONG = `printf '%s${'A'.repeat(900)}' ${Array.from({ length: 20 }, (_, i) => i).join(' ')}`;

runCases('RN-075 the nested budget counts only what is printed into files', SETUP, [
  // Printed to the terminal: the budget is untouched, and the deny in the script is read.
  c(`${LONG}; echo 'rm -rf /' > x.sh; sh x.sh`, DENIED),
  // Printed into a file: past the budget nothing more is read, and the command asks.
  c(`${LONG} > a.sh; echo 'rm -rf /' > x.sh; sh x.sh`, WRITTEN_AND_RUN),
]);

// printf's format used 16 times, each with its argument, a newline and a deny with a comment of
// 499 letters. Both readings of printf's text count (escapes rendered, and as written: `\\n` is two
// characters there): 16 × (25 + 2 × 499) = 16 368 characters, and each argument letter adds 2.
const printedInto = (args: string): string => `printf '%s\\nrm -rf / #${'A'.repeat(499)}' ${args} > a.sh; sh a.sh`;
const EXACTLY = `${'x '.repeat(8)}${'xx '.repeat(8)}`.trim(); // + 16: the budget exactly
const ONE_MORE = `${'x '.repeat(8)}${'xx '.repeat(7)}xxx`; // + 18

describe('the nested budget', () => {
  it('is the command cap', () => {
    expect(MAX_NESTED_CHARACTERS).toBe(16_384);
  });
});

runCases('RN-075 a file may hold as many characters as the nested budget, not more', SETUP, [
  c(printedInto(EXACTLY), DENIED),
  c(printedInto(ONE_MORE), WRITTEN_AND_RUN),
]);

describe('the findings name what they are', () => {
  it.each([
    ['echo ls > x.sh; echo $(sh x.sh)', 'script_written_and_run'],
    ['echo ls > x.sh; sh x.sh', 'script_written_and_run'],
    ['x=rm; $x -rf /', 'expansion_verb'],
  ])('%s: %s', (command, kind) => {
    const found = analyzeCommand(command).findings;
    expect(found.map((f) => f.kind)).toContain(kind);
    for (const f of found) expect(f.what.length).toBeGreaterThan(10);
  });
});
