import type { ApiRoute } from './api-route-types';
import { fill, RECORD_CHANGE_REFUSED } from './api-route-types';
import { RESOURCES } from './resources/list';
import { recordsOfResource } from './resources/records-list';

// The route table's lines of the synced resources served from their declarations alone
// (src/server/services/record-resource.ts): their five routes, who may call each, and a call of each made
// from the declaration's example record. A new such resource gets its lines, and its matrix, from here.

export const declaredRecordRoutes: readonly ApiRoute[] = RESOURCES.flatMap((resource): ApiRoute[] => {
  if (!('servedFrom' in resource)) return [];
  const path = resource.path as `/api/${string}`;
  const { read, add, edit, delete: remove } = resource.permissions;
  const example = recordsOfResource(resource.key).example as Record<string, string | number | boolean | null>;
  const byId = `${path}/:id` as `/api/${string}`;
  return [
    {
      method: 'GET',
      path,
      access: { permission: read },
      target: 'owner-patient',
      request: { query: { patient: fill('owner-patient-id') } },
      allowed: 200,
      refused: 403,
      shows: 'record',
      resource: resource.key,
    },
    {
      method: 'POST',
      path,
      access: { permission: add },
      target: 'owner-patient',
      request: { body: { ...example, id: fill('new-uuid'), patient_id: fill('owner-patient-id') } },
      allowed: 201,
      refused: 403,
      resource: resource.key,
    },
    {
      method: 'GET',
      path: byId,
      access: { permission: read },
      target: 'owner-record',
      request: { params: { id: fill('target-id') } },
      allowed: 200,
      shows: 'record',
      resource: resource.key,
    },
    {
      method: 'PUT',
      path: byId,
      access: { permission: edit },
      target: 'owner-record',
      request: { params: { id: fill('target-id') }, body: { [resource.titleField]: 'Matrix change' } },
      allowed: 200,
      refused: RECORD_CHANGE_REFUSED,
      isolation: 'case',
      resource: resource.key,
    },
    {
      method: 'DELETE',
      path: byId,
      access: { permission: remove },
      target: 'owner-record',
      request: { params: { id: fill('target-id') } },
      allowed: 200,
      refused: RECORD_CHANGE_REFUSED,
      isolation: 'case',
      resource: resource.key,
    },
  ];
});
