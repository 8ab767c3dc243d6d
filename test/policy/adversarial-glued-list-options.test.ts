// Issue 9 A.3: a list part that is itself a glued short option. `gcc -Wl,-o.git` hands the linker
// `-o.git`, which writes `.git` (in a linked worktree or a submodule, the `gitdir:` file git reads
// its config from). Lists (`a,b`) and glued options (`-oF`) were each read, but not a glued
// option inside a list, so these were auto-approved in auto mode.
import { ISSUE9_AUTO, ask, auto, c, runCases } from './adversarial-harness.ts';

const PROTECTED = ask('protected_file_write');

runCases('issue 9 A.3 a glued option inside a list names a protected path', ISSUE9_AUTO, [
  c('gcc -Wl,-o.git main.c', PROTECTED),
  c('cc -Wl,-o.git main.o', PROTECTED),
  c('clang -Wl,-o.git main.c', PROTECTED),
  c('gcc -Wl,-o.git,-Map=x.map main.c', PROTECTED),
  c('gcc -Wa,-o.git main.s', PROTECTED),
  c('mytool -Wl,-O.GIT', PROTECTED, { note: 'case-insensitive filesystems' }),
  c('mytool -x.git,y', PROTECTED),
  c('mytool a,-o.git', PROTECTED),
  c('mytool a:-o.git', PROTECTED),
  c('mytool k=-o.git', PROTECTED),
  c('mytool -Wl,-C.git', PROTECTED),
  c('mytool -Wl,-o.gi[t]', PROTECTED, { note: 'a glob that could be .git' }),
  c('mytool -Wl,-o.gi?/hooks/pre-commit', PROTECTED),
]);

runCases('issue 9 A.3 list parts that name no protected path stay allowed', ISSUE9_AUTO, [
  c('gcc -Wl,-ox main.c', auto()),
  c('gcc -Wl,-Map=out.map main.c', auto()),
  c('gcc -Wl,--gc-sections main.c', auto()),
  c('gcc -Wl,-rpath,/usr/lib main.c', auto()),
  c('mytool -Wl,-o.gitx', auto()),
  c('mytool a,-o', auto()),
]);
