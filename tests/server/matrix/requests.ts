import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import type { ApiRoute, Fill, RecipeValue } from '../../../src/domain/api-routes';
import { TINY_PNG } from '../../fixtures/images';
import { multipartForm } from '../helpers';
import type { Cast } from './cast';

// A route's request recipe (src/domain/api-routes.ts) made into one inject() call for one case.

function isFill(value: RecipeValue): value is Fill {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && '$fill' in value;
}

function filled(what: Fill, cast: Cast): string {
  const { owner } = cast;
  const values: Record<Fill['$fill'], () => string | null> = {
    'owner-patient-id': () => owner.patientId,
    'owner-user-id': () => owner.userId,
    'target-id': () => cast.targetId,
    'permission-not-held': () => cast.permissionNotHeld,
    'new-uuid': () => randomUUID(),
    'directory-doctor-id': () => cast.directoryDoctorId,
    'directory-pharmacy-id': () => cast.directoryPharmacyId,
    'new-key': () => `matrix-${randomUUID()}`,
    'new-email': () => `matrix-${randomUUID()}@example.com`,
  };
  const value = values[what.$fill]();
  if (value === null) throw new Error(`the cast has no value for ${what.$fill}`);
  return value;
}

type Json = string | number | boolean | null | Json[] | { [field: string]: Json };

function resolve(value: RecipeValue, cast: Cast): Json {
  if (isFill(value)) return filled(value, cast);
  if (Array.isArray(value)) return value.map((item: RecipeValue) => resolve(item, cast));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([field, item]) => [field, resolve(item, cast)]));
  }
  return value;
}

function resolveStrings(
  values: Readonly<Record<string, string | Fill>> | undefined,
  cast: Cast,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values ?? {}).map(([name, value]) => [
      name,
      typeof value === 'string' ? value : filled(value, cast),
    ]),
  );
}

export function requestFor(route: ApiRoute, cast: Cast, token: string | null): InjectOptions {
  const params = resolveStrings(route.request.params, cast);
  const url = route.path.replace(/:([A-Za-z_]+)|\*$/g, (whole: string, name: string | undefined) => {
    const value = params[name ?? '*'];
    if (value === undefined) throw new Error(`${route.path}: no value for ${whole}`);
    return name ? encodeURIComponent(value) : value;
  });
  const query = new URLSearchParams(resolveStrings(route.request.query, cast)).toString();
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const options: InjectOptions = { method: route.method, url: query ? `${url}?${query}` : url, headers };
  const { form, body } = route.request;
  if (form) {
    const files = form.file
      ? [{ field: form.file.field, filename: 'matrix.png', contentType: 'image/png', bytes: TINY_PNG }]
      : [];
    const multipart = multipartForm(resolveStrings(form.fields, cast), files);
    return { ...options, payload: multipart.payload, headers: { ...headers, ...multipart.headers } };
  }
  if (body !== undefined) {
    const json = { ...headers, 'content-type': 'application/json' };
    return { ...options, payload: JSON.stringify(resolve(body, cast)), headers: json };
  }
  return options;
}
