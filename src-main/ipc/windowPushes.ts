import type { AppContext } from '../app/kernel/context';
import { mayReceive, type PushBatch } from '../app/kernel/pushes';
import { authenticate, bearerCredential } from '../domain/auth/authenticate';
import { scopesIn } from '../domain/auth/principal';
import { pushEvent, type WindowLike } from './events';

/** A desktop window as the forwarding sees it; Electron's webContents fits it. */
export interface PushWindow extends WindowLike {
  isDestroyed?(): boolean;
}

/**
 * Forwards the bus's pushes to one window over IPC (the preload's `on(event, cb)` receives them).
 * A window hears only what its own session may read: the credential main keeps for it (set by its
 * login, register.ts) is authenticated again for each batch, so a window that signed out, or whose
 * token expired or role was taken away, hears nothing more. The session is of a user, who may work
 * in several organizations: each event goes when the user has its scope in the event's organization,
 * and the renderer keeps those of the organization it shows. Answers the function that stops.
 */
export function forwardPushesToWindow(app: AppContext, window: PushWindow, sessionOf: () => string | undefined): () => void {
  // Batches are delivered one at a time, in order, even though each waits for an authentication.
  let chain = Promise.resolve();
  const unsubscribe = app.pushes.subscribe(null, (batch) => {
    chain = chain.then(() => deliver(app, window, sessionOf, batch)).catch((error: unknown) => console.error('Forwarding pushes to a window failed:', error));
  });
  return unsubscribe;
}

async function deliver(app: AppContext, window: PushWindow, sessionOf: () => string | undefined, batch: PushBatch): Promise<void> {
  const session = sessionOf();
  if (!session) return;
  let principal;
  try {
    principal = await authenticate(app, bearerCredential(session) ?? '');
  } catch {
    return; // expired or revoked: the renderer finds out at its next call
  }
  if (window.isDestroyed?.()) return;
  if (batch.missed) pushEvent(window, 'resync', {});
  for (const push of batch.pushes) {
    const held = scopesIn(principal, push.payload.orgId);
    if (!held || !mayReceive(held, push.event)) continue;
    pushEvent(window, push.event, push.payload);
  }
}
