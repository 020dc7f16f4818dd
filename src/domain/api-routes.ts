// Every API route, who may call it, and how to build a call of it: the table the authorization matrix
// (tests/server/authorization-matrix.test.ts) is generated from. The matrix boots the app, lists the
// routes it registered, and fails on any route missing here (or listed here and not registered): a new
// route is not done until it has its line, and its line says who may call it.
//
// The matrix plays every route against one patient, "the owner", whose data the call names, with nine
// callers: the owner, another patient, a caregiver with no link to the owner, a linked caregiver without
// the route's permission, a linked caregiver with it, a caregiver whose link was revoked, and no token,
// an expired token and an ended session (both the owner's). From `access`, `target` and the statuses
// below it derives what each caller must get, and checks that no answer holds the owner's data that the
// caller may not see (and, for reads, that the callers who may see it do).

import type { ApiRoute, HttpMethod } from './api-route-types';
import { authRoutes, careRoutes } from './api-routes-people';
import { directoryRoutes, recordRoutes } from './api-routes-records';
import { labReportRoutes, medicineRoutes } from './api-routes-medicines';
import { billingRoutes } from './api-routes-billing';
import { checkInRoutes } from './api-routes-check-in';
import { weatherRoutes } from './api-routes-weather';
import { medicalHistoryRoutes } from './api-routes-medical-history';
import { fitbitRoutes } from './api-routes-fitbit';
import { declaredRecordRoutes } from './api-routes-declared';
import { importRoutes } from './api-routes-import';
import { exportRoutes } from './api-routes-export';
import { shareLinkRoutes } from './api-routes-share-links';

export type {
  ApiRoute,
  Fill,
  HttpMethod,
  RecipeValue,
  Refusal,
  RouteAccess,
  RouteRequest,
  RouteTarget,
} from './api-route-types';

export const API_ROUTES: readonly ApiRoute[] = [
  { method: 'GET', path: '/api/health', access: 'public', target: 'none', request: {}, allowed: 200 },
  ...authRoutes,
  ...careRoutes,
  ...directoryRoutes,
  ...recordRoutes,
  ...medicineRoutes,
  ...labReportRoutes,
  ...billingRoutes,
  ...checkInRoutes,
  ...weatherRoutes,
  ...medicalHistoryRoutes,
  ...fitbitRoutes,
  ...declaredRecordRoutes,
  ...importRoutes,
  ...exportRoutes,
  ...shareLinkRoutes,
];

/** Routes the matrix does not play: they serve no one's data (the OpenAPI document). */
export const ROUTES_OUTSIDE_THE_MATRIX: readonly { method: HttpMethod; path: `/api/${string}` }[] = [
  { method: 'GET', path: '/api/docs' },
];

export const routeName = (route: { method: string; path: string }): string => `${route.method} ${route.path}`;
