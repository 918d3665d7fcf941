import { useCallback, useRef, useState } from 'react';
import type { OrderChannel, OrderChannelSyncResult } from '../../../../src-shared/schemas/orderChannel';
import { client } from '../../lib/api';

/** Channels whose orders are read from a shop; manual and CSV channels have nothing to sync. */
export function storefrontChannels(channels: OrderChannel[] | undefined): OrderChannel[] {
  return (channels ?? []).filter((channel) => channel.type === 'shopify' || channel.type === 'woocommerce');
}

/** One shop's answer: what it brought in, or why it could not be read (422 STOREFRONT_ERROR, …). */
export interface ChannelSyncOutcome {
  channel: OrderChannel;
  result: OrderChannelSyncResult | null;
  error: unknown;
}

export interface StorefrontSync {
  running: boolean;
  /** The shop being read now, counted from 1. */
  current: { channel: OrderChannel; position: number } | null;
  total: number;
  outcomes: ChannelSyncOutcome[];
  start(channels: OrderChannel[]): Promise<void>;
}

/**
 * Syncs shops one after the other, so the progress line names the one being read and a shop that
 * cannot be reached does not stop the others. Lives in the screen, so closing the dialog neither
 * stops the sync nor loses its summary.
 */
export function useStorefrontSync(orgId: string, onFinished: () => void): StorefrontSync {
  const [state, setState] = useState<Omit<StorefrontSync, 'start'>>({ running: false, current: null, total: 0, outcomes: [] });
  const running = useRef(false);
  const finished = useRef(onFinished);
  finished.current = onFinished;

  const start = useCallback(
    async (channels: OrderChannel[]) => {
      if (running.current) return;
      running.current = true;
      setState({ running: true, current: null, total: channels.length, outcomes: [] });
      const outcomes: ChannelSyncOutcome[] = [];
      for (const [index, channel] of channels.entries()) {
        setState((previous) => ({ ...previous, current: { channel, position: index + 1 } }));
        try {
          const result = await client.call('orderChannels.sync', { params: { orgId, channelId: channel.id } });
          outcomes.push({ channel, result, error: null });
        } catch (error) {
          outcomes.push({ channel, result: null, error });
        }
        setState((previous) => ({ ...previous, outcomes: [...outcomes] }));
      }
      running.current = false;
      setState((previous) => ({ ...previous, running: false, current: null }));
      finished.current();
    },
    [orgId],
  );

  return { ...state, start };
}
