import { actor } from '../../app/kernel/call';
import { addMember, getMember, listMembers, memberActor, removeMember, updateMember } from './members';
import { defineHandlers } from '../../app/kernel/handler';

export const memberHandlers = defineHandlers({
  'members.create': (call, { params, body }) => addMember(call.app, memberActor(actor(call), params.orgId), params.orgId, body),
  'members.list': ({ app }, { params, query }) => listMembers(app, params.orgId, query),
  'members.get': ({ app }, { params }) => getMember(app, params.orgId, params.userId),
  'members.update': (call, { params, body }) => updateMember(call.app, memberActor(actor(call), params.orgId), params.orgId, params.userId, body),
  'members.delete': (call, { params }) => removeMember(call.app, memberActor(actor(call), params.orgId), params.orgId, params.userId),
});
