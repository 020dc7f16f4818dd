import { useState } from 'react';
import toast from 'react-hot-toast';
import { Inbox } from 'lucide-react';
import type { ReceivedRequest } from '../../../domain/caregivers';
import { formatDate } from '../../../domain/date-display';
import { approveCareRequest, rejectCareRequest } from '../../../local/care-requests';
import { errorMessages } from '../../../local/http-errors';
import { Button } from '../../ui/button';
import { EmptyState } from '../../ui/page';
import { PermissionSummary } from '../../ui/permission-summary';
import { Card } from '../../ui/card';

// 'Requests': the invitations of patients who already found this caregiver's account (the
// received requests), each accepted or declined here. Accepting makes the patient selectable in the header.

export function ReceivedRequests({ requests }: { requests: readonly ReceivedRequest[] | undefined }) {
  return (
    <section aria-labelledby="received-heading" className="mb-8">
      <h2 id="received-heading" className="mb-3 text-heading text-text">
        Requests
      </h2>
      {requests && requests.length === 0 ? (
        <EmptyState icon={<Inbox />} title="No requests waiting.">
          When a patient invites you, their request appears here for you to accept or decline.
        </EmptyState>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {(requests ?? []).map((request) => (
            <ReceivedRequestCard key={request.request_id} request={request} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ReceivedRequestCard({ request }: { request: ReceivedRequest }) {
  const [busy, setBusy] = useState<'accept' | 'decline' | null>(null);
  const answer = async (kind: 'accept' | 'decline') => {
    setBusy(kind);
    try {
      const message =
        kind === 'accept'
          ? await approveCareRequest(request.request_id)
          : await rejectCareRequest(request.request_id);
      toast.success(message);
    } catch (error) {
      for (const message of errorMessages(error)) toast.error(message, { id: message });
    } finally {
      setBusy(null);
    }
  };
  const headingId = `received-${request.request_id}`;
  return (
    <Card as="li" padding="item" className="flex min-w-0 flex-col gap-2">
      <h3 id={headingId} className="text-heading break-words">
        {request.name}
      </h3>
      <p className="text-muted break-all">{request.email}</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-small">
        <dt className="font-semibold">Relationship</dt>
        <dd className="min-w-0 break-words">
          {request.relationship ?? (request.is_family ? 'Family' : 'Not given')}
        </dd>
        <dt className="font-semibold">Sent</dt>
        <dd>{formatDate(request.created_at)}</dd>
      </dl>
      <div className="text-small">
        <p className="mb-1 font-semibold">Permissions offered</p>
        <PermissionSummary permissions={request.permissions} />
      </div>
      <div className="mt-2 flex flex-wrap gap-3">
        <Button onClick={() => void answer('accept')} disabled={busy !== null} aria-describedby={headingId}>
          {busy === 'accept' ? 'Accepting...' : 'Accept'}
        </Button>
        <Button
          variant="secondary"
          onClick={() => void answer('decline')}
          disabled={busy !== null}
          aria-describedby={headingId}
        >
          {busy === 'decline' ? 'Declining...' : 'Decline'}
        </Button>
      </div>
    </Card>
  );
}
