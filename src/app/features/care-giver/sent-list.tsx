import { useState } from 'react';
import { MailQuestion, Send, CircleX } from 'lucide-react';
import type { SentRequest } from '../../../domain/caregivers';
import { deleteCareRequest } from '../../../local/care-requests';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { FormAlert } from '../../ui/form-alert';
import { EmptyState } from '../../ui/page';
import { permissionLabels } from '../../../domain/permissions';
import { shortDate } from './care-format';
import { useOnlineAction } from '../../ui/use-online-action';
import { useSentRequests } from './use-care-lists';
import { Card } from '../../ui/card';

// Invitations the patient sent that are not accepted (yet): waiting (Sent) or declined (Rejected). Delete
// withdraws a waiting one (its link stops working) or clears a declined one from the list.

export function SentList() {
  const requests = useSentRequests();
  const [deleting, setDeleting] = useState<SentRequest | null>(null);
  const action = useOnlineAction();

  const confirmDelete = async () => {
    if (!deleting) return;
    const request = deleting;
    setDeleting(null);
    await action.run(request.request_id, () =>
      deleteCareRequest({ request_id: request.request_id, status: request.status, request_type: 'sent' }),
    );
  };

  return (
    <section aria-labelledby="care-sent-heading" className="mb-8">
      <h2 id="care-sent-heading" className="mb-3 text-heading text-text">
        Sent
      </h2>
      <FormAlert message={action.failure} />
      {requests === undefined ? null : requests.length === 0 ? (
        <EmptyState icon={<MailQuestion />} title="No invitations waiting.">
          Invitations you send show here until the caregiver accepts them.
        </EmptyState>
      ) : (
        <ul className="space-y-3" aria-label="Sent invitations">
          {requests.map((request) => {
            const who = request.name ?? request.caregiver_email;
            return (
              <Card
                key={request.request_id}
                as="li"
                padding="item"
                className="flex flex-wrap items-start justify-between gap-3"
              >
                <div className="min-w-0">
                  <p className="font-semibold [overflow-wrap:anywhere]">{who}</p>
                  {request.name ? (
                    <p className="text-small text-muted [overflow-wrap:anywhere]">
                      {request.caregiver_email}
                    </p>
                  ) : null}
                  <p className="text-small text-muted">
                    {request.permissions.length === 0
                      ? 'No permissions'
                      : permissionLabels(request.permissions).join(', ')}
                  </p>
                  <div className="mt-1 flex flex-wrap items-center gap-2">
                    {request.status === 'sent' ? (
                      <Badge tone="info" icon={<Send />}>
                        Sent
                      </Badge>
                    ) : (
                      <Badge tone="danger" icon={<CircleX />}>
                        Rejected
                      </Badge>
                    )}
                    <span className="text-small text-muted">{shortDate(request.created_at)}</span>
                  </div>
                </div>
                <Button
                  variant="ghost"
                  aria-label={`Delete the invitation to ${who}`}
                  disabled={action.pending === request.request_id}
                  onClick={() => {
                    if (action.canStart()) setDeleting(request);
                  }}
                >
                  {action.pending === request.request_id ? 'Deleting...' : 'Delete'}
                </Button>
              </Card>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete invitation"
        message={
          deleting?.status === 'sent'
            ? `Delete the invitation to ${deleting.name ?? deleting.caregiver_email}? The link in their e-mail will stop working.`
            : 'Delete this invitation from the list?'
        }
        confirmLabel="Delete"
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}
