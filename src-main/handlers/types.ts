import type { OperationById, OperationId } from '../../src-shared/operations';
import type { ParsedInput, ResponseOf } from '../../src-shared/operation';
import type { CallContext } from '../app/call';

/** Binary answers (document content) carry their own content type. */
export interface BinaryResult {
  contentType: string;
  data: Buffer;
  filename?: string;
}

export type Handler<Id extends OperationId> = (
  call: CallContext,
  input: ParsedInput<OperationById<Id>>,
) => ResponseOf<OperationById<Id>> | Promise<ResponseOf<OperationById<Id>>>;

export type HandlerMap<Ids extends OperationId = OperationId> = { [Id in Ids]: Handler<Id> };

/** Lets each feature file declare its handlers with their inputs typed from the operation table. */
export function defineHandlers<const Ids extends OperationId>(map: { [Id in Ids]: Handler<Id> }): HandlerMap<Ids> {
  return map;
}
