import type { z } from 'zod';
import { defineOperation } from '../operation';
import { messageResponse, pageOf, pageQuery } from '../schemas/common';
import type { Resource } from '../scopes';

/**
 * The five operations of a plain organization-scoped resource, named `<key>.create|list|get|update|delete`.
 * Only what differs between resources is passed in.
 */
export function crudOperations<
  const Key extends string,
  const Collection extends string,
  const IdParam extends string,
  Item extends z.ZodType,
  ListItem extends z.ZodType,
  Created extends z.ZodType,
  Detail extends z.ZodType,
  CreateBody extends z.ZodType,
  UpdateBody extends z.ZodType,
>(def: {
  key: Key;
  collection: Collection;
  idParam: IdParam;
  noun: string;
  resource: Resource;
  item: Item;
  listItem: ListItem;
  created: Created;
  detail: Detail;
  createBody: CreateBody;
  updateBody: UpdateBody;
  updateMethod: 'PUT' | 'PATCH';
}) {
  const article = /^[aeiou]/i.test(def.noun) ? 'an' : 'a';
  const base = `/orgs/{orgId}/${def.collection}` as const;
  const one = `/orgs/{orgId}/${def.collection}/{${def.idParam}}` as const;
  return [
    defineOperation({
      id: `${def.key}.create`,
      method: 'POST',
      path: base,
      summary: `Create ${article} ${def.noun}`,
      resource: def.resource,
      body: def.createBody,
      response: def.created,
    }),
    defineOperation({
      id: `${def.key}.list`,
      method: 'GET',
      path: base,
      summary: `List ${def.noun}s, newest first`,
      resource: def.resource,
      query: pageQuery,
      response: pageOf(def.listItem),
    }),
    defineOperation({
      id: `${def.key}.get`,
      method: 'GET',
      path: one,
      summary: `Read one ${def.noun}`,
      resource: def.resource,
      response: def.detail,
    }),
    defineOperation({
      id: `${def.key}.update`,
      method: def.updateMethod,
      path: one,
      summary: `Update ${article} ${def.noun} (only the fields given)`,
      resource: def.resource,
      body: def.updateBody,
      response: def.item,
    }),
    defineOperation({
      id: `${def.key}.delete`,
      method: 'DELETE',
      path: one,
      summary: `Delete ${article} ${def.noun}`,
      resource: def.resource,
      response: messageResponse,
    }),
  ] as const;
}
