/** The split dialogs the shipment detail mounts: whole lines into one new shipment, or quantities into several. */
export { SplitDialog } from './SplitDialog';
export { BatchSplitDialog } from './BatchSplitDialog';
