import { appointmentsResource } from './appointments';
import { checkInsResource } from './check-ins';
import { doctorsResource } from './doctors';
import { doseMarksResource } from './dose-marks';
import { labReportsResource } from './lab-reports';
import { medicalHistoryResource } from './medical-history';
import { pharmaciesResource } from './pharmacies';
import { prescriptionsResource } from './prescriptions';
import { vitalsResource } from './vitals';
import type { ResourceDeclaration } from './declare';

// The synced resources: the one list of them (see declare.ts). Their order is the permission catalogue's
// (the picker shows the groups in it) and the order screens list resources in.

export const RESOURCES = [
  doctorsResource,
  pharmaciesResource,
  appointmentsResource,
  prescriptionsResource,
  doseMarksResource,
  labReportsResource,
  checkInsResource,
  medicalHistoryResource,
  vitalsResource,
] as const satisfies readonly ResourceDeclaration[];

type Resources = (typeof RESOURCES)[number];
export type SyncedResource = Resources['key'];

/** The keys, for schemas that take one of them (z.enum). */
export const SYNCED_RESOURCES = RESOURCES.map((resource) => resource.key) as [
  SyncedResource,
  ...SyncedResource[],
];

/** A resource's declaration, by its key. */
export type DeclarationOf<Key extends SyncedResource> = Extract<Resources, { key: Key }>;
/** The type of a resource's records as the device's table holds them. */
export type RecordOf<Key extends SyncedResource> = NonNullable<DeclarationOf<Key>['record']>;

const BY_KEY = new Map<string, Resources>(RESOURCES.map((resource) => [resource.key, resource]));

export function resourceOf<Key extends SyncedResource>(key: Key): DeclarationOf<Key> {
  return BY_KEY.get(key) as DeclarationOf<Key>;
}

export function isSyncedResource(value: unknown): value is SyncedResource {
  return typeof value === 'string' && BY_KEY.has(value);
}

/** The permission catalogue's groups, in the list's order. */
export const CATALOGUE_GROUPS = RESOURCES.flatMap((resource) =>
  'catalogue' in resource ? [resource.catalogue] : [],
);

/** Every permission a declaration names is one of the catalogue's: a misspelt one fails the type check. */
type CataloguePermission = (typeof CATALOGUE_GROUPS)[number]['permissions'][number]['value'];
type NamedPermission = NonNullable<Resources['permissions'][keyof Resources['permissions']]>;
const _everyPermissionIsInTheCatalogue: NamedPermission extends CataloguePermission ? true : never = true;
void _everyPermissionIsInTheCatalogue;
