import { useState } from 'react';
import { UsersRound } from 'lucide-react';
import type { ApprovedRequest } from '../../../domain/caregivers';
import { deleteCareRequest } from '../../../local/care-requests';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { FormAlert } from '../../ui/form-alert';
import { EmptyState } from '../../ui/page';
import { permissionLabels } from '../../../domain/permissions';
import { shortDate } from './care-format';
import { EditPermissionsSheet } from './edit-permissions-sheet';
import { useOnlineAction } from '../../ui/use-online-action';
import { useCaregivers } from './use-care-lists';
import { Card } from '../../ui/card';

// The patient's caregivers (accepted invitations): who they are, what they may do; change their
// permissions or remove them (their access ends at once, and their device drops the records at its next sync).

export function CaregiverList() {
  const caregivers = useCaregivers();
  const [editing, setEditing] = useState<ApprovedRequest | null>(null);
  const [removing, setRemoving] = useState<ApprovedRequest | null>(null);
  const action = useOnlineAction();

  const confirmRemove = async () => {
    if (!removing) return;
    const link = removing;
    setRemoving(null);
    await action.run(link.permission_id, () =>
      deleteCareRequest({ request_id: link.request_id, status: 'approved', request_type: 'approved' }),
    );
  };

  return (
    <section aria-labelledby="care-approved-heading" className="mb-8">
      <h2 id="care-approved-heading" className="mb-3 text-heading text-text">
        Approved
      </h2>
      <FormAlert message={action.failure} />
      {caregivers === undefined ? null : caregivers.length === 0 ? (
        <EmptyState icon={<UsersRound />} title="No caregivers yet.">
          When someone accepts your invitation, they show here with what they may do.
        </EmptyState>
      ) : (
        <ul className="space-y-3" aria-label="Your caregivers">
          {caregivers.map((caregiver) => (
            <Card
              key={caregiver.permission_id}
              as="li"
              padding="item"
              className="flex flex-wrap items-start justify-between gap-3"
            >
              <div className="min-w-0">
                <p className="font-semibold [overflow-wrap:anywhere]">{caregiver.name}</p>
                <p className="text-small text-muted [overflow-wrap:anywhere]">{caregiver.email}</p>
                <p className="text-small text-muted">{relationOf(caregiver)}</p>
                {caregiver.phone_number ? (
                  <p className="text-small text-muted">{caregiver.phone_number}</p>
                ) : null}
                <p className="mt-1 text-small">
                  {caregiver.permissions.length === 0
                    ? 'No permissions'
                    : permissionLabels(caregiver.permissions).join(', ')}
                </p>
                <p className="text-small text-muted">Since {shortDate(caregiver.approved_at)}</p>
              </div>
              <div className="flex flex-wrap gap-2">
                <Button
                  variant="secondary"
                  aria-label={`Edit permissions of ${caregiver.name}`}
                  onClick={() => {
                    if (action.canStart()) setEditing(caregiver);
                  }}
                >
                  Edit permissions
                </Button>
                <Button
                  variant="ghost"
                  aria-label={`Remove ${caregiver.name}`}
                  disabled={action.pending === caregiver.permission_id}
                  onClick={() => {
                    if (action.canStart()) setRemoving(caregiver);
                  }}
                >
                  {action.pending === caregiver.permission_id ? 'Removing...' : 'Remove'}
                </Button>
              </div>
            </Card>
          ))}
        </ul>
      )}
      {editing ? <EditPermissionsSheet caregiver={editing} onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog
        open={removing !== null}
        title="Remove caregiver"
        message={`Remove ${removing?.name ?? 'this caregiver'}? They lose access to your records at once, and their device removes them at its next sync.`}
        confirmLabel="Remove"
        onConfirm={() => void confirmRemove()}
        onClose={() => setRemoving(null)}
      />
    </section>
  );
}

function relationOf(caregiver: ApprovedRequest): string {
  const family = caregiver.is_family ? 'Family member' : 'Not family';
  return caregiver.relationship ? `${caregiver.relationship} · ${family}` : family;
}
