import { crudOperations } from './crud';
import { memberCreateBody, memberSchema, memberUpdateBody } from '../schemas/member';

/** Team members: users of the installation and their role in the organization (decisions §3). */
export const memberOperations = crudOperations({
  key: 'members',
  collection: 'members',
  idParam: 'userId',
  noun: 'member',
  resource: 'org_members',
  item: memberSchema,
  listItem: memberSchema,
  created: memberSchema,
  detail: memberSchema,
  createBody: memberCreateBody,
  updateBody: memberUpdateBody,
  updateMethod: 'PATCH',
});
