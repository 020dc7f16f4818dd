import { fill, type ApiRoute } from './api-route-types';

// The route table's lines for share links (see api-routes.ts, which assembles the table).

/** A snapshot of the shape the device sends (a compact JWE, `dir` + A256GCM); its content is never read. */
export const EXAMPLE_SNAPSHOT = `eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..${'A'.repeat(16)}.${'B'.repeat(40)}.${'C'.repeat(22)}`;
/** A well-formed manifest token that was never handed out. */
const UNKNOWN_TOKEN = 'A'.repeat(43);

export const shareLinkRoutes: readonly ApiRoute[] = [
  // Only the patient makes, lists and turns off their links; a caregiver gets 403 (routes/share-links.ts).
  {
    method: 'GET',
    path: '/api/share-links',
    access: 'patient-only',
    target: 'none',
    request: {},
    allowed: 200,
  },
  {
    method: 'POST',
    path: '/api/share-links',
    access: 'patient-only',
    target: 'none',
    request: { body: { label: 'Matrix', expires_in_seconds: 3600, snapshot: EXAMPLE_SNAPSHOT } },
    allowed: 201,
    isolation: 'case',
  },
  {
    method: 'DELETE',
    path: '/api/share-links/:id',
    access: 'patient-only',
    target: 'owner-share-link',
    request: { params: { id: fill('target-id') } },
    allowed: 200,
    isolation: 'case',
  },
  // The manifest address: public, its token the capability; a made-up one is not found, for everyone.
  {
    method: 'POST',
    path: '/api/shl/:token',
    access: 'public',
    target: 'none',
    request: { params: { token: UNKNOWN_TOKEN }, body: { recipient: 'Matrix' } },
    allowed: 404,
  },
  // Its CORS preflight, for viewers on other sites.
  {
    method: 'OPTIONS',
    path: '/api/shl/:token',
    access: 'public',
    target: 'none',
    request: { params: { token: UNKNOWN_TOKEN } },
    allowed: 204,
  },
];
