import { Link } from '@tanstack/react-router';
import { FileDown } from 'lucide-react';

/** The way to the import screen, under Medical History's title: /medical-history/import or /caregiver/import. */
export function ImportRecordsLink({ to }: { to: '/medical-history/import' | '/caregiver/import' }) {
  return (
    <Link
      to={to}
      className="inline-flex min-h-11 items-center gap-2 rounded-control border border-border-strong bg-surface px-4 py-2 font-semibold text-text hover:bg-surface-muted focus:outline-none focus-visible:ring-2 focus-visible:ring-focus"
    >
      <FileDown aria-hidden="true" className="h-5 w-5" />
      Import records from a file
    </Link>
  );
}
