// Programs that run commands named in their arguments rather than after their options: `find
// -exec CMD ;` (and `-delete`, read as rm) and `ssh host CMD`, whose remote line and local
// ProxyCommand are command lines for a shell. unwrap() (wrappers.ts) reads them as readings.
import { optionTable, stepOption } from './options.ts';

const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/**
 * `find … -exec CMD … ;` / `-exec CMD … {} +`: the commands find runs. `-delete` removes what
 * it finds: it is read as `rm -f {}`, so it needs rm allowed like any other deletion. One scan.
 */
export function findExecs(view: readonly string[]): string[][] {
  const found: string[][] = [];
  let i = 1;
  while (i < view.length) {
    if (view[i] === '-delete') found.push(['rm', '-f', '{}']);
    if (!FIND_EXEC.has(view[i]!)) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < view.length && view[j] !== ';' && !(view[j] === '+' && view[j - 1] === '{}')) j++;
    if (j > i + 1) found.push(view.slice(i + 1, j));
    i = j + 1;
  }
  return found;
}

const SSH_OPTIONS = optionTable(
  '-b -B -c -D -E -e -F -I -i -J -L -l -m -O -o -p -Q -R -S -W -w',
  '-4 -6 -A -a -C -f -G -g -K -k -M -N -n -q -s -T -t -V -v -X -x -Y -y',
);
/** `-o` keys whose value is a command ssh runs on this machine. */
const SSH_LOCAL_COMMANDS = new Set(['proxycommand', 'localcommand', 'knownhostscommand']);

/**
 * `ssh [opts] host [opts] CMD…`: the remote command line (the words joined, as the remote shell
 * reads them), and commands ssh runs locally (`-o ProxyCommand=…`). ssh reads options again
 * after the host, so they are skipped there too. Unknown options are read as flags: ssh refuses
 * to start with an option it does not know.
 */
export function sshReadings(view: readonly string[], commandStrings: string[]): void {
  let host = false;
  let i = 1;
  while (i < view.length) {
    const word = view[i]!;
    const option = word.startsWith('-o') ? (word.length > 2 ? word.slice(2) : view[i + 1]) : undefined;
    if (option !== undefined) {
      const cut = option.search(/[= ]/);
      if (cut > 0 && SSH_LOCAL_COMMANDS.has(option.slice(0, cut).toLowerCase()))
        commandStrings.push(option.slice(cut + 1));
    }
    const step = stepOption(view, i, SSH_OPTIONS);
    if (step.kind === 'skip') i = step.next;
    else if (step.kind === 'unknown') i++;
    else if (!host) {
      host = true;
      i++;
    } else {
      commandStrings.push(view.slice(i).join(' '));
      return;
    }
  }
}
