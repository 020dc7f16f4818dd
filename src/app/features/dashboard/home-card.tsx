import { Component, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import type { LucideIcon } from 'lucide-react';
import { Card } from '../../ui/card';

// The pieces every Home card is made of: the card's shell (a titled section), the link to the section
// it summarises (or why a caregiver has none), and the sections' paths for a patient and for a caregiver.

export const linkClass =
  'inline-flex min-h-11 items-center font-semibold text-primary-strong underline focus:outline-none focus-visible:ring-2 focus-visible:ring-focus';

export type Paths = {
  appointments: '/appointments' | '/caregiver/appointments';
  prescriptions: '/prescriptions' | '/caregiver/prescriptions';
  labReport: '/lab-report' | '/caregiver/lab-report';
  medicalHistory: '/medical-history' | '/caregiver/medical-history';
};

export const PATIENT_PATHS: Paths = {
  appointments: '/appointments',
  prescriptions: '/prescriptions',
  labReport: '/lab-report',
  medicalHistory: '/medical-history',
};
export const CAREGIVER_PATHS: Paths = {
  appointments: '/caregiver/appointments',
  prescriptions: '/caregiver/prescriptions',
  labReport: '/caregiver/lab-report',
  medicalHistory: '/caregiver/medical-history',
};

export const NO_ACCESS_TEXT = 'The patient has not given you access to this section.';

export function HomeCard({
  id,
  title,
  icon: Icon,
  onFailed,
  children,
}: {
  id: string;
  title: string;
  icon: LucideIcon;
  /** Told when the card's content failed (Home waits for some cards' content before it shows them). */
  onFailed?: () => void;
  children: ReactNode;
}) {
  return (
    <Card
      aria-labelledby={`${id}-heading`}
      data-testid={`home-${id}`}
      padding="tile"
      className="flex min-w-0 flex-col"
    >
      <h2 id={`${id}-heading`} className="mb-2 flex items-center gap-2 text-heading text-text">
        <Icon aria-hidden="true" className="h-5 w-5 shrink-0 text-primary" />
        {title}
      </h2>
      <CardBoundary onFailed={onFailed}>{children}</CardBoundary>
    </Card>
  );
}

/**
 * A card whose content fails (its chunk could not load, or it threw) says so in its own place; the rest
 * of Home stays usable. The cards are filled by several features, so one of them must not blank the page.
 */
class CardBoundary extends Component<{ children: ReactNode; onFailed?: () => void }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch() {
    this.props.onFailed?.();
  }

  override render() {
    if (this.state.failed)
      return (
        <p className="text-muted" role="status">
          This card could not be shown. Reload to try again.
        </p>
      );
    return this.props.children;
  }
}

export function SectionLink({
  allowed,
  to,
  children,
}: {
  allowed: boolean;
  to: Paths[keyof Paths];
  children: ReactNode;
}) {
  if (!allowed) return <p className="mt-2 text-small text-muted">{NO_ACCESS_TEXT}</p>;
  return (
    <Link to={to} className={`${linkClass} mt-auto`}>
      {children}
    </Link>
  );
}
