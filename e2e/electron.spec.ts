import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron, expect, test } from '@playwright/test';

/**
 * The packing flow's opening steps in the desktop app itself: the built app (out/, from
 * `npx electron-vite build`) under Electron, on a fresh data folder: first-run setup, then the
 * shipments screen, the renderer talking to main over IPC.
 *
 * Electron ≥ 42 fetches its binary on the first `require('electron')`, which machines without
 * download access cannot do; so the binary is looked up without requiring the package (its
 * path.txt, then the file it names), handed to Playwright as `executablePath` (else Playwright
 * would require('electron') itself), and the test is skipped, saying so, when it is not installed.
 */

const root = fileURLToPath(new URL('..', import.meta.url));

function findElectron(): { executablePath: string } | { missing: string } {
  const packageDir = join(root, 'node_modules', 'electron');
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) {
    return {
      missing: 'No Electron binary is installed (node_modules/electron/path.txt is missing: Electron downloads it on first use, which this machine cannot)',
    };
  }
  const executablePath = join(process.env.ELECTRON_OVERRIDE_DIST_PATH ?? join(packageDir, 'dist'), readFileSync(pathFile, 'utf8').trim());
  if (!existsSync(executablePath))
    return { missing: `No Electron binary is installed (${executablePath}, named by node_modules/electron/path.txt, does not exist)` };
  return { executablePath };
}

const found = findElectron();

const switches = [
  // Chromium refuses to run as root with its sandbox on (CI containers often are root).
  ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
  // No X or Wayland display (a CI machine without xvfb): Chromium's headless platform.
  ...(process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY ? ['--ozone-platform=headless'] : []),
];
test.skip('missing' in found, 'missing' in found ? found.missing : '');

test('desktop app: first start offers setup, then the shipments screen over IPC', async () => {
  if (!('executablePath' in found)) return;
  expect(existsSync(join(root, 'out', 'main', 'index.js')), 'build the app first: npx electron-vite build').toBe(true);
  const dataDir = mkdtempSync(join(tmpdir(), 'shipdesk-electron-'));
  const app = await electron.launch({
    executablePath: found.executablePath,
    args: [...switches, '.'],
    cwd: root,
    // Port 0: the app's HTTP API on a free port, never a running Shipdesk's 4848.
    env: { ...process.env, SHIPDESK_DATA_DIR: dataDir, SHIPDESK_PORT: '0' },
  });
  try {
    const window = await app.firstWindow();
    await expect(window.getByRole('heading', { name: 'Set up Shipdesk' })).toBeVisible();
    await window.getByLabel('Organization name').fill('Nordlys Warehouse');
    await window.getByLabel('Your name').fill('Pia Packer');
    await window.getByLabel('Email').fill('pia@nordlys.example');
    await window.getByLabel('Password').fill('packing station 1');
    await window.getByRole('button', { name: 'Create organization' }).click();

    const nav = window.getByRole('navigation', { name: 'Main' });
    await expect(nav).toBeVisible();
    await expect(nav.getByText('Pia Packer')).toBeVisible();
    // Inside Electron the renderer goes through the preload's IPC bridge, not HTTP.
    await expect(nav).toContainText('Nordlys Warehouse · owner · IPC');
    await expect(window.getByRole('heading', { level: 1 })).toHaveText('Shipments');
    await expect(window.getByRole('table', { name: 'Shipments' })).toBeVisible();
    await expect(window.getByText('No shipments yet.')).toBeVisible();
    await expect(window).toHaveTitle('Shipments · Shipdesk');
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('desktop app started with a command runs it and exits, without a window', async () => {
  if (!('executablePath' in found)) return;
  const dataDir = mkdtempSync(join(tmpdir(), 'shipdesk-electron-cli-'));
  const shipdesk = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      execFile(
        found.executablePath,
        [...switches, '.', ...args],
        { cwd: root, env: { ...process.env, SHIPDESK_DATA_DIR: dataDir }, timeout: 60_000 },
        (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  try {
    const init = await shipdesk('init', '--org', 'Desk Hall', '--email', 'desk@example.com', '--password', 'a long password');
    expect(init.code, init.stderr).toBe(0);
    expect(JSON.parse(init.stdout.trim().split('\n').at(-1) ?? '')).toMatchObject({ orgId: expect.stringMatching(/^org_/) });
    const copy = join(dataDir, 'copy.sqlite');
    const backup = await shipdesk('backup', copy);
    expect(backup.code, backup.stderr).toBe(0);
    expect(existsSync(copy)).toBe(true);
    const unknown = await shipdesk('backup');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Missing <file>');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
