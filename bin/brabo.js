#!/usr/bin/env node
// brabo, as installed from the brabo-gateway package: the JavaScript built into dist/ (npm run
// build) on the Node that runs this file. Needs Node >= 22.0; installs nothing. From a checkout,
// ./bin/brabo runs the TypeScript sources and installs what it needs.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22) {
  process.stderr.write(
    `brabo: node_too_old: this is Node ${process.versions.node}, brabo needs Node >= 22; install Node 24 (https://nodejs.org or your package manager) and run again\n`,
  );
  process.exit(1);
}
// What Node 22.13 has by default, older Node 22 has behind flags: require() of an ES module (the
// HTTP server's dependencies need it; default from 22.12) and node:sqlite (from 22.5, default
// from 22.13; before 22.6 only the Postgres store works, src/store/sqlite-support.ts says why).
const flags = [];
if (major === 22 && minor < 12) flags.push('--experimental-require-module');
if (major === 22 && minor >= 5 && minor < 13) flags.push('--experimental-sqlite');
const missing = flags.filter((flag) => !process.execArgv.includes(flag));
if (missing.length > 0) {
  const { reexecWith } = await import('./reexec.js');
  reexecWith(missing);
} else {
  // Like bin/brabo's --disable-warning=ExperimentalWarning: Node 22 calls node:sqlite
  // experimental, which is noise for a user; every other warning is still printed, once.
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    if (warning.name !== 'ExperimentalWarning') process.stderr.write(`${warning.name}: ${warning.message}\n`);
  });
  const { runCli } = await import('../dist/src/cli.js');
  runCli(process.argv.slice(2));
}
