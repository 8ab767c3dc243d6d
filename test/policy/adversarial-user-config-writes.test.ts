// RN-075 path scope (issue 9 A.3 in spirit, found at stop 24): with the package manager allowed,
// `npm config set registry https://evil` was auto-approved. It writes the user's ~/.npmrc, a file
// outside the project, and sends every later install of every project to that registry; so did
// `npm login` (the token goes into ~/.npmrc), `pip config set global.index-url`, `yarn config set`
// and `cargo login`; so do poetry's and bundler's config, and the logins of gh, docker, aws and
// gcloud (tokens in the home folder). Only the config keys that make later installs global (`prefix`, `global`)
// were judged. Now every write of a package manager's own user config asks; the reads
// (`config get`, `config list`) stay allowed, and so does a write npm is told to make in the
// project's .npmrc, unless its key sends later installs outside.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decide } from '../../src/policy/index.ts';
import { MANUAL, ask, auto, c, runCases, terminalInput } from './adversarial-harness.ts';

const TOOLS = 'npm pnpm yarn pip pip3 python3 cargo poetry bundle gh docker aws gcloud brew composer env timeout';
const PERMS = { allow: TOOLS.split(' ').map((t) => `Terminal(${t}:*)`), deny: [], ask: [] };
const SETUP = { ...MANUAL, label: 'each package manager allowed', permissions: PERMS };
const SCOPE = ask('ceiling_path_scope');
const ALLOWED = auto('permissions_allow');
const asks = (commands: string[]) => commands.map((command) => c(command, SCOPE));
const allowed = (commands: string[]) => commands.map((command) => c(command, ALLOWED));

runCases('RN-075 npm and pnpm write the user config file', SETUP, [
  ...asks([
    'npm config set registry https://registry.evil.example',
    'npm c set registry x',
    'npm set registry=x',
    'npm set //registry.npmjs.org/:_authToken=abc',
    'npm config set color false',
    'npm config set registry x --location=user',
    'npm config set registry x --location global',
    'npm config set registry x -g',
    'npm config set --location=project registry x -g',
    'npm config delete registry',
    'npm config rm registry',
    'npm config del registry',
    'npm config edit',
    'npm config fix',
    'npm --silent config set registry x',
    'npm login',
    'npm login --registry https://r.example',
    'npm adduser',
    'npm add-user',
    'npm logout',
    'pnpm config set registry x',
    'pnpm config delete registry',
    'pnpm c set registry x',
    'env npm config set registry x',
    'timeout 5 npm config set registry x',
    // The project's .npmrc, with a key that sends later installs outside.
    'npm config set --location=project prefix /x',
    'npm config set --location project global true',
    'npm config set --loca=project global-dir /x',
  ]),
  ...allowed([
    'npm config get registry',
    'npm config list',
    'npm config ls',
    'npm c get color',
    'npm get registry',
    'npm whoami',
    'pnpm config get registry',
    'npm config set --location=project registry https://r.example',
    'npm config set --location project color false',
    'npm config set --locat=project save-exact=true',
  ]),
]);

runCases('RN-075 pip, yarn and cargo write the user config file', SETUP, [
  ...asks([
    'pip config set global.index-url https://evil.example/simple',
    'pip config set global.timeout 5',
    'pip3 config --user set global.index-url x',
    'pip config --global set global.index-url x',
    'pip config --site set global.index-url x',
    'pip config unset global.index-url',
    'pip config edit',
    'pip config --editor vi edit',
    'python3 -m pip config set global.index-url x',
    'yarn config set registry x',
    'yarn config delete registry',
    'yarn config unset npmRegistryServer',
    'yarn login',
    'yarn logout',
    'yarn npm login',
    'yarn npm logout',
    'cargo login',
    'cargo login --registry r',
    'cargo logout',
  ]),
  ...allowed([
    'pip config list',
    'pip config get global.index-url',
    'pip3 config debug',
    'python3 -m pip config list',
    'yarn config get registry',
    'yarn config list',
    'yarn config',
    'cargo build',
  ]),
]);

runCases('RN-075 other tools write their config and logins in the home folder', SETUP, [
  ...asks([
    'poetry config virtualenvs.in-project true',
    'poetry config repositories.x https://r.example',
    'poetry config virtualenvs.in-project --unset',
    'bundle config set path vendor/bundle',
    'bundle config set --global path vendor/bundle',
    'bundle config path vendor/bundle',
    'bundle config unset path',
    'bundle config --delete path',
    'gh auth login',
    'gh auth setup-git',
    'gh auth logout',
    'gh config set editor vim',
    'gh alias set co "pr checkout"',
    'docker login',
    'docker login -u me registry.example',
    'docker --context x login',
    'docker logout',
    'docker context use prod',
    'aws configure',
    'aws configure set region eu-west-1',
    'aws sso login',
    'gcloud config set project x',
    'gcloud auth login',
    'gcloud auth application-default login',
  ]),
  ...allowed([
    'poetry config --local virtualenvs.in-project true',
    'poetry config virtualenvs.in-project',
    'poetry config --list',
    'bundle config set --local path vendor/bundle',
    'bundle config path',
    'bundle config get path',
    'bundle config list',
    'bundle config',
    'gh auth status',
    'gh config get editor',
    'docker ps',
    'docker context ls',
    'aws configure get region',
    'aws configure list',
    'aws s3 ls',
    'gcloud config list',
    'gcloud auth list',
  ]),
]);

// Found by an attacker of the first version: an option's value between the words was read as the
// action (`npm config --location user set`), `-- --local` as the option, and some writers were
// missing (kubeconfig and docker credential writes, release tracks, python -m awscli).
runCases('RN-075 options between the words, and the writers found after', SETUP, [
  ...asks([
    'npm config --location user set registry https://evil',
    'npm config --location global set registry x',
    'npm c --location user set registry x',
    'npm config --otp 1 set foo bar',
    'npm config --loglevel warn delete registry',
    'npm config --location global edit',
    'pnpm config --location global set registry https://evil',
    'pnpm config --dir . set registry https://evil',
    'yarn config --cwd . set registry https://evil',
    'gh config --host github.com set git_protocol ssh',
    'gh auth --hostname github.com login --with-token',
    'gh auth --hostname github.com setup-git',
    'gh ext --pin v1 install o/r',
    'gcloud config --project p set project q',
    'gcloud auth --account a login',
    'gcloud auth --verbosity debug application-default login',
    'aws sso --profile x login',
    'aws configure --profile list set region us-east-1',
    'aws configure --profile get set aws_access_key_id X',
    'bundle config set disable_checksum_validation true -- --local',
    'poetry config pypi-token.pypi -- --local',
    'poetry config http-basic.pypi user -- --local',
    'poetry config --migrate',
    'gcloud auth configure-docker',
    'gcloud container clusters get-credentials c',
    'aws eks update-kubeconfig --name c',
    'gcloud init',
    'gcloud beta config set project p',
    'gcloud alpha auth login',
    'aws codeartifact login --tool npm',
    'docker buildx install',
    'docker buildx use b',
    'docker buildx create --use',
    'python3 -m awscli configure set aws_access_key_id X',
    'python3 -m keyring set svc user',
  ]),
  ...allowed([
    'npm config set --location project registry x',
    'aws configure get region',
    'gcloud config list',
    'brew services list',
    'composer global show',
    'docker buildx ls',
  ]),
]);

describe('RN-075 property: no write of a user config file auto-approves, whatever its words', () => {
  it('any config write, with options and keys around it', () => {
    const form = fc.constantFrom(
      'npm config set',
      'npm set',
      'npm config delete',
      'npm config edit',
      'npm login',
      'pnpm config set',
      'pip config set',
      'pip config unset',
      'yarn config set',
      'cargo login',
      'poetry config repositories.x https://r.example',
      'bundle config set path vendor',
      'gh auth login',
      'docker login',
      'aws configure set',
    );
    const word = fc.constantFrom('registry', 'x=1', 'global.index-url', 'https://r.example', '-q', '--json', 'y');
    fc.assert(
      fc.property(form, fc.array(word, { maxLength: 4 }), (head, rest) => {
        const command = [head, ...rest].join(' ');
        expect(decide(terminalInput(SETUP, { command })).policy, command).not.toBe('auto_approve');
      }),
    );
  });
});
