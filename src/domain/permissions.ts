import { CATALOGUE_GROUPS, RESOURCES, type SyncedResource } from './resources/list';

// The permission catalogue (what a patient may grant a caregiver, group by group as the picker shows it)
// is made of the synced resources' own groups (src/domain/resources), and the caregiver route table of the
// screens a Read permission opens.

export const PERMISSION_CATALOGUE = CATALOGUE_GROUPS;

export type Permission = (typeof CATALOGUE_GROUPS)[number]['permissions'][number]['value'];
export const PERMISSIONS: readonly Permission[] = PERMISSION_CATALOGUE.flatMap((group) =>
  group.permissions.map((permission) => permission.value),
);

export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && (PERMISSIONS as readonly string[]).includes(value);
}

/** The first caregiver screens that need a Read permission, in the sidebar's order. */
const SPEC_CAREGIVER_ROUTES = [
  { path: '/caregiver/doctors', label: 'Doctors', permission: 'ReadDoctor' },
  { path: '/caregiver/pharmacies', label: 'Pharmacies', permission: 'ReadPharmacy' },
  { path: '/caregiver/lab-report', label: 'Lab Reports', permission: 'ReadLabReport' },
  { path: '/caregiver/appointments', label: 'Appointments', permission: 'ReadAppointment' },
  { path: '/caregiver/prescriptions', label: 'Prescriptions', permission: 'ReadPrescription' },
  { path: '/caregiver/medical-history', label: 'Medical History', permission: 'ReadMedicalHistory' },
] as const satisfies readonly { path: string; label: string; permission: Permission }[];

/**
 * Caregiver routes that need a Read permission, in sidebar order: the first ones, then those of resources
 * added since, from their declarations (`screen`).
 */
export const CAREGIVER_PERMISSION_ROUTES: readonly { path: string; label: string; permission: Permission }[] =
  [
    ...SPEC_CAREGIVER_ROUTES,
    ...RESOURCES.flatMap((resource) =>
      'screen' in resource
        ? [
            {
              path: resource.screen.caregiverPath,
              label: resource.screen.label,
              permission: resource.permissions.read,
            },
          ]
        : [],
    ),
  ];

export function requiredPermissionFor(path: string): Permission | undefined {
  return CAREGIVER_PERMISSION_ROUTES.find((route) => path === route.path || path.startsWith(`${route.path}/`))
    ?.permission;
}

/** Synced resources and the Read permission a caregiver needs to see them (each declares its own). */
export const RESOURCE_READ_PERMISSION = Object.fromEntries(
  RESOURCES.map((resource) => [resource.key, resource.permissions.read]),
) as { [Key in SyncedResource]: Extract<(typeof RESOURCES)[number], { key: Key }>['permissions']['read'] };

/** Each permission's group's Read permission (the first of every group), e.g. EditAppointment -> ReadAppointment. */
const READ_PERMISSION_OF = new Map<Permission, Permission>(
  PERMISSION_CATALOGUE.flatMap((group) =>
    group.permissions.map((permission) => [permission.value, group.permissions[0].value] as const),
  ),
);

/**
 * The permission to read what `permission` acts on: whoever may change a record without it must not be
 * shown the record in the answer.
 */
export function readPermissionOf(permission: Permission): Permission {
  return READ_PERMISSION_OF.get(permission) ?? permission;
}

const LABELS = new Map<string, string>(
  PERMISSION_CATALOGUE.flatMap((group) =>
    group.permissions.map((permission) => [permission.value, permission.label] as const),
  ),
);

/** 'ReadAppointment' -> 'Read Appointment'; a value the catalogue does not know is shown as it is. */
export function permissionLabels(values: readonly string[]): string[] {
  return values.map((value) => LABELS.get(value) ?? value);
}

/**
 * Ready-made choices for granting (or asking for) permissions, each a set of the catalogue's boxes: a
 * person who just wants "my daughter can help with my medicines" should not have to know which of 23
 * boxes that is. Each group's Read permission is its first.
 */
const READ_PERMISSIONS: readonly Permission[] = PERMISSION_CATALOGUE.flatMap((group) =>
  group.permissions.slice(0, 1).map((permission) => permission.value),
);

export const PERMISSION_PRESETS: readonly {
  name: string;
  /** What the caregiver may then do, in one sentence. */
  means: string;
  permissions: readonly Permission[];
}[] = [
  {
    name: 'View only',
    means: 'See everything the patient keeps here, and change nothing.',
    permissions: READ_PERMISSIONS,
  },
  {
    name: 'Help with medicines',
    means: 'See everything, add medicines and mark doses as taken.',
    permissions: [...READ_PERMISSIONS, 'AddPrescription', 'EditPrescription'],
  },
  {
    name: 'Full help',
    means: 'Every permission in the list: see, add, change and remove records.',
    permissions: PERMISSIONS,
  },
];
