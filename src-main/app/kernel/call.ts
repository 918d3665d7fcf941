import { ApiError } from '../../../src-shared/errors';
import type { AppContext } from './context';
import type { Principal } from '../../domain/auth/principal';

/** What a handler knows about the call besides its parsed input. */
export interface CallContext {
  app: AppContext;
  /** Null only for public operations. */
  principal: Principal | null;
  /** The raw credential, for operations that inspect it (token verify). */
  credential: string | undefined;
  /** Who is calling, for failed-authentication counting: an IP address or an IPC sender. */
  client: string;
}

export function actor(call: CallContext): Principal {
  if (!call.principal) throw new ApiError('UNAUTHORIZED', 'This operation needs a credential');
  return call.principal;
}
