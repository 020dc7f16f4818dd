import { Link } from '@tanstack/react-router';
import { ArrowLeft, Hourglass } from 'lucide-react';
import { Badge } from '../../ui/badge';
import { Card, PageTitle } from '../../ui/page';
import { useSession } from '../../shell/use-session';
import { homeFor } from '../../shell/guards';
import { COMING_SOON, type ComingSoonSection } from './sections';

/**
 * A menu entry whose screen is not built yet: its title, what it will do, that nothing is kept here yet,
 * and the way back home. The entry stays in the menu (SPEC section 2) so the menu does not change shape
 * when the screen arrives; this page says so plainly instead of showing an empty screen or fake data.
 */
export function ComingSoonPage({ section }: { section: ComingSoonSection }) {
  const session = useSession();
  const { title, will, meanwhile } = COMING_SOON[section];
  const caregiver = session?.role === 'Caregiver';
  return (
    <>
      <PageTitle
        description={
          <Badge tone="info" icon={<Hourglass />}>
            Coming soon
          </Badge>
        }
      >
        {title}
      </PageTitle>
      <Card>
        <h2 className="text-heading text-text">What this will do</h2>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-text">
          {will.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <p className="mt-4 text-muted">
          This part of Kincare is not ready yet, so nothing is stored here.{' '}
          {caregiver ? meanwhile.caregiver : meanwhile.patient}
        </p>
        <Link
          to={homeFor(session?.role)}
          className="mt-4 inline-flex min-h-11 items-center font-semibold text-primary-strong underline"
        >
          <ArrowLeft aria-hidden="true" className="mr-1 h-5 w-5" />
          Back to Dashboard
        </Link>
      </Card>
    </>
  );
}
