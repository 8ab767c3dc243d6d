// The data globalInstall() reads (global-installs.ts): which subcommands of which tools write
// into the user's or the system's folders. A key is the subcommand's words joined by `_`; a
// trailing `+` asks for one more word (`rustup default` alone only prints the default).

const table = (entries: Record<string, string>): ReadonlyMap<string, ReadonlySet<string>> =>
  new Map(Object.entries(entries).map(([tool, subs]) => [tool, new Set(subs.split(' '))]));

/**
 * Subcommands that write outside the project by default: ~/.cargo, ~/go, the gem home,
 * Homebrew's prefix, ~/.rustup, the version managers' homes, ~/.pub-cache, ~/.nix-profile,
 * ~/.cabal, ~/.local/bin, the opam switch, the system's Lua tree, kubectl's and helm's plugins,
 * the gcloud SDK, ~/.dotnet, pdm/rye/proto/pixi/pnpm/bun/deno/uv's own, gh's extensions; and the
 * logins and config writes that land in the home folder: cargo's, yarn's, gh's, docker's, aws's, gcloud's
 * (their kubeconfig and docker credential writes too), the keyring's.
 */
export const HOME_WRITERS = table({
  cargo: 'install uninstall binstall install-update login logout',
  go: 'install',
  gem: 'install uninstall update cleanup',
  brew:
    'install reinstall upgrade uninstall remove rm tap untap link unlink update cleanup autoremove pin unpin bundle ' +
    'services+',
  rustup:
    'install uninstall update default+ set toolchain_install toolchain_uninstall toolchain_link component_add ' +
    'component_remove target_add target_remove self_update self_uninstall override_set override_unset',
  volta: 'install uninstall fetch setup',
  mise: 'install uninstall use upgrade prune self-update plugins_install plugins_uninstall plugins_update',
  asdf: 'install uninstall global reshim plugin_add plugin_remove plugin_update',
  composer: 'global+',
  poetry: 'self+',
  corepack: 'enable disable',
  gh:
    'extension_install extension_upgrade extension_remove ext_install ext_upgrade ext_remove auth_login auth_logout ' +
    'auth_refresh auth_switch auth_setup-git config_set alias_set alias_delete alias_import',
  docker:
    'login logout context_create context_update context_use context_rm context_remove context_import ' +
    'buildx_install buildx_uninstall buildx_create buildx_use buildx_rm',
  aws: 'configure sso_login sso_logout eks_update-kubeconfig codeartifact_login',
  keyring: 'set del',
  uv: 'tool_install tool_upgrade tool_uninstall tool_update-shell python_install python_uninstall self_update',
  pipx: 'install uninstall upgrade upgrade-all reinstall reinstall-all inject ensurepath',
  bun: 'upgrade',
  deno: 'upgrade',
  pnpm: 'setup self-update env_use env_add env_remove env_rm',
  dart: 'pub_global_activate pub_global_deactivate',
  flutter: 'pub_global_activate pub_global_deactivate upgrade',
  fnm: 'install uninstall default alias',
  pyenv: 'install uninstall global rehash update',
  rbenv: 'install uninstall global rehash',
  nix: 'profile_install profile_add profile_remove profile_upgrade profile_rollback profile_wipe-history',
  cabal: 'install v2-install',
  stack: 'install',
  opam: 'install reinstall remove uninstall upgrade init switch update pin',
  luarocks: 'install remove purge make build',
  helm: 'plugin_install plugin_uninstall plugin_update',
  kubectl: 'krew_install krew_uninstall krew_upgrade krew_update',
  gcloud:
    'components_install components_remove components_update components_reinstall auth_login auth_revoke ' +
    'auth_activate-service-account auth_application-default_login config_set config_unset ' +
    'config_configurations_create config_configurations_activate config_configurations_delete ' +
    'config_configurations_rename init auth_configure-docker auth_application-default_revoke ' +
    'auth_application-default_set-quota-project container_clusters_get-credentials',
  dotnet: 'workload_install workload_update workload_uninstall workload_repair new_install new_uninstall',
  pdm: 'self_add self_remove self_update',
  rye: 'install uninstall fetch self_update self_uninstall toolchain_fetch',
  proto: 'install uninstall upgrade setup clean plugin_add',
  pixi: 'global+',
  // yarn 1 writes ~/.yarnrc; yarn 2+ the project's .yarnrc.yml unless -H, which no word here tells apart.
  yarn: 'global+ config_set config_delete config_unset login logout npm_login npm_logout',
  jupyter: 'labextension_install labextension_uninstall labextension_link labextension_unlink',
});

/** The next word that makes a home writer only read (`composer global show`, `brew services list`). */
export const READS_AFTER = table({
  'composer global':
    'show list outdated licenses why why-not depends prohibits search validate status fund audit suggests home about',
  'poetry self': 'show',
  'pixi global': 'list',
  'brew bundle': 'check list',
  'brew services': 'list info',
  'aws configure': 'get list list-profiles export-credentials',
});

/** Tools whose listed subcommands write outside the project when told `-g`/`--global` (or a tool path). */
export const GLOBAL_FLAGGED = table({
  bun: 'add a install i remove rm update link unlink',
  deno: 'install i uninstall',
  dotnet: 'tool_install tool_update tool_uninstall',
});

/** Options naming where an install goes: a plain relative value (`-t vendor`) is left to the path scope. */
export const DESTINATIONS = table({
  pip: '-t --target --prefix --root',
  uv: '-t --target --prefix --root',
  cargo: '--root',
  'cargo-binstall': '--root --install-path',
  gem: '-i --install-dir',
  deno: '--root',
  dotnet: '--tool-path',
  conda: '-p --prefix',
  luarocks: '--tree',
  cpanm: '-l -L --local-lib --local-lib-contained',
  stack: '--local-bin-path',
  cabal: '--installdir',
});

/** Tools that install outside whatever their words (`cargo-binstall x`, `cpanm Foo`). */
export const ALWAYS = new Set(['cargo-binstall', 'cpanm']);

/**
 * pip's options that install outside the project whatever their value, as long names optparse also
 * takes abbreviated. Its destinations (`--target`, `--prefix`, `--root`) are in DESTINATIONS: those
 * stay in when their value is a plain relative path.
 */
export const PIP_OUTSIDE = ['--user', '--break-system-packages', '--system'];
/**
 * pip's own options that are also a prefix of one of the names above or of a destination, so not
 * an abbreviation of it: `--pre` is pre-releases, not `--prefix`. (`--proxy`, `--progress-bar`,
 * `--requirement` are no prefix of any of them and need no entry.)
 */
export const PIP_EXACT = new Set(['--pre']);

/** conda's writers, with the second word for `env` and the options for `config` that write. */
export const CONDA_LIKE = new Set(['conda', 'mamba', 'micromamba']);
export const CONDA_WRITERS = new Set([
  'install',
  'update',
  'upgrade',
  'remove',
  'uninstall',
  'create',
  'clean',
  'init',
]);
export const CONDA_ENV_WRITERS = new Set(['create', 'update', 'remove']);
export const CONDA_CONFIG_WRITES = ['--set', '--append', '--add', '--remove', '--remove-key', '--prepend'];

/** npm's config keys that make later installs global, even in the project's .npmrc (`npm config set --location=project prefix /x`). */
export const NPM_GLOBAL_KEYS = new Set(['global', 'location', 'prefix', 'global-dir', 'global-bin-dir']);
