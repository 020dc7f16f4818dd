import { KeyRound, WifiOff } from 'lucide-react';
import type { PermissionRequestEntry } from '../../../domain/caregivers';
import { approvePermissionRequest, rejectPermissionRequest } from '../../../local/care-requests';
import { useOnline } from '../../ui/use-online';
import { useRefreshOnOpen } from '../../ui/use-refresh-on-open';
import { FormAlert } from '../../ui/form-alert';
import { DataList } from '../../ui/data-list';
import { EmptyState, PageTitle } from '../../ui/page';
import { permissionLabels } from '../../../domain/permissions';
import { requestedAt } from './permission-request-format';
import { RequestStatus } from './request-status';
import { useOnlineAction } from '../../ui/use-online-action';
import { usePermissionRequests } from './use-permission-requests';

/**
 * /permission-request (patient): 'Caregivers Permission List'. A table with the columns Requested,
 * Caregiver, Permissions and Status from 768 px, one card per request below (ui/data-list.tsx). Rows come
 * from this device's copy (they show offline); answering needs a connection and says so.
 */
export function PermissionRequestsPage() {
  useRefreshOnOpen();
  const requests = usePermissionRequests();
  const online = useOnline();
  const action = useOnlineAction();

  const answer = (entry: PermissionRequestEntry, accept: boolean) =>
    void action.run(entry.id, () =>
      accept ? approvePermissionRequest(entry.id) : rejectPermissionRequest(entry.id),
    );
  const status = (entry: PermissionRequestEntry) => (
    <RequestStatus
      entry={entry}
      busy={action.pending === entry.id}
      onAccept={() => answer(entry, true)}
      onDecline={() => answer(entry, false)}
    />
  );

  return (
    <>
      <PageTitle description="Your caregivers can ask for more access; you decide, request by request.">
        Caregivers Permission List
      </PageTitle>
      {online ? null : (
        <p
          role="status"
          className="mb-6 flex items-start gap-2 rounded-control bg-warning-soft p-3 text-small text-warning-strong ring-1 ring-warning/30 ring-inset"
        >
          <WifiOff aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
          You are offline. This list is as this device last saw it; accepting or declining needs a connection.
        </p>
      )}
      <FormAlert message={action.failure} />
      {requests === undefined ? null : requests.length === 0 ? (
        <EmptyState icon={<KeyRound />} title="No permission requests.">
          When a caregiver asks for more access to your records, the request shows here for you to accept or
          decline.
        </EmptyState>
      ) : (
        <DataList
          items={requests}
          keyOf={(entry) => entry.id}
          label="Permission requests from your caregivers"
          idPrefix="permission-request"
          columns={[
            { header: 'Requested', nowrap: true, cell: (entry) => requestedAt(entry.requested_at) },
            { header: 'Caregiver', cell: (entry) => entry.name },
            { header: 'Permissions', cell: (entry) => permissionLabels(entry.permissions).join(', ') },
            // On a card the status and its buttons stand under the facts, with room to tap.
            {
              header: 'Status',
              cell: status,
              card: (entry) => ({ after: <div className="mt-1">{status(entry)}</div> }),
            },
          ]}
          itemAttributes={(entry) => ({ 'data-request-id': entry.id })}
        />
      )}
    </>
  );
}
