import { Link } from '@tanstack/react-router';
import { FileDown } from 'lucide-react';
import { buttonClass } from '../../ui/button';

/** The way to the import screen, under Medical History's title: /medical-history/import or /caregiver/import. */
export function ImportRecordsLink({ to }: { to: '/medical-history/import' | '/caregiver/import' }) {
  return (
    <Link to={to} className={buttonClass('secondary')}>
      <FileDown aria-hidden="true" className="h-5 w-5" />
      Import records from a file
    </Link>
  );
}
