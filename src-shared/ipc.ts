import type { ErrorBody } from './errors';

/**
 * The contract between the preload bridge (`window.shipdesk`) and the main process.
 * Every IPC channel name is made here, so neither side writes one by hand. This file imports types
 * only: the sandboxed preload bundles it and should not pull zod in.
 */

/** The channel of one operation (operation.ts re-exports this for the doors). */
export function ipcChannelOf(operationId: string): string {
  return `shipdesk:op:${operationId}`;
}

/** One call's input as it crosses IPC: the same three parts as an HTTP request. */
export interface IpcCallInput {
  params?: Record<string, string> | undefined;
  query?: Record<string, unknown> | undefined;
  body?: unknown;
}

/**
 * Electron does not carry thrown errors across IPC (only the message survives, prefixed), so every
 * answer is an envelope and failures carry the same body as an HTTP error.
 */
export type IpcEnvelope<T = unknown> = { ok: true; data: T } | { ok: false; error: ErrorBody };

/**
 * Pushes from main to the renderer, apart from calls (call/listen, as VS Code splits them).
 * Keep payloads small: ids and states; the renderer re-reads through the typed client.
 */
export interface ShipdeskEvents {
  /** A shipment moved in its lifecycle (sent, booked, voided, …). */
  'shipment.statusChanged': { orgId: string; shipmentId: string; status: string; previousStatus: string | null };
  /** A print job advanced; `state` follows the print job record. */
  'print.progress': { orgId: string; printJobId: string; state: 'queued' | 'printing' | 'done' | 'failed'; message?: string };
  /**
   * Events were dropped on the way (a listener that fell behind, a bulk write, a reconnect from too
   * long ago): what the screen holds may be stale, so it reads everything again. No data, no org.
   */
  resync: Record<string, never>;
}

export type ShipdeskEventName = keyof ShipdeskEvents;

export const shipdeskEventNames = ['shipment.statusChanged', 'print.progress', 'resync'] as const satisfies readonly ShipdeskEventName[];

/** The events that tell of a change in one organization (all but `resync`). */
export type ChangeEventName = Exclude<ShipdeskEventName, 'resync'>;
export const changeEventNames = ['shipment.statusChanged', 'print.progress'] as const satisfies readonly ChangeEventName[];

export function ipcEventChannelOf(event: ShipdeskEventName): string {
  return `shipdesk:event:${event}`;
}

/** Ends this window's IPC session (the JWT main remembers after `auth.login`). */
export const ipcLogoutChannel = 'shipdesk:session:logout';
