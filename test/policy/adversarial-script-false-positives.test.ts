// Issue 9 A.5, found by an attacker after A: text tools that asked for nothing. awk's `>` in a
// pattern or in parentheses is a comparison and `||` a logical or (only print's `>`/`>>`, a single
// `|`, getline < file and system() reach); sed's `/start/,/end/p` is an address range, not an s
// command with an e flag; `$?`, `$#`, `$$`, `$!` and `$-` are numbers or option letters, never a
// path. Each stays allowed when its verb is; the forms that really write, read or run still ask.
import { describe, expect, it } from 'vitest';
import { tokenize } from '../../src/policy/index.ts';
import { MANUAL, ask, auto, c, runCases } from './adversarial-harness.ts';

const TOOLS = {
  ...MANUAL,
  label: 'text tools allowed',
  permissions: {
    allow: ['Terminal(awk:*)', 'Terminal(gawk:*)', 'Terminal(sed:*)', 'Terminal(echo:*)', 'Terminal(printf:*)'],
    deny: [],
    ask: [],
  },
};
const ALLOWED = auto('permissions_allow');
const REACHES = ask('unsafe_shell_construct');

runCases('issue 9 A.5 awk comparisons and logical operators are not redirections or pipes', TOOLS, [
  c("awk 'NR > 1' f", ALLOWED),
  c("awk '$3 > 100' f", ALLOWED),
  c("awk 'length($0) > 80' f", ALLOWED),
  c("awk '/x/ || /y/' f", ALLOWED),
  c("awk 'NR > 1 { print $1 }' f", ALLOWED),
  c("awk '{ if ($1 > 2) print $2 }' f", ALLOWED),
  c("awk '{ print ($1 > $2) }' f", ALLOWED),
  c("awk '{ print $1 >= 10 }' f", ALLOWED),
  c("awk '$1 ~ /a|b/ { n++ } END { print n }' f", ALLOWED),
  c('awk -F, \'{ print "a > b | c" }\' f', ALLOWED),
  c("gawk 'NR == 1 || $2 > 0' f", ALLOWED),
  c("awk '{ x = a / 2; print x }' ../f", ask('ceiling_path_scope'), { note: 'the file is still judged' }),
]);

runCases('awk programs that reach past their input still ask', TOOLS, [
  c(`awk '{ print > "out" }' f`, REACHES),
  c(`awk '{ print $1 >> "out" }' f`, REACHES),
  c(`awk 'NR > 1 { print > ".git/config" }' f`, REACHES),
  c(`awk '{ printf("%s", $1) > "f" }' f`, REACHES),
  c(`awk '{ print | "sh" }' f`, REACHES),
  c(`awk '{ print |& "sh" }' f`, REACHES),
  c(`awk 'BEGIN { "id" | getline x; print x }'`, REACHES),
  c(`awk 'BEGIN { getline x < "../secret"; print x }'`, REACHES),
  c(`awk 'BEGIN { system("id") }'`, REACHES),
  c(`awk '{ print (1 > 0) > "f" }' f`, REACHES),
  c(`awk 'BEGIN { print ENVIRON["BRABO_RUNNER_TOKEN"] }'`, REACHES),
  c(`awk '{ print 1 \\\n > "f" }' f`, REACHES),
]);

runCases('issue 9 A.5 sed addresses are not commands', TOOLS, [
  c("sed -n '/start/,/end/p' f", ALLOWED),
  c("sed -n '/setup/,/teardown/p' f", ALLOWED),
  c("sed -n '/^end/,$p' f", ALLOWED),
  c("sed '/west/,/east/d' f", ALLOWED),
  c("sed -n '\\,/usr/e,p' f", ALLOWED),
  c("sed -E 's/(a|b)/x/g' f", ALLOWED),
  c("sed ':a;N;$!ba;s/\\n/ /g' f", ALLOWED),
  c("sed -n '/x/{p;q}' f", ALLOWED),
  c("sed 's|/usr/local|/opt|g' f", ALLOWED),
  c("sed 'a see/the w file' f", ALLOWED, { note: 'a text' }),
]);

runCases('sed programs that write, read or run still ask', TOOLS, [
  c("sed 's/[/]/x/w out' f", REACHES, { note: 'a bracket hides the delimiter' }),
  c("sed 's/a/b/ w out' f", REACHES),
  c("sed -n '/start/,/end/ w out' f", REACHES),
  c("sed '/x/s/a/b/e' f", REACHES),
  c("sed -n '1~2w out' f", REACHES),
  c("sed '\\,x,r ../secret' f", REACHES),
  c("sed -e 's/a/b/' -e 'w out' f", REACHES),
  c("sed '/x/{\np\nw out\n}' f", REACHES),
  c("sed 'y/abc/xyz/;e id' f", REACHES),
]);

runCases('issue 9 A.5 numeric shell parameters name no path', TOOLS, [
  c('echo $?', ALLOWED),
  c('echo "done: $?"', ALLOWED),
  c('echo "args: $#"', ALLOWED),
  c('echo $$', ALLOWED),
  c('echo "pid $!"', ALLOWED),
  c('echo $-', ALLOWED),
  c('printf "%s\\n" "$?"', ALLOWED),
  c('echo $? $# $$', ALLOWED),
  c('echo $HOME/x > ../out', ask('ceiling_path_scope')),
  c('echo x > ../$?', ask('ceiling_path_scope'), { note: 'the path around it still counts' }),
]);

describe('issue 9 A.5 numeric shell parameters are read as the shell passes them', () => {
  it.each([
    ['echo $? $# $$ $! $-', ['echo', '$?', '$#', '$$', '$!', '$-']],
    ['echo "done: $?"', ['echo', 'done: $?']],
    ['echo "$#" "$$" "$!" "$-"', ['echo', '$#', '$$', '$!', '$-']],
    ['test "$?" -eq 0', ['test', '$?', '-eq', '0']],
    ['echo x$?y "a$$b"', ['echo', 'x$?y', 'a$$b']],
  ])('%j -> %j', (line, argv) => {
    expect(tokenize(line).fragments.map((f) => f.argv)).toEqual([argv]);
  });
});
