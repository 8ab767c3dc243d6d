// RN-075 path scope (issue 9 A.3 in spirit, found by m6): a global install was judged on the
// fragment's own words only, so a wrapper in front hid it. With the wrapper or interpreter allowed,
// `env npm i -g x`, `timeout 60 pip install --user x` and `python3 -m pip install --user x` wrote
// into the user's folders and were auto-approved; so was `dotnet tool install -g x`. Every reading
// through the wrappers is judged now, pip run as a Python module is pip, and dotnet's global tool
// forms are outside the project. The local forms stay allowed.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decide } from '../../src/policy/index.ts';
import { MANUAL, ask, auto, c, runCases, terminalInput } from './adversarial-harness.ts';

const PERMS = {
  allow: ['env', 'timeout', 'nice', 'nohup', 'npm', 'pnpm', 'pip', 'python', 'python3', 'python3.12', 'dotnet'].map(
    (tool) => `Terminal(${tool}:*)`,
  ),
  deny: [],
  ask: [],
};
const SETUP = { ...MANUAL, label: 'wrappers, interpreters and installers allowed', permissions: PERMS };
const SCOPE = ask('ceiling_path_scope');
const ALLOWED = auto('permissions_allow');

runCases('RN-075 a global install behind a wrapper is outside the project', SETUP, [
  c('env npm i -g typescript', SCOPE),
  c('env CI=1 npm install --global typescript', SCOPE),
  c('env -u HOME npm i -g x', SCOPE),
  c('timeout 60 npm i -g x', SCOPE),
  c('timeout -s KILL 60 pnpm add -g x', SCOPE),
  c('nice -n 5 npm i -g x', SCOPE),
  c('nohup npm install --location=global x', SCOPE),
  c('nice -n 5 env npm install --global x', SCOPE),
  c('env pip install --user requests', SCOPE),
  c('timeout 30 pip install --target /opt/lib requests', SCOPE),
  c('env -- npm i -g x', SCOPE),
]);

runCases('RN-075 pip run as a Python module is pip', SETUP, [
  c('python -m pip install --user requests', SCOPE),
  c('python3 -m pip install --user requests', SCOPE),
  c('python3 -mpip install --user requests', SCOPE),
  c('python3 -m pip3 install --prefix=/opt requests', SCOPE),
  c('python3 -u -m pip install --break-system-packages requests', SCOPE),
  c('python3.12 -m pip install --root / requests', SCOPE),
  c('python3 -m ensurepip --user', SCOPE),
  c('env python3 -m pip install -t /opt/x requests', SCOPE),
]);

runCases('RN-075 dotnet global tools are outside the project', SETUP, [
  c('dotnet tool install -g dotnet-ef', SCOPE),
  c('dotnet tool install --global dotnet-ef', SCOPE),
  c('dotnet tool update -g dotnet-ef', SCOPE),
  c('dotnet tool install --tool-path /opt/tools dotnet-ef', SCOPE),
  c('dotnet tool install --tool-path=/opt/tools dotnet-ef', SCOPE),
  c('timeout 60 dotnet tool install -g dotnet-ef', SCOPE),
]);

runCases('RN-075 the local forms behind the same wrappers stay allowed', SETUP, [
  c('env npm i typescript', ALLOWED),
  c('timeout 60 npm ci', ALLOWED),
  c('env CI=1 pnpm add -D vitest', ALLOWED),
  c('python3 -m pip install -r requirements.txt', ALLOWED),
  c('python3 -m pip list', ALLOWED),
  c('python3 -m venv .venv', ALLOWED),
  c('python3 -m pytest -q', ALLOWED),
  c('dotnet tool install dotnet-ef', ALLOWED, { note: 'a local tool, in the project manifest' }),
  c('dotnet tool list -g', ALLOWED, { note: 'listing writes nothing' }),
  c('dotnet build', ALLOWED),
]);

describe('RN-075 property: wrappers in front of a global install never make it auto-approved', () => {
  it('any chain of env/timeout/nice/nohup before npm -g, pip --user or python -m pip --user', () => {
    const wrapper = fc.constantFrom('env', 'env CI=1', 'timeout 60', 'nice -n 5', 'nohup', 'FOO=1 env');
    const install = fc.constantFrom(
      'npm i -g x',
      'npm install --global x',
      'pnpm add -g x',
      'pip install --user x',
      'python3 -m pip install --user x',
      'dotnet tool install -g x',
    );
    fc.assert(
      fc.property(fc.array(wrapper, { maxLength: 3 }), install, (wrappers, tail) => {
        const command = [...wrappers, tail].join(' ');
        expect(decide(terminalInput(SETUP, { command })).policy, command).not.toBe('auto_approve');
      }),
    );
  });
});
