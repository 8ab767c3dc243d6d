// Installs outside the project through a variable another fragment exports (RN-075, issue 9 A.3,
// left open at stop 20): `export npm_config_global=true; npm i x` installed into the global
// folder with `npm i x` allowed, because only the install fragment's own assignments were read.
// Every fragment's `export`/`declare -x`/`typeset`/`local`/`readonly` and bare assignment of an
// installer's variable now counts for every install of the command.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/index.ts';
import { MANUAL, ask, auto, c, runCases, terminalInput } from './adversarial-harness.ts';

const ALLOWED = [
  'export',
  'declare',
  'typeset',
  'local',
  'readonly',
  'npm',
  'pnpm',
  'pip',
  'pip3',
  'uv',
  'echo',
  'ls',
  'cd',
];
const SETUP = {
  ...MANUAL,
  label: 'export and the installers allowed',
  permissions: { allow: ALLOWED.map((v) => `Terminal(${v}:*)`), deny: [], ask: [] },
};
const SCOPE = ask('ceiling_path_scope');
/** A bare assignment is a fragment no rule allows: it asks before any ceiling is reached. */
const expected = (exported: string) => (/^[A-Za-z_]+=/.test(exported) ? ask() : SCOPE);

const EXPORTS = [
  'export npm_config_global=true',
  'export NPM_CONFIG_GLOBAL=1',
  'export npm_config_location=global',
  'export npm_config_location=user',
  'declare -x npm_config_global=true',
  'typeset -x npm_config_global=yes',
  'export A=1 npm_config_global=true B=2',
  'export npm_config_global+=true',
  'npm_config_global=true',
  'readonly npm_config_global=true',
];
const NPM_INSTALLS = ['npm i x', 'npm install x', 'npm add x', 'pnpm add x', 'npm link', 'cd src && npm i x'];

const PIP_EXPORTS = [
  'export PIP_USER=1',
  'export PIP_USER=true',
  'export pip_user=yes',
  'export PIP_BREAK_SYSTEM_PACKAGES=1',
  'export PIP_TARGET=/tmp/lib',
  'export PIP_PREFIX=/usr/local',
  'export PIP_ROOT=/',
  'declare -x PIP_USER=1',
  'PIP_USER=1',
  'local -x PIP_TARGET=~/lib',
];
const PIP_INSTALLS = ['pip install x', 'pip3 install -r requirements.txt', 'pip install --upgrade x'];
const UV_EXPORTS = [
  'export UV_SYSTEM_PYTHON=1',
  'export UV_BREAK_SYSTEM_PACKAGES=true',
  'declare -x UV_SYSTEM_PYTHON=1',
];

describe('RN-075 an installer variable exported by another fragment', () => {
  runCases(
    'npm and pnpm read npm_config_global and npm_config_location from the environment',
    SETUP,
    EXPORTS.flatMap((e) => NPM_INSTALLS.flatMap((i) => [c(`${e}; ${i}`, expected(e)), c(`${e} && ${i}`, expected(e))])),
  );
  runCases(
    'pip reads PIP_USER, PIP_TARGET, PIP_PREFIX, PIP_ROOT and PIP_BREAK_SYSTEM_PACKAGES',
    SETUP,
    PIP_EXPORTS.flatMap((e) => PIP_INSTALLS.map((i) => c(`${e}; ${i}`, expected(e)))),
  );
  runCases(
    'uv pip reads UV_SYSTEM_PYTHON and UV_BREAK_SYSTEM_PACKAGES',
    SETUP,
    UV_EXPORTS.map((e) => c(`${e}; uv pip install x`, SCOPE)),
  );
  runCases('also in a nested command line or after the install', SETUP, [
    c("sh -c 'export npm_config_global=true'; npm i x", ask()),
    c('npm i x; export npm_config_global=true; npm i y', SCOPE),
    c('export npm_config_global=true\nnpm i x', SCOPE),
  ]);
});

describe('what does not send an install outside stays allowed', () => {
  runCases('false values, in-project targets, other variables', SETUP, [
    c('export npm_config_global=false; npm i x', auto('permissions_allow')),
    c('export npm_config_location=project; npm i x', auto('permissions_allow')),
    c('export PIP_TARGET=vendor; pip install x', auto('permissions_allow')),
    c('export PIP_USER=0; pip install x', auto('permissions_allow')),
    c('export NODE_ENV=production; npm i x', auto('permissions_allow')),
    c('export npm_config_global=true; ls', auto('permissions_allow')),
    c('npm i x', auto('permissions_allow')),
    c('echo npm_config_global=true; npm i x', auto('permissions_allow'), { note: 'echo exports nothing' }),
    c('export PIP_USER=1; uv pip install x', auto('permissions_allow'), {
      note: 'uv reads UV_ variables, not PIP_ ones',
    }),
  ]);
});

describe('RN-075 property: an exported installer variable anywhere in the command is read', () => {
  it('any export, separator, filler fragment and install', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...EXPORTS),
        fc.constantFrom(...NPM_INSTALLS),
        fc.constantFrom('; ', ' && ', '\n', ' || '),
        fc.constantFrom('', 'ls; ', 'echo hi && '),
        fc.boolean(),
        (exported, install, sep, filler, installFirst) => {
          const command = installFirst
            ? `${filler}${install}${sep}${exported}`
            : `${filler}${exported}${sep}${install}`;
          const d = decide(terminalInput(SETUP, { command }));
          expect(d.policy, `${command}: ${d.reason}`).not.toBe('auto_approve');
        },
      ),
      { numRuns: 300 },
    );
  });
});
