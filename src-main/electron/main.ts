import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, protocol, screen, session, shell } from 'electron';
import type { FastifyInstance } from 'fastify';
import { type AppContext } from '../app/kernel/context';
import { createAppContext } from '../app/runtime/createApp';
import { portFromEnv } from '../app/runtime/config';
import { DEMO_PROFILE, profileFiles, profileSwitch } from '../app/runtime/profiles';
import { acquireInstanceLock, type InstanceLock } from '../app/runtime/instanceLock';
import { runStartupChores } from '../app/runtime/startup';
import { buildServer, listen } from '../http/server';
import { registerIpcHandlers, type IpcRegistration } from '../ipc/register';
import { forwardPushesToWindow } from '../ipc/windowPushes';
import { APP_ORIGIN, APP_SCHEME, handleAppRequest, trustedPageCheck } from './protocol';
import { loadWindowState, restoreBounds, saveWindowState, WINDOW_STATE_FILE } from './windowState';
import { electronPrinting } from './printing';
import { nodePrinting } from '../printing/services';
import { start as startWebhookDelivery } from '../domain/webhooks/delivery';
import { start as startCustomerEmails } from '../domain/email/messages';
import { start as startShopWriteBack } from '../domain/shopWriteBack/outbox';
import { startDailyBackups } from '../app/runtime/dailyBackups';
import { startTrackingPoller } from '../domain/tracking/poller';
import { startDailyPickups } from '../domain/pickups/scheduler';
import { startScheduledSync } from '../domain/orderChannels/scheduledSync';
import type { BackgroundTask } from '../app/kernel/backgroundTask';
import { cliInvocation } from '../cli/invocation';
import { runCli } from '../cli/run';

/**
 * The Electron shell: windows, the app:// protocol, and the two doors (HTTP on 127.0.0.1, IPC)
 * over one AppContext. Everything worth testing lives in the modules it imports.
 */

// out/main/index.js → out/preload, out/renderer (inside app.asar when packaged; Electron's fs reads it).
const preloadFile = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));
const rendererDir = fileURLToPath(new URL('../renderer', import.meta.url));
// Only an unpackaged app may load the electron-vite dev server.
const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
const isTrustedPage = trustedPageCheck(devServerUrl);

// The same data folder as the headless server: SHIPDESK_DATA_DIR, else userData ("Shipdesk" from productName).
if (process.env.SHIPDESK_DATA_DIR) app.setPath('userData', process.env.SHIPDESK_DATA_DIR);

// Must happen before `ready`: a standard, secure scheme gets a real origin, fetch and CSP 'self'.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

let mainWindow: BrowserWindow | null = null;
let appContext: AppContext | null = null;
let httpServer: FastifyInstance | null = null;
let ipc: IpcRegistration | null = null;
let webhookDelivery: BackgroundTask | null = null;
let customerEmails: BackgroundTask | null = null;
let shopWriteBack: BackgroundTask | null = null;
let dailyBackups: BackgroundTask | null = null;
let trackingPoller: BackgroundTask | null = null;
let dailyPickups: BackgroundTask | null = null;
let scheduledSync: BackgroundTask | null = null;
let instanceLock: InstanceLock | null = null;
/** The HTTP door and background work, started after the window is created (see start()). */
let servicesStarted: Promise<void> = Promise.resolve();

// `electron [switches] .` names the app folder before the user's arguments; the installed app does not.
const cliArgs = cliInvocation(process.argv.slice(1), { appFolderFirst: !app.isPackaged });

if (cliArgs) {
  // `shipdesk backup <file>` and the other chores of cli/run.ts, from the installed app: no window,
  // no server and no single-instance hand-over, since the app may be open on the same data (WAL
  // lets both use the file; the CLI never recovers sends, so it needs no instance lock).
  app.dock?.hide();
  void runCli(cliArgs).then((code) => app.exit(code));
} else if (!app.requestSingleInstanceLock()) {
  // A second start would open the same SQLite file and port; hand over to the running one instead.
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      console.error('Shipdesk failed to start:', error);
      // A desktop user has no terminal: say why (e.g. a database written by a newer Shipdesk).
      dialog.showErrorBox('Shipdesk could not start', error instanceof Error ? error.message : String(error));
      // app.exit skips will-quit: close what start() opened, so the lock file does not outlive us.
      appContext?.close();
      instanceLock?.release();
      app.exit(1);
    });
}

async function start(): Promise<void> {
  protocol.handle(APP_SCHEME, (request) => {
    const answer = handleAppRequest(rendererDir, { method: request.method, url: request.url });
    return new Response(answer.body as ConstructorParameters<typeof Response>[0], { status: answer.status, headers: answer.headers });
  });
  // The renderer needs no camera, notifications or the like; refuse every permission prompt.
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));

  // One process per database: a headless server on the same data folder would otherwise recover
  // (and fail) this app's sends in flight. Refused here with the start-up error box.
  const dataDir = app.getPath('userData');
  const files = profileFiles(dataDir);
  // The bundle lives in out/main, so the migrations are found from the app root (dev and asar alike).
  const migrationsFolder = join(app.getAppPath(), 'src-main', 'db', 'migrations');
  instanceLock = acquireInstanceLock(files[files.startIn]);
  appContext = createAppContext({
    dataDir,
    databaseFile: files[files.startIn],
    migrationsFolder,
    // System printers without CUPS (Windows) print through Chromium; discovery adds Electron's list.
    printing: electronPrinting(nodePrinting()),
  });
  const opened = appContext;
  // Demo mode: the app starts again on the other file (docs/decisions.md); the next plain start is the real profile.
  opened.profiles = profileSwitch(
    { dataDir, files, current: files.startIn, migrationsFolder, reopen: (target) => relaunchIn(target, files.realProfile) },
    () => opened,
  );
  // The same recovery steps as the headless server, before either door opens.
  runStartupChores(appContext);
  ipc = registerIpcHandlers(ipcMain, appContext, {
    // Only our page's top frame: an iframe (the label preview's PDF viewer) never reaches the API.
    isTrustedSender: (event) => event.senderFrame !== null && event.senderFrame === event.sender.mainFrame && isTrustedPage(event.senderFrame.url),
    logError: (operationId, error) => console.error(`IPC ${operationId} failed:`, error),
  });
  // The window first: it talks to this process over IPC and needs neither the HTTP door for scripts
  // nor the background work, which start right after it instead of before it (issue 23).
  mainWindow = createMainWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createMainWindow();
  });
  servicesStarted = startServices(appContext);
  await servicesStarted;
}

/** The HTTP door and the background work over the opened database. */
async function startServices(context: AppContext): Promise<void> {
  await startHttpServer(context);
  // Sends committed outbox events to webhooks in the background; the schedule survives restarts.
  webhookDelivery = startWebhookDelivery(context);
  // Issue 22: customer e-mails queued with their dispatch; the queue survives restarts.
  customerEmails = startCustomerEmails(context);
  // Issue 22: tells the shops what was dispatched; the outbox survives restarts.
  shopWriteBack = startShopWriteBack(context);
  // decisions §12: a backup a day, the newest seven kept, in the data folder's backups/.
  dailyBackups = startDailyBackups(context);
  // decisions §13: asks the carriers about shipments in transit; the queue is the due column, so a restart resumes it.
  trackingPoller = startTrackingPoller(context);
  // Issue 21: books each daily pickup once per working day; the day's row is the claim, so a restart never books twice.
  dailyPickups = startDailyPickups(context);
  // Issue 22: syncs storefront channels on their interval; the due time and lease are in the database, so a restart resumes it.
  scheduledSync = startScheduledSync(context);
}

/** Quits and starts again on the demo file, or back on the real one; will-quit closes everything first. */
function relaunchIn(target: 'real' | 'demo', realProfile: string): void {
  process.env.SHIPDESK_PROFILE = target === 'demo' ? DEMO_PROFILE : realProfile;
  process.env.SHIPDESK_REAL_PROFILE = realProfile;
  app.relaunch();
  app.quit();
}

/** Scripts reach the same data over HTTP; a busy port must not keep the desktop app from opening. */
async function startHttpServer(context: AppContext): Promise<void> {
  const host = process.env.SHIPDESK_HOST || '127.0.0.1';
  const server = buildServer(context, { host, rendererDir });
  try {
    const url = await listen(server, host, portFromEnv());
    httpServer = server;
    console.log(`Shipdesk API listening on ${url}`);
  } catch (error) {
    console.error('Shipdesk API not started (the desktop app works without it):', error);
    await server.close().catch(() => undefined);
  }
}

function createMainWindow(): BrowserWindow {
  const stateFile = join(app.getPath('userData'), WINDOW_STATE_FILE);
  const saved = loadWindowState(stateFile);
  const bounds = restoreBounds(
    saved,
    screen.getAllDisplays().map((display) => display.workArea),
  );
  const window = new BrowserWindow({
    ...bounds,
    minWidth: 640,
    minHeight: 480,
    title: 'Shipdesk',
    show: false,
    webPreferences: {
      preload: preloadFile,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      // Chromium's PDF viewer, for the label preview at true size (a blob: frame; CSP allows nothing else).
      plugins: true,
    },
  });
  if (saved?.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());

  window.on('close', () => {
    saveWindowState(stateFile, { bounds: window.getNormalBounds(), maximized: window.isMaximized() });
  });

  const contents = window.webContents;
  const senderId = contents.id;
  // The session belongs to the window, as the renderer's login does (sessionStorage): a reload keeps
  // both, closing the window forgets both. Only the app's own pages load here (will-navigate below).
  // Status changes and print progress reach the window as pushes, for what its session may read.
  const stopPushes = appContext ? forwardPushesToWindow(appContext, contents, () => ipc?.sessionOf(senderId)) : () => undefined;
  contents.on('destroyed', () => {
    stopPushes();
    ipc?.forget(senderId);
  });
  contents.on('will-navigate', (event, url) => {
    if (!isTrustedPage(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isTrustedPage(url)) event.preventDefault();
  });
  // No window opens inside the app; a web link (a carrier's tracking page) opens in the user's browser.
  contents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//i.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());

  if (devServerUrl) void window.loadURL(devServerUrl);
  else void window.loadURL(`${APP_ORIGIN}/index.html`);
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  return window;
}

app.on('window-all-closed', () => {
  // macOS keeps apps (and here the local API) running without windows.
  if (process.platform !== 'darwin') app.quit();
});

let shutDown = false;
app.on('will-quit', (event) => {
  if (shutDown) return;
  // Let in-flight HTTP requests finish before the database closes under them.
  event.preventDefault();
  void (async () => {
    // A quit while the services were still starting waits for them, so each is stopped below.
    await servicesStarted;
    try {
      await httpServer?.close();
    } catch (error) {
      console.error('Closing the API server failed:', error);
    }
    await webhookDelivery?.stop();
    await customerEmails?.stop();
    await shopWriteBack?.stop();
    await dailyBackups?.stop();
    await trackingPoller?.stop();
    await dailyPickups?.stop();
    await scheduledSync?.stop();
    appContext?.close();
    instanceLock?.release();
    shutDown = true;
    app.quit();
  })();
});
