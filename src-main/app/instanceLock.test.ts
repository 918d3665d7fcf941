import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

describe('the instance lock', () => {
  it('makes the data folder on a first start', () => {
    const file = join(databaseFile(), '..', 'fresh', 'shipdesk.sqlite');
    acquireInstanceLock(file).release();
    expect(existsSync(join(file, '..'))).toBe(true);
  });

  it('lets one process serve a database file; a second (alive) one is refused by name until the first releases it', () => {
    const file = databaseFile();
    const first = acquireInstanceLock(file);
    expect(readFileSync(`${file}.lock`, 'utf8')).toBe(String(process.pid));
    // The parent of this test process stands in for another running Shipdesk.
    expect(() => acquireInstanceLock(file, process.ppid)).toThrow(InstanceLockedError);
    expect(() => acquireInstanceLock(file, process.ppid)).toThrow(`process ${process.pid}`);
    first.release();
    expect(existsSync(`${file}.lock`)).toBe(false);
    acquireInstanceLock(file, process.ppid).release();
  });

  it('takes over a lock left by a process that is gone, and never removes another owner’s lock', () => {
    const file = databaseFile();
    writeFileSync(`${file}.lock`, String(goneProcessId()));
    const lock = acquireInstanceLock(file);
    expect(readFileSync(`${file}.lock`, 'utf8')).toBe(String(process.pid));
    // Presumed dead and taken over meanwhile: releasing leaves the new owner's lock alone.
    writeFileSync(`${file}.lock`, String(process.ppid));
    lock.release();
    expect(readFileSync(`${file}.lock`, 'utf8')).toBe(String(process.ppid));
  });
});
