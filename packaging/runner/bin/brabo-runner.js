#!/usr/bin/env node
// brabo-runner: the local runner of brabo-gateway, as its own package. Plain JavaScript on the
// Node that runs this file (any Node 22 or later); installs nothing at run time.
const [major] = process.versions.node.split('.').map(Number);
if (major < 22) {
  process.stderr.write(
    `brabo-runner: node_too_old: this is Node ${process.versions.node}, the runner needs Node >= 22; install Node 24 (https://nodejs.org or your package manager) and run again\n`,
  );
  process.exit(1);
}
// Like bin/brabo's --disable-warning=ExperimentalWarning: Node 22 calls node:sqlite
// experimental, which is noise for a user; every other warning is still printed, once.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name !== 'ExperimentalWarning') process.stderr.write(`${warning.name}: ${warning.message}\n`);
});
const { runAsProcess } = await import('../dist/src/cli/runner.js');
await runAsProcess(process.argv.slice(2));
