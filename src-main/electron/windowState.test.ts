import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SIZE, loadWindowState, restoreBounds, saveWindowState } from './windowState';

const dir = mkdtempSync(join(tmpdir(), 'shipdesk-window-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const screen = { x: 0, y: 0, width: 1920, height: 1080 };

describe('window state', () => {
  it('round-trips through the JSON file', () => {
    const file = join(dir, 'nested', 'window-state.json');
    saveWindowState(file, { bounds: { x: 10, y: 20, width: 1000, height: 700 }, maximized: true });
    expect(loadWindowState(file)).toEqual({ bounds: { x: 10, y: 20, width: 1000, height: 700 }, maximized: true });
    expect(JSON.parse(readFileSync(file, 'utf8')).maximized).toBe(true);
  });

  it('ignores a missing or mangled file', () => {
    expect(loadWindowState(join(dir, 'missing.json'))).toBeNull();
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"bounds": {"x": "left"}}');
    expect(loadWindowState(bad)).toBeNull();
    writeFileSync(bad, 'not json');
    expect(loadWindowState(bad)).toBeNull();
  });

  it('restores bounds on a display that exists, else only the size', () => {
    expect(restoreBounds(null, [screen])).toEqual(DEFAULT_SIZE);
    const onScreen = { bounds: { x: 100, y: 50, width: 1200, height: 800 }, maximized: false };
    expect(restoreBounds(onScreen, [screen])).toEqual({ x: 100, y: 50, width: 1200, height: 800 });
    // Saved on a second monitor that is gone now.
    const offScreen = { bounds: { x: 2500, y: 100, width: 1200, height: 800 }, maximized: false };
    expect(restoreBounds(offScreen, [screen])).toEqual({ width: 1200, height: 800 });
    expect(restoreBounds(offScreen, [screen, { x: 1920, y: 0, width: 2560, height: 1440 }])).toMatchObject({ x: 2500 });
  });

  it('never restores a window smaller than usable', () => {
    const tiny = { bounds: { x: 0, y: 0, width: 10, height: 10 }, maximized: false };
    expect(restoreBounds(tiny, [screen])).toMatchObject({ width: 640, height: 480 });
  });
});
