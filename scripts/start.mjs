/**
 * `npm start`: the desktop app when an Electron binary is installed, else the headless server.
 * The check reads node_modules/electron/path.txt instead of `require('electron')`, because that
 * require downloads the binary when it is missing, which fails on machines without internet.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const isWindows = process.platform === 'win32';

/** The Electron executable, as node_modules/electron/index.js would find it, or null. */
function installedElectron() {
  const electronDir = join(root, 'node_modules', 'electron');
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const executable = readFileSync(pathFile, 'utf8').trim();
  if (!executable) return null;
  const distDir = process.env.ELECTRON_OVERRIDE_DIST_PATH || join(electronDir, 'dist');
  const binary = join(distDir, executable);
  return existsSync(binary) ? binary : null;
}

/** Runs a command with our stdio; resolves with its exit code, passing Ctrl-C and SIGTERM on. */
function run(command, args) {
  return new Promise((resolve) => {
    // npm is npm.cmd on Windows, which only a shell can start.
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', shell: isWindows && command === 'npm' });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', (error) => {
      console.error(`Could not start ${command}: ${error.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

// `npm start` runs this script under `sh -c`, and npm's SIGTERM ends that shell without reaching us:
// a parent that went away means stop, so the app or server is not left running on its own.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.emit('SIGTERM', 'SIGTERM');
}, 500).unref();

/** The Node options of package.json's `serve` script (`node <options> out/main/serve.js`), so both starts run the server alike. */
function serveNodeOptions() {
  const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
  const match = /\bnode((?:\s+--\S+)*)\s+out\/main\/serve\.js/.exec(scripts.serve ?? '');
  return match?.[1]?.trim().split(/\s+/).filter(Boolean) ?? [];
}

const electron = installedElectron();
let code;
if (electron) {
  code = await run('npm', ['run', 'build']);
  if (code === 0) code = await run(electron, ['.']);
} else {
  console.log('Electron binary not installed here; running the headless server instead (npm run serve)');
  // What `npm run serve` does, with the server as our own child: a shell between the two would not
  // pass SIGTERM on, and the server would outlive this script.
  code = await run('npm', ['run', 'build', '--', '--logLevel', 'warn']);
  if (code === 0) code = await run(process.execPath, [...serveNodeOptions(), 'out/main/serve.js', ...process.argv.slice(2)]);
}
process.exit(code);
