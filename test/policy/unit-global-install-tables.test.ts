// The tables of global-install-tables.ts, one row for each entry no decision row reached (issue 9,
// RN-075): every destination option of every tool, pip's long options and the exact names that are
// not abbreviations of them, conda's writers, and the config keys that make later installs global
// for npm and pip. null: the install stays in the project (or the command is a read).
import { describe, expect, it } from 'vitest';
import { globalInstall } from '../../src/policy/global-installs.ts';

describe('global-install tables, entry by entry', () => {
  it.each([
    ['uv tool install --root vendor x', null],
    ['uv tool install --target /x y', 'uv tool install --target'],
    ['uv tool install -t vendor x', null],
    ['uv tool install --prefix /opt x', 'uv tool install --prefix'],
    ['uv tool install x', 'uv tool install'],
    ['cargo-binstall --root vendor x', null],
    ['cargo-binstall --install-path vendor x', null],
    ['cargo-binstall --install-path /opt x', 'cargo-binstall --install-path'],
    ['stack install --local-bin-path bin', null],
    ['stack install --local-bin-path /usr/bin', 'stack install --local-bin-path'],
    ['stack install', 'stack install'],
    ['pip install --target /x y', 'pip --target'],
    ['pip install --prefix /opt y', 'pip --prefix'],
    ['pip install --root /r y', 'pip --root'],
    ['pip install --tar /x y', 'pip --tar'],
    ['pip install --pref /x y', 'pip --pref'],
    ['pip install --ro /x y', 'pip --ro'],
    ['pip install --pre x', null],
    ['pip install --pre /tmp/x.whl', null],
    ['pip install --pre --target /x y', 'pip --target'],
    ['pip install --progress-bar off x', null],
    ['pip install --proxy http://p x', null],
    ['pip install --root-user-action ignore x', null],
    ['pip install --requirement r.txt', null],
    ['pip install --pr x', null],
    ['pip install --req r.txt', null],
    ['conda update x', 'conda update'],
    ['conda upgrade x', 'conda upgrade'],
    ['conda remove x', 'conda remove'],
    ['conda uninstall x', 'conda uninstall'],
    ['conda clean -a', 'conda clean'],
    ['conda init', 'conda init'],
    ['conda list', null],
    ['conda update -p ./env x', null],
    ['conda env create -f e.yml', 'conda env'],
    ['conda env update -f e.yml', 'conda env'],
    ['conda env remove -n x', 'conda env'],
    ['conda env list', null],
    ['conda config --append channels x', 'conda config'],
    ['conda config --add channels x', 'conda config'],
    ['conda config --remove channels x', 'conda config'],
    ['conda config --remove-key channels', 'conda config'],
    ['conda config --prepend channels x', 'conda config'],
    ['conda config --show', null],
    // Every `npm config set` writes the user's ~/.npmrc; the project's .npmrc only for these keys.
    ['npm config set --location=project prefix /x', 'npm config set prefix'],
    ['npm config set --location=project global-dir /x', 'npm config set global-dir'],
    ['npm config set --location=project global-bin-dir /x', 'npm config set global-bin-dir'],
    ['npm config set --location=project prefix=/x', 'npm config set prefix'],
    ['npm config set --location=project global true', 'npm config set global'],
    ['npm config set --location=project location=user', 'npm config set location'],
    ['npm config set --location=project color false', null],
    ['npm config set color false', 'npm config set color'],
    ['pip config set global.target /x', 'pip config set global.target'],
    ['pip config set install.prefix /x', 'pip config set install.prefix'],
    ['pip config set global.root /x', 'pip config set global.root'],
    ['pip config set global.break-system-packages true', 'pip config set global.break-system-packages'],
    // pip.conf is the user's (or the system's) whatever the key.
    ['pip config set global.timeout 5', 'pip config set global.timeout'],
  ] as [string, string | null][])('%s -> %j', (line, word) => {
    expect(globalInstall(line.split(' '), 0)).toBe(word);
  });
});
