import { History } from 'lucide-react';
import { EmptyState } from '../../ui/page';
import { activityLine } from './care-format';
import { useCareActivity } from './use-care-lists';
import { Card } from '../../ui/card';

// What caregivers did with the patient's records, and how many of them reached a caregiver's device each
// day, as the server recorded it (newest first; the replica keeps the last 50 changes and the last 50
// lines of deliveries, so no amount of reading hides a change).

export function ActivityList() {
  const activity = useCareActivity();
  return (
    <section aria-labelledby="care-activity-heading" className="mb-8">
      <h2 id="care-activity-heading" className="mb-3 text-heading text-text">
        Recent activity
      </h2>
      {activity === undefined ? null : activity.length === 0 ? (
        <EmptyState icon={<History />} title="No activity yet.">
          When a caregiver adds, changes or deletes one of your records, or their device receives your
          records, it shows here.
        </EmptyState>
      ) : (
        <Card as="ul" padding="row" className="divide-y divide-border" aria-label="Recent activity">
          {activity.map((entry) => (
            <li key={entry.id} className="py-3 [overflow-wrap:anywhere]">
              {activityLine(entry)}
            </li>
          ))}
        </Card>
      )}
    </section>
  );
}
