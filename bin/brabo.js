#!/usr/bin/env node
// brabo, as installed from the brabo-gateway package: the JavaScript built into dist/ (npm run
// build) on the Node that runs this file. Needs Node >= 22.18; installs nothing. From a
// checkout, ./bin/brabo runs the TypeScript sources and installs what it needs.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  process.stderr.write(
    `brabo: node_too_old: this is Node ${process.versions.node}, brabo needs Node >= 22.18; install Node 24 (https://nodejs.org or your package manager) and run again\n`,
  );
  process.exit(1);
}
// Like bin/brabo's --disable-warning=ExperimentalWarning: Node 22 calls node:sqlite
// experimental, which is noise for a user; every other warning is still printed, once.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name !== 'ExperimentalWarning') process.stderr.write(`${warning.name}: ${warning.message}\n`);
});
const { runCli } = await import('../dist/src/cli.js');
runCli(process.argv.slice(2));
