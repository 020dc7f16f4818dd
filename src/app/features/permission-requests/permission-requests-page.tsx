import { KeyRound, WifiOff } from 'lucide-react';
import type { PermissionRequestEntry } from '../../../domain/caregivers';
import { approvePermissionRequest, rejectPermissionRequest } from '../../../local/care-requests';
import { useOnline } from '../../ui/use-online';
import { useRefreshOnOpen } from '../../ui/use-refresh-on-open';
import { FormAlert } from '../../ui/form-alert';
import { EmptyState, PageTitle } from '../../ui/page';
import { permissionLabels } from '../../../domain/permissions';
import { requestedAt } from './permission-request-format';
import { RequestStatus } from './request-status';
import { useOnlineAction } from '../../ui/use-online-action';
import { usePermissionRequests } from './use-permission-requests';

/**
 * /permission-request (patient): 'Caregivers Permission List' of SPEC section 2. A table with the columns
 * Requested, Caregiver, Permissions and Status from 768 px, one card per request below. Rows come from
 * this device's copy (they show offline); answering needs a connection and says so.
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
        <>
          <table className="hidden w-full border-collapse overflow-hidden rounded-card bg-surface text-left text-text shadow-card ring-1 ring-border md:table">
            <caption className="sr-only">Permission requests from your caregivers</caption>
            <thead className="bg-surface-muted text-small">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Requested
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Caregiver
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Permissions
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Status
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {requests.map((entry) => (
                <tr key={entry.id} data-request-id={entry.id} className="align-top">
                  <td className="px-4 py-3 whitespace-nowrap">{requestedAt(entry.requested_at)}</td>
                  <td className="px-4 py-3 [overflow-wrap:anywhere]">{entry.name}</td>
                  <td className="px-4 py-3">{permissionLabels(entry.permissions).join(', ')}</td>
                  <td className="px-4 py-3">{status(entry)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <ul className="space-y-3 md:hidden" aria-label="Permission requests from your caregivers">
            {requests.map((entry) => (
              <li
                key={entry.id}
                data-request-id={entry.id}
                className="rounded-card bg-surface p-4 text-text shadow-card ring-1 ring-border"
              >
                <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1">
                  <dt className="text-small text-muted">Requested</dt>
                  <dd>{requestedAt(entry.requested_at)}</dd>
                  <dt className="text-small text-muted">Caregiver</dt>
                  <dd className="[overflow-wrap:anywhere]">{entry.name}</dd>
                  <dt className="text-small text-muted">Permissions</dt>
                  <dd>{permissionLabels(entry.permissions).join(', ')}</dd>
                </dl>
                <div className="mt-3">{status(entry)}</div>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
