import { WifiOff } from 'lucide-react';
import { useOnline } from '../../ui/use-online';
import { useRefreshOnOpen } from '../../ui/use-refresh-on-open';
import { Card, PageTitle } from '../../ui/page';
import { ActivityList } from './activity-list';
import { CaregiverList } from './caregiver-list';
import { InviteForm } from './invite-form';
import { SentList } from './sent-list';

/**
 * /care-giver (patient): invite caregivers, see the invitations sent and the caregivers who accepted,
 * change what they may do or remove them, and see what they did. The lists come from this device's copy,
 * so they show offline; every change needs a connection and says so.
 */
export function CareGiverPage() {
  useRefreshOnOpen();
  const online = useOnline();
  return (
    <>
      <PageTitle description="Invite family members and caregivers, and decide what each of them may see and do.">
        Caregivers
      </PageTitle>
      {online ? null : (
        <p
          role="status"
          className="mb-6 flex items-start gap-2 rounded-control bg-warning-soft p-3 text-small text-warning-strong ring-1 ring-warning/30 ring-inset"
        >
          <WifiOff aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
          You are offline. These lists are as this device last saw them; inviting, changing and removing
          caregivers need a connection.
        </p>
      )}
      <Card className="mb-8">
        <h2 className="mb-4 text-heading">Invite a caregiver</h2>
        <InviteForm />
      </Card>
      <SentList />
      <CaregiverList />
      <ActivityList />
    </>
  );
}
