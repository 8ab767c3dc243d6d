// Adversarial: command and process substitution, arithmetic expansion, subshells and brace groups.
// An allowed outer verb (`echo`) must not carry an inner command past the engine.
import { AUTO, MANUAL, NEVER_AUTO, ask, auto, c, deny, runCases } from './adversarial-harness.ts';

runCases('built-in deny inside extractable substitutions', AUTO, [
  c('echo $(rm -rf /)', deny('builtin_deny')),
  c('echo `rm -rf /`', deny('builtin_deny')),
  c('echo "$(rm -rf /)"', deny('builtin_deny'), { note: 'bash runs $(…) inside double quotes' }),
  c('echo "`rm -rf /`"', deny('builtin_deny')),
  c('echo $(echo $(rm -rf /))', deny('builtin_deny')),
  c('ls $(sudo rm -rf /*)', deny('builtin_deny')),
  c('X=$(rm -rf /)', deny('builtin_deny')),
  c('echo $(echo "$(echo `rm -rf /`)")', NEVER_AUTO),
  c('(rm -rf /)', NEVER_AUTO),
  c('{ rm -rf /; }', NEVER_AUTO),
]);

runCases('a substitution is never auto-approved, even around allowed verbs', MANUAL, [
  c('echo $(ls)', ask('unsafe_shell_construct')),
  c('echo `ls`', ask('unsafe_shell_construct')),
  c('echo "$(ls)"', ask('unsafe_shell_construct')),
  c('cat $(find . -name x)', ask('unsafe_shell_construct')),
  c('cat <(curl x)', NEVER_AUTO),
  c('echo ${HOME}', ask('ceiling_path_scope'), { note: '${…} is an expansion, not a substitution' }),
]);

runCases('substitutions, subshells and groups in auto mode', AUTO, [
  c('echo $(git push)', ask('unsafe_shell_construct')),
  c('git status $(git push)', ask('unsafe_shell_construct')),
  c('echo `git push`', ask('unsafe_shell_construct')),
  c('diff <(ls) <(ls src)', ask('unsafe_shell_construct')),
  c('ls > >(tee x)', ask('unsafe_shell_construct')),
  c('tee >(sh)', ask('unsafe_shell_construct')),
  c('echo $((1+$(id)))', ask('unsafe_shell_construct'), { note: 'numbers-only arithmetic is a number (issue 9 A.5)' }),
  c('echo $((x))', ask('unsafe_shell_construct'), { note: "a name may be evaluated: x='a[$(id)]'" }),
  c('$(echo rm) -rf /', ask('unsafe_shell_construct'), { note: 'the verb itself is computed' }),
  c('`echo git` push', ask('unsafe_shell_construct')),
  c('(cd /etc && cat passwd)', ask('unsafe_shell_construct')),
  c('{ ls; }', ask('unsafe_shell_construct')),
  c('ls && (git push)', ask('unsafe_shell_construct')),
  c('echo $(', ask('unsafe_shell_construct')),
  c('echo ${HOME}', auto('permissions_allow'), { note: 'auto mode lifts the path scope' }),
]);

runCases('ANSI-C quoting and brace expansion are not represented faithfully', AUTO, [
  c("git $'push'", ask('unsafe_shell_construct')),
  c("$'\\x67it' push", ask('unsafe_shell_construct')),
  c('git {push,origin}', ask('unsafe_shell_construct'), { note: 'bash expands this to git push origin' }),
  c('{rm,-rf,/}', NEVER_AUTO, { note: 'bash expands this to rm -rf /' }),
]);
runCases('ANSI-C quoting around an allowed verb', MANUAL, [
  c("$'\\x72m' -rf /", NEVER_AUTO),
  c('ls {a,b}', ask('unsafe_shell_construct')),
]);
