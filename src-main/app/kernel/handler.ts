import type { OperationById, OperationId } from '../../../src-shared/operations';
import type { ParsedInput, ResponseOf } from '../../../src-shared/operation';
import type { CallContext } from './call';
import type { JsonText } from './jsonText';

/** Binary answers (document content) carry their own content type. */
export interface BinaryResult {
  contentType: string;
  data: Buffer;
  filename?: string;
}

/** A handler answers with the value, or with the value already as JSON text (see JsonText). */
type Answer<Id extends OperationId> = ResponseOf<OperationById<Id>> | JsonText<ResponseOf<OperationById<Id>>>;

export type Handler<Id extends OperationId> = (call: CallContext, input: ParsedInput<OperationById<Id>>) => Answer<Id> | Promise<Answer<Id>>;

export type HandlerMap<Ids extends OperationId = OperationId> = { [Id in Ids]: Handler<Id> };

/** Lets each feature file declare its handlers with their inputs typed from the operation table. */
export function defineHandlers<const Ids extends OperationId>(map: { [Id in Ids]: Handler<Id> }): HandlerMap<Ids> {
  return map;
}
