import { useLiveQuery } from 'dexie-react-hooks';
import { KeyRound } from 'lucide-react';
import { permissionRequestStatusOf } from '../../../domain/caregivers';
import { formatDateTime } from '../../../domain/date-display';
import { hasUserDb, userDb } from '../../../local/db';
import { Badge, type BadgeTone } from '../../ui/badge';
import { EmptyState } from '../../ui/page';
import { PermissionSummary } from '../../ui/permission-summary';
import { Card } from '../../ui/card';

// The caregiver's own permission requests to the selected patient, newest first, with their status
// (pending, approved or rejected, compared case-insensitively).

const STATUS: Record<ReturnType<typeof permissionRequestStatusOf>, { label: string; tone: BadgeTone }> = {
  pending: { label: 'Pending', tone: 'warning' },
  approved: { label: 'Approved', tone: 'success' },
  rejected: { label: 'Rejected', tone: 'danger' },
  unknown: { label: 'Unknown', tone: 'neutral' },
};

export function MyPermissionRequests({ patientId }: { patientId: string }) {
  const requests = useLiveQuery(
    async () =>
      hasUserDb()
        ? (await userDb().permissionRequests.toArray())
            .filter((request) => request.patient_id === patientId)
            .sort((a, b) => b.requested_at.localeCompare(a.requested_at))
        : [],
    [patientId],
  );
  return (
    <section aria-labelledby="my-requests-heading" className="mt-8">
      <h2 id="my-requests-heading" className="mb-3 text-heading text-text">
        Your requests
      </h2>
      {requests && requests.length === 0 ? (
        <EmptyState icon={<KeyRound />} title="No requests yet.">
          Tick the permissions you need above and choose Save Changes; the patient then accepts or declines.
        </EmptyState>
      ) : (
        <ul className="space-y-3" data-testid="my-permission-requests">
          {(requests ?? []).map((request) => {
            const status = STATUS[permissionRequestStatusOf(request.status)];
            return (
              <Card
                key={request.id}
                as="li"
                padding="item"
                className="flex min-w-0 flex-col gap-2 sm:flex-row sm:items-start sm:justify-between"
              >
                <div className="min-w-0 text-small">
                  <p className="mb-1 font-semibold">Requested {formatDateTime(request.requested_at)}</p>
                  <PermissionSummary permissions={request.permissions} />
                </div>
                <Badge tone={status.tone} className="self-start">
                  {status.label}
                </Badge>
              </Card>
            );
          })}
        </ul>
      )}
    </section>
  );
}
