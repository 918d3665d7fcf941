import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireInstanceLock, InstanceLockedError } from './instanceLock';

const dirs: string[] = [];
const databaseFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'shipdesk-lock-'));
  dirs.push(dir);
  return join(dir, 'shipdesk.sqlite');
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A process id that is certainly not running: one that has just exited. */
function goneProcessId(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

const moduleUrl = new URL('./instanceLock.ts', import.meta.url).href;

/** Another process that takes the lock, says so on stdout, and then runs until it is killed. */
function otherHolder(file: string): Promise<{ pid: number; kill: () => Promise<void> }> {
  const script = `const { acquireInstanceLock } = await import(${JSON.stringify(moduleUrl)}); acquireInstanceLock(${JSON.stringify(file)}); process.stdout.write('locked\\n'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the holder exited with ${code} before taking the lock`)));
    child.stdout.once('data', () =>
      resolve({
        pid: child.pid as number,
        kill: () =>
          new Promise((done) => {
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.kill('SIGKILL');
          }),
      }),
    );
  });
}

describe('the instance lock', () => {
  it('makes the data folder on a first start', () => {
    const file = join(databaseFile(), '..', 'fresh', 'shipdesk.sqlite');
    acquireInstanceLock(file).release();
    expect(existsSync(join(file, '..'))).toBe(true);
  });

  it('lets one holder serve a database file; a second is refused by name until the first releases it', () => {
    const file = databaseFile();
    const first = acquireInstanceLock(file);
    // The parent of this test process stands in for another Shipdesk starting.
    expect(() => acquireInstanceLock(file, process.ppid)).toThrow(InstanceLockedError);
    expect(() => acquireInstanceLock(file, process.ppid)).toThrow(`another Shipdesk (process ${process.pid}) is already serving ${file}`);
    first.release();
    first.release();
    acquireInstanceLock(file, process.ppid).release();
  });

  it('is refused while another process holds it, and free the moment that process is killed', async () => {
    const file = databaseFile();
    const holder = await otherHolder(file);
    try {
      expect(() => acquireInstanceLock(file)).toThrow(`process ${holder.pid}`);
    } finally {
      await holder.kill();
    }
    // A crash or a power cut leaves the file, but no lock: the next start takes it without asking.
    expect(existsSync(`${file}.lock`)).toBe(true);
    acquireInstanceLock(file).release();
  });

  it('is not fooled by a running program that has the old owner’s process id (after a reboot)', async () => {
    const file = databaseFile();
    const holder = await otherHolder(file);
    await holder.kill();
    // The file names the killed holder; after a reboot that id may belong to some running program.
    const lockFile = new Database(`${file}.lock`);
    lockFile.prepare('UPDATE owner SET pid = ?').run(process.ppid);
    lockFile.close();
    acquireInstanceLock(file).release();
  });

  it('replaces a lock file in the earlier text form unless its process still runs', () => {
    const file = databaseFile();
    writeFileSync(`${file}.lock`, String(process.ppid));
    expect(() => acquireInstanceLock(file)).toThrow(`process ${process.ppid}`);
    writeFileSync(`${file}.lock`, String(goneProcessId()));
    const lock = acquireInstanceLock(file);
    expect(() => acquireInstanceLock(file, process.ppid)).toThrow(InstanceLockedError);
    lock.release();
  });
});
