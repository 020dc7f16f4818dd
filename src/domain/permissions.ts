// The permission catalogue of SPEC section 6 and the caregiver route table of SPEC section 2.
export const PERMISSION_CATALOGUE = [
  {
    resource: 'Doctor',
    permissions: [
      { value: 'ReadDoctor', label: 'Read Doctor', description: 'View list of associated doctors' },
      { value: 'AddDoctors', label: 'Add Doctors', description: 'Add a doctor to the network' },
      { value: 'DeleteDoctor', label: 'Delete Doctor', description: 'Remove a doctor' },
      {
        value: 'ViewDoctorProfile',
        label: 'View Doctor Profile',
        description: 'View detailed profile and qualifications',
      },
    ],
  },
  {
    resource: 'Pharmacy',
    permissions: [
      { value: 'ReadPharmacy', label: 'Read Pharmacy', description: 'View linked pharmacies' },
      { value: 'SearchPharmacy', label: 'Search Pharmacy', description: 'Search by name or location' },
    ],
  },
  {
    resource: 'Appointment',
    permissions: [
      { value: 'ReadAppointment', label: 'Read Appointment', description: 'View appointments' },
      { value: 'AddAppointment', label: 'Add Appointment', description: 'Book a new appointment' },
      { value: 'EditAppointment', label: 'Edit Appointment', description: 'Reschedule or modify' },
      { value: 'DeleteAppointment', label: 'Delete Appointment', description: 'Cancel or remove' },
    ],
  },
  {
    resource: 'Prescription',
    permissions: [
      {
        value: 'ReadPrescription',
        label: 'Read Prescription',
        description: 'View prescriptions and the medicine schedule',
      },
      { value: 'AddPrescription', label: 'Add Prescription', description: 'Add a prescription' },
      { value: 'EditPrescription', label: 'Edit Prescription', description: 'Change a prescription' },
      { value: 'DeletePrescription', label: 'Delete Prescription', description: 'Remove a prescription' },
    ],
  },
  {
    resource: 'Lab Report',
    permissions: [
      { value: 'ReadLabReport', label: 'Read Lab Report', description: 'View lab reports' },
      { value: 'AddLabReport', label: 'Add Lab Report', description: 'Upload a lab report' },
      { value: 'EditLabReport', label: 'Edit Lab Report', description: 'Change a lab report' },
      { value: 'DeleteLabReport', label: 'Delete Lab Report', description: 'Remove a lab report' },
    ],
  },
  {
    resource: 'Medical History',
    permissions: [
      { value: 'ReadMedicalHistory', label: 'Read Medical History', description: 'View medical history' },
    ],
  },
] as const;

export type Permission = (typeof PERMISSION_CATALOGUE)[number]['permissions'][number]['value'];
export const PERMISSIONS: readonly Permission[] = PERMISSION_CATALOGUE.flatMap((group) =>
  group.permissions.map((permission) => permission.value),
);

export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && (PERMISSIONS as readonly string[]).includes(value);
}

/** Caregiver routes that need a Read permission, in sidebar order (SPEC section 2). */
export const CAREGIVER_PERMISSION_ROUTES = [
  { path: '/caregiver/doctors', label: 'Doctors', permission: 'ReadDoctor' },
  { path: '/caregiver/pharmacies', label: 'Pharmacies', permission: 'ReadPharmacy' },
  { path: '/caregiver/lab-report', label: 'Lab Reports', permission: 'ReadLabReport' },
  { path: '/caregiver/appointments', label: 'Appointments', permission: 'ReadAppointment' },
  { path: '/caregiver/prescriptions', label: 'Prescriptions', permission: 'ReadPrescription' },
  { path: '/caregiver/medical-history', label: 'Medical History', permission: 'ReadMedicalHistory' },
] as const satisfies readonly { path: string; label: string; permission: Permission }[];

export function requiredPermissionFor(path: string): Permission | undefined {
  return CAREGIVER_PERMISSION_ROUTES.find((route) => path === route.path || path.startsWith(`${route.path}/`))
    ?.permission;
}

/** Synced resources and the Read permission a caregiver needs to see them. */
export const RESOURCE_READ_PERMISSION = {
  appointments: 'ReadAppointment',
  doctors: 'ReadDoctor',
  pharmacies: 'ReadPharmacy',
  prescriptions: 'ReadPrescription',
  /** The marks of the medicine schedule (taken, not taken) go with the prescriptions. */
  dose_marks: 'ReadPrescription',
  lab_reports: 'ReadLabReport',
  /** The daily check-ins are the patient's own account of their health, read with their history. */
  check_ins: 'ReadMedicalHistory',
  medical_history: 'ReadMedicalHistory',
} as const satisfies Record<string, Permission>;

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
