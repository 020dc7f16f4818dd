import { PERMISSION_CATALOGUE } from '../../domain/permissions';

// The read-only side of permissions, apart from the picker: the caregiver's Home shows it on its first
// screen, whose JavaScript has a budget (tests/build/budget.mjs).

/** The catalogue's groups that hold any of `permissions`, each with the labels of those it holds, in order. */
export function permissionsByResource(
  permissions: readonly string[],
): { resource: string; labels: string[] }[] {
  return PERMISSION_CATALOGUE.map((group) => ({
    resource: group.resource,
    labels: group.permissions
      .filter((permission) => permissions.includes(permission.value))
      .map((permission) => permission.label),
  })).filter((group) => group.labels.length > 0);
}

/** What a list of permissions allows, by resource ('Appointment: Read Appointment, Add Appointment'). */
export function PermissionSummary({
  permissions,
  empty = 'No permissions yet.',
}: {
  permissions: readonly string[];
  empty?: string;
}) {
  const groups = permissionsByResource(permissions);
  if (groups.length === 0) return <p className="text-muted">{empty}</p>;
  return (
    <ul className="space-y-1">
      {groups.map((group) => (
        <li key={group.resource} className="min-w-0 break-words">
          <span className="font-semibold">{group.resource}:</span> {group.labels.join(', ')}
        </li>
      ))}
    </ul>
  );
}
