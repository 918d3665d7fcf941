import { beforeEach, describe, expect, it } from 'vitest';
import { useSession, type LoginResult } from '../../../lib/session';
import { useShipmentDrafts } from './drafts';
import { emptyForm } from './model';

const loginOf = (userId: string) => ({ accessToken: 'jwt', user: { id: userId }, orgs: [{ id: 'org_1' }] }) as unknown as LoginResult;
const typed = { ...emptyForm(), reference: 'BOX-7' };

describe('unsaved shipment forms', () => {
  beforeEach(() => {
    useSession.setState({ login: loginOf('usr_ana'), orgId: 'org_1' });
    useShipmentDrafts.setState({ drafts: {} });
  });

  it('are kept per screen and dropped one at a time', () => {
    const { keep, drop } = useShipmentDrafts.getState();
    keep('new', typed);
    keep('edit:shp_1', emptyForm());
    drop('new');
    expect(Object.keys(useShipmentDrafts.getState().drafts)).toEqual(['edit:shp_1']);
  });

  it('are forgotten when their typist signs out or another person signs in', () => {
    useShipmentDrafts.getState().keep('new', typed);
    useSession.setState({ login: loginOf('usr_ana') });
    expect(useShipmentDrafts.getState().drafts.new?.reference).toBe('BOX-7');
    useSession.setState({ login: null });
    expect(useShipmentDrafts.getState().drafts).toEqual({});

    useSession.setState({ login: loginOf('usr_ana') });
    useShipmentDrafts.getState().keep('new', typed);
    useSession.setState({ login: loginOf('usr_bo') });
    expect(useShipmentDrafts.getState().drafts).toEqual({});
  });
});
