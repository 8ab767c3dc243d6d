// The in-container supervisor every exec runs under. Why it exists: the Engine API cannot kill an
// exec, and a command can leave its process group (setsid), its parent (double fork) or its
// terminal (nohup). So every exec is started as
//
//   /sbin/docker-init -s -- sh -c SUPERVISOR ...
//
// docker-init is tini, bind-mounted by Docker into every container started with Init: true. With
// `-s` it is a child subreaper: whatever the command orphans is re-parented to it, never to the
// container's PID 1, so "everything this exec started" is exactly the process subtree under that
// tini, however the command detaches.
//
// The supervisor (this script) is started before the command and does all of its work with shell
// builtins (read, kill, test, globs): once the command has used up the container's pids limit it
// still kills everything, because the kill path needs no new process. It listens on the exec's
// stdin, which only the broker writes:
//   `t` (tick, every TICK_MS) - re-check whether the command is done;
//   `kill`                    - the broker's timeout: kill the whole subtree;
//   end of file               - the broker's connection is gone: kill the whole subtree.
// A timer forked before the command is the in-container backstop deadline (SIGUSR1).
//
// The exec is done when the command's main process has exited and no process of the subtree
// still holds the exec's stdout or stderr (as with `docker exec` or ssh, `cmd &` that keeps
// writing keeps the exec open). Whatever is left then (a detached daemon) is killed. The last
// stdout line is the trailer `<nonce> end <status> <reason> <confirmed>`; it is written only when
// nothing else can write any more, so a stream that ends without it was cut. fds 8 and 9 are
// fixed copies of the exec's stdout/stderr for held(): fd 1/2 of the supervisor are redirected
// at times (`2>/dev/null` on a builtin applies to the shell itself).

/** $1 nonce, $2 cwd, $3 backstop seconds, $4 the command line. (A plain template: `\${` is the shell's `${`.) */
export const SUPERVISOR = `n=$1
cd -P -- "$2" 2>/dev/null || { printf '%s missing\\n' "$n"; exit 0; }
case "$PWD" in /work|/work/*) ;; *) printf '%s outside %s\\n' "$n" "$PWD"; exit 0;; esac
echo 500 > /proc/self/oom_score_adj 2>/dev/null
t=$PPID; me=$$; k=; sig=
exec 8>&1 9>&2
trap 'sig=1' CHLD
trap 'sig=1; k=\${k:-timeout}' USR1
(trap - CHLD USR1; sleep "$3"; kill -USR1 "$me") </dev/null >/dev/null 2>&1 8>&- 9>&- &
sh -c 'echo 1000 > /proc/self/oom_score_adj 2>/dev/null; printf "%s pid %s\\n" "$1" "$$"; exec sh -c "$2"' brabo-cmd "$n" "$4" </dev/null 8>&- 9>&- &
c=$!
tree() {
  all=" $t "; procs=; more=1
  while [ -n "$more" ]; do
    more=
    for d in /proc/[0-9]*; do
      p=\${d#/proc/}
      case "$all" in *" $p "*) continue;; esac
      s=; { while IFS= read -r l || [ -n "$l" ]; do s="$s $l"; done; } 2>/dev/null < "$d/stat" || continue
      s=\${s##*) }
      set -- $s
      case "$all" in *" $2 "*) all="$all$p "; more=1; [ "$1" = Z ] || [ "$p" = "$me" ] || procs="$procs $p";; esac
    done
  done
}
held() {
  tree
  for p in $procs; do
    for f in /proc/$p/fd/*; do
      { [ "$f" -ef /proc/$me/fd/8 ] || [ "$f" -ef /proc/$me/fd/9 ]; } 2>/dev/null && return 0
    done
  done
  return 1
}
exited() {
  s=; { while IFS= read -r l || [ -n "$l" ]; do s="$s $l"; done; } 2>/dev/null < "/proc/$c/stat"
  s=\${s##*) }
  case "$s" in ''|Z*) return 0;; esac
  return 1
}
sweep() {
  i=0
  while [ $i -lt 200 ]; do
    tree
    [ -z "$procs" ] && return 0
    kill -KILL $procs 2>/dev/null
    i=$((i+1))
  done
  return 1
}
while [ -z "$k" ]; do
  if exited && ! held; then break; fi
  sig=
  if read -r msg; then
    [ "$msg" = kill ] && k=kill
  elif [ -z "$sig" ]; then
    k=eof
  fi
done
trap '' USR1
if [ -n "$k" ]; then
  sweep && ok=1 || ok=0
  printf '%s end 137 %s %s\\n' "$n" "$k" "$ok"
  exit 137
fi
wait "$c"; st=$?
sweep && ok=1 || ok=0
printf '%s end %s done %s\\n' "$n" "$st" "$ok"
exit "$st"`;

/** How often the broker asks the supervisor to re-check whether the command is done. */
export const TICK_MS = 150;

/** Where Docker mounts tini inside a container created with Init: true. */
export const DOCKER_INIT = '/sbin/docker-init';

export function supervisorCmd(nonce: string, cwd: string, backstopSeconds: string, command: string): string[] {
  return [DOCKER_INIT, '-s', '--', 'sh', '-c', SUPERVISOR, 'brabo-exec', nonce, cwd, backstopSeconds, command];
}
