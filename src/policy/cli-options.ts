// One table of global options per CLI (issue 9 A.4): the options a CLI takes before its
// subcommand, as `optionTable(valued, flags)`. The external-effect ceilings (`git -C x push`)
// and deny/ask matching (`git --no-pager reset --hard` past deny `git reset --hard`, `docker
// --context prod rm -f api` past deny `docker rm`) both read these, so the two never disagree.
import { optionTable, stepOption } from './options.ts';
import type { OptionTable } from './options.ts';

/** A CLI whose global options all take no value. */
// Stryker disable next-line StringLiteral: any text here only names valued options that do not start with '-' ("Stryker was here!"), and stepOption ends at such a word before it reads the table.
const flagsOnly = (flags: string): OptionTable => optionTable('', flags);

export const CLI_GLOBAL_OPTIONS: ReadonlyMap<string, OptionTable> = new Map<string, OptionTable>([
  [
    'git',
    optionTable(
      '-C -c --git-dir --work-tree --namespace --config-env --super-prefix --exec-path --list-cmds --attr-source',
      '-p -P --paginate --no-pager --bare --no-replace-objects --literal-pathspecs --glob-pathspecs --noglob-pathspecs --icase-pathspecs --no-optional-locks --no-lazy-fetch --no-advice --html-path --man-path --info-path --version --help -v -h',
    ),
  ],
  ['gh', optionTable('-R --repo', '--help --version')],
  ['glab', optionTable('-R --repo', '--help --version')],
  [
    'kubectl',
    optionTable(
      '-n --namespace --context --cluster --user --kubeconfig -s --server --token --as --as-group --as-uid --certificate-authority --client-certificate --client-key --cache-dir --request-timeout --tls-server-name -v --v --vmodule --log-dir --log-file --profile --profile-output --password --username',
      '--insecure-skip-tls-verify --match-server-version --warnings-as-errors --disable-compression',
    ),
  ],
  [
    'helm',
    optionTable(
      '-n --namespace --kube-context --kubeconfig --registry-config --repository-cache --repository-config --burst-limit --kube-apiserver --kube-as-user --kube-as-group --kube-ca-file --kube-token --kube-tls-server-name --qps',
      '--debug --kube-insecure-skip-tls-verify',
    ),
  ],
  ['terraform', flagsOnly('-help -version -v --help --version')],
  ['tofu', flagsOnly('-help -version -v --help --version')],
  [
    'docker',
    optionTable(
      '-H --host -c --context --config -l --log-level --tlscacert --tlscert --tlskey',
      '-D --debug --tls --tlsverify --help -v --version',
    ),
  ],
  [
    'podman',
    optionTable('--url -c --connection --identity --log-level --root --runroot', '--remote -r --help -v --version'),
  ],
  [
    'npm',
    optionTable(
      '--registry --otp --tag --access -w --workspace --prefix --userconfig --cache --loglevel',
      '-g --global -s --silent -q --quiet -d --verbose --ws --workspaces --dry-run -y --yes --force -f --json',
    ),
  ],
  [
    'pnpm',
    optionTable(
      '--registry --otp --tag --access -C --dir --filter -F --loglevel --reporter',
      '-r --recursive -s --silent --dry-run --json --no-git-checks -g --global --stream --parallel -w --workspace-root',
    ),
  ],
  ['yarn', optionTable('--registry --otp --tag --access --cwd', '-s --silent --verbose --json')],
  [
    'bun',
    optionTable(
      // `-c/--config` is in neither list: its value is optional, so both readings are made
      // (`bun -c x git push` runs `bun x git push`; `bun -c bunfig.toml x …` runs a file).
      '--cwd --env-file --preload -r --install --tsconfig-override --define -d --loader -l --conditions',
      '--bun -b --silent --smol --watch --hot --no-install -i --no-clear-screen --verbose',
    ),
  ],
  [
    'cargo',
    optionTable(
      '--color --config -Z -C',
      '-v -vv --verbose -q --quiet --locked --offline --frozen --help -h --version -V',
    ),
  ],
  ['gem', flagsOnly('--help -h --version -V')],
  [
    'aws',
    optionTable(
      '--profile --region --output --endpoint-url --query --cli-read-timeout --cli-connect-timeout --ca-bundle --color',
      '--debug --no-verify-ssl --no-paginate --no-sign-request --no-cli-pager',
    ),
  ],
  [
    'gcloud',
    optionTable(
      '--project --account --configuration --verbosity --format --impersonate-service-account --billing-project',
      '--quiet -q --no-user-output-enabled --log-http',
    ),
  ],
  ['az', optionTable('--subscription --output -o --query', '--debug --verbose --only-show-errors')],
]);

/**
 * Every index where a CLI's subcommand may start once its global options are skipped (argv[0]
 * is the CLI). An unknown option is read both ways, as a flag and as taking a value, so a deny
 * sees every reading; one scan, each index visited once.
 */
export function subcommandStarts(argv: readonly string[], table: OptionTable): number[] {
  const reachable = new Uint8Array(argv.length + 2);
  reachable[1] = 1;
  const starts: number[] = [];
  for (let i = 1; i < argv.length; i++) {
    if (reachable[i] !== 1) continue;
    // `--` is a skip to the next word; a skip's next is at most i + 2, inside the array.
    const step = stepOption(argv, i, table);
    if (step.kind === 'end') starts.push(i);
    else if (step.kind === 'skip') reachable[step.next] = 1;
    else {
      reachable[i + 1] = 1;
      reachable[i + 2] = 1;
    }
  }
  return starts;
}
