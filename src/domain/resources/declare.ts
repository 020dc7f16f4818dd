// What a synced resource says about itself, once: everything that used to list the resources (the
// device's tables, the pull and push, the permission catalogue, the caregiver's activity words, the
// refused-change texts, the server's routes, the authorization matrix) reads it from these declarations,
// gathered in list.ts. Adding a resource is one declaration here, its record's schema, its write path on
// the device and its server module (src/README.md, "Adding a resource").

/**
 * An entry of the permission catalogue: the value stored on a care link, its label and short description
 * (the product's own words, kept as they are), and what it lets a caregiver do, in one plain sentence for
 * the person who grants or asks for it.
 */
export type PermissionEntry = {
  readonly value: string;
  readonly label: string;
  readonly description: string;
  readonly does: string;
};

/** A group of the catalogue, as the permission picker shows it ("Appointment": Read, Add, Edit, Delete). */
export type PermissionGroup = { readonly resource: string; readonly permissions: readonly PermissionEntry[] };

/** A field a person fills in, named as the form names it: how a refused change says what they typed. */
export type TypedField = {
  readonly field: string;
  readonly label: string;
  readonly kind: 'text' | 'date-time' | 'choice' | 'doctor' | 'file' | 'number';
};

export type ResourceDeclaration = {
  /** The resource's key: its table on the device, its `resource` in the pull and push, in the database. */
  readonly key: string;
  /** The REST path its records are listed and changed under (with /api). */
  readonly path: string;
  /** The field that names a record to a person (an appointment's title). */
  readonly titleField: string;
  /** How sentences name it: "Alex added an appointment", "received 12 appointments", "New appointment". */
  readonly nouns: { readonly one: string; readonly many: string; readonly singular: string };
  /**
   * Its group of the permission catalogue, when it brings permissions of its own. A resource without one
   * (a dose mark, a check-in) is governed by another's permissions (`permissions`).
   */
  readonly catalogue?: PermissionGroup;
  /** The permissions a caregiver needs to read, add, change and delete its records. */
  readonly permissions: {
    readonly read: string;
    readonly add?: string;
    readonly edit?: string;
    readonly delete?: string;
  };
  /** The fields a person types, in the form's order (a refused change lists what they entered). */
  readonly typedFields: readonly TypedField[];
  /** The device's indexes beyond the id (Dexie's syntax: 'patient_id', '[patient_id+date]'). */
  readonly deviceIndexes: readonly string[];
  /**
   * How two devices' edits of one record meet: 'field', the later edit of each field wins; 'entry', each
   * entry of its lists is a field of its own (`<list>:<id>`), so the later edit of each entry wins.
   */
  readonly merge: 'field' | 'entry';
  /**
   * 'random': the device mints a random UUID. 'name-based': the id is made from what names the record
   * (a patient; a patient and a day; a dose), so every device names it alike before the server has it;
   * the server takes no other id for it, and no record of another kind may take such an id.
   */
  readonly ids: 'random' | 'name-based';
  /**
   * Work the device does after each sync for this resource, by name (src/local/db-device-work.ts):
   * 'read-waiting-reports' reads lab reports that were chosen offline once their files are uploaded.
   */
  readonly afterSync?: 'read-waiting-reports';
  /**
   * 'records': a resource with no code of its own on the server. Its fields, checks and messages
   * (recordsOf) are in records-list.ts, from which the server makes its routes and checks
   * (src/server/services/record-resource.ts) and the device its write path (src/local/record-writes.ts).
   * They are kept out of this declaration because every screen's first paint reads the declarations (the
   * menus, the permission catalogue), and a schema would bring the schema library into it.
   */
  readonly servedFrom?: 'records';
  /**
   * The screens of a resource added after the first menus were fixed: the menus, the caregiver's routes
   * and their guards add them from here (the first screens are listed in their menus).
   */
  readonly screen?: {
    readonly label: string;
    readonly path: string;
    readonly caregiverPath: string;
    /** An icon of app/shell/navigation.ts's set. */
    readonly icon: 'activity';
  };
};

/**
 * A declaration, its literal types kept (so permissions and keys stay exact), with the type of its records
 * as the device's table holds them attached for the type checker only.
 */
export function declareResource<RecordType>() {
  return <const Declaration extends ResourceDeclaration>(
    declaration: Declaration,
  ): Declaration & { readonly record?: RecordType } => declaration;
}
