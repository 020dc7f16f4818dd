import type { ApiRoute } from './api-route-types';

// The route table's line for the header's weather (see api-routes.ts, which assembles the table).

export const weatherRoutes: readonly ApiRoute[] = [
  {
    // Anyone signed in may ask; nothing of anyone else is named. The matrix's servers cannot reach a
    // weather service, so its call sends a latitude out of range: the 400 every signed-in caller gets
    // (and the 401 of the token cases, checked before the query) is stable. tests/server/weather.test.ts
    // covers real answers against a local Open-Meteo.
    method: 'GET',
    path: '/api/weather',
    access: 'signed-in',
    target: 'none',
    request: { query: { latitude: '91', longitude: '0' } },
    allowed: 400,
  },
];
