import { Link } from '@tanstack/react-router';
import { BadgeAlert } from 'lucide-react';
import { buttonClass } from '../../ui/button';

/** Home's way to the medical ID: one tap, drawn at once (no card waits for it, so nothing below moves). */
export function MedicalIdLink() {
  return (
    <Link to="/medical-id" className={buttonClass('secondary', 'mb-4')}>
      <BadgeAlert aria-hidden="true" className="h-5 w-5 text-danger" />
      Medical ID
    </Link>
  );
}
