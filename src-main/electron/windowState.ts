import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Where the main window was, kept in a small JSON file in the user data folder. Pure Node (no
 * electron import) so it is tested without the Electron binary.
 */

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  bounds: Rect;
  maximized: boolean;
}

export const WINDOW_STATE_FILE = 'window-state.json';
export const DEFAULT_SIZE = { width: 1280, height: 800 } as const;
const MIN_SIZE = { width: 640, height: 480 } as const;

function isRect(value: unknown): value is Rect {
  if (typeof value !== 'object' || value === null) return false;
  const rect = value as Record<string, unknown>;
  return ['x', 'y', 'width', 'height'].every((key) => Number.isFinite(rect[key]));
}

/** A missing, unreadable or hand-mangled file is not an error: the window opens at its default size. */
export function loadWindowState(file: string): WindowState | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    if (!isRect(parsed.bounds)) return null;
    return { bounds: parsed.bounds, maximized: parsed.maximized === true };
  } catch {
    return null;
  }
}

/** Written to a temporary file and renamed, so a crash mid-write leaves the old state intact. */
export function saveWindowState(file: string, state: WindowState): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, JSON.stringify(state));
  renameSync(temporary, file);
}

/**
 * Saved bounds are used only if enough of the window lands on a display that exists now (a
 * laptop undocked from its second screen must not open the window off-screen).
 */
export function restoreBounds(saved: WindowState | null, workAreas: readonly Rect[]): Partial<Rect> & { width: number; height: number } {
  if (!saved) return { ...DEFAULT_SIZE };
  const width = Math.max(MIN_SIZE.width, Math.round(saved.bounds.width));
  const height = Math.max(MIN_SIZE.height, Math.round(saved.bounds.height));
  const bounds = { x: Math.round(saved.bounds.x), y: Math.round(saved.bounds.y), width, height };
  const visible = workAreas.some((area) => overlap(bounds, area) >= 0.5 * Math.min(width * height, area.width * area.height));
  return visible ? bounds : { width, height };
}

function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}
