// The standalone sandbox chains a test worker shares across its test files (standalone.ts starts
// it): dev methods on, on a free port, its address and environment written to <dir>/chains.json
// once ready. It exits when the process it serves (the test runner) is gone, so a run killed
// halfway leaves nothing behind.
//
//   node tools/chain-faults/shared-chains-child.ts <dir> <pid to outlive no longer than>
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandboxChainsServer } from '../sandbox-chains/server.ts';

const [dir, watchedPid] = process.argv.slice(2);
if (!dir || !watchedPid) {
  console.error('usage: shared-chains-child.ts <dir> <pid>');
  process.exit(2);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const server = await startSandboxChainsServer({ port: 0, assetsDir: dir, devMethods: true });
writeFileSync(join(dir, 'chains.json.tmp'), JSON.stringify({ pid: process.pid, baseUrl: server.baseUrl, env: server.env }));
// Renamed into place, so a reader never sees half a file.
renameSync(join(dir, 'chains.json.tmp'), join(dir, 'chains.json'));

// Its directory (the env's assets file, the log) goes with it.
const stop = () =>
  void server.close().finally(() => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setInterval(() => {
  if (!alive(Number(watchedPid))) stop();
}, 1000);
