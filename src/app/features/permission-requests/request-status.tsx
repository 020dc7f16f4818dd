import { CircleCheck, CircleX, Hourglass } from 'lucide-react';
import type { PermissionRequestEntry } from '../../../domain/caregivers';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { shownStatusOf, STATUS_TEXT } from './permission-request-format';

// The Status cell: Accept and Decline on a pending request, otherwise the outcome in
// words (Approved or Rejected).

type Props = {
  entry: PermissionRequestEntry;
  busy: boolean;
  onAccept: () => void;
  onDecline: () => void;
};

export function RequestStatus({ entry, busy, onAccept, onDecline }: Props) {
  const status = shownStatusOf(entry);
  if (status === 'approved')
    return (
      <Badge tone="success" icon={<CircleCheck />}>
        {STATUS_TEXT.approved}
      </Badge>
    );
  if (status === 'rejected')
    return (
      <Badge tone="danger" icon={<CircleX />}>
        {STATUS_TEXT.rejected}
      </Badge>
    );
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Badge tone="warning" icon={<Hourglass />}>
        {STATUS_TEXT.pending}
      </Badge>
      <Button disabled={busy} onClick={onAccept} aria-label={`Accept the request of ${entry.name}`}>
        Accept
      </Button>
      <Button
        variant="secondary"
        disabled={busy}
        onClick={onDecline}
        aria-label={`Decline the request of ${entry.name}`}
      >
        Decline
      </Button>
    </div>
  );
}
