import { MapPin, Phone } from 'lucide-react';
import { addressLine, mapHref, telHref, type Place } from '../../../domain/places';

// A place of the provider directory as links: its address opens a map search, its phone a call. Each is a
// 44 px target that wraps anywhere (a long address never widens a phone's screen).

const linkClass = {
  base: 'inline-flex min-h-11 items-center gap-2 font-semibold text-primary-strong underline [overflow-wrap:anywhere] focus:outline-none focus-visible:ring-2 focus-visible:ring-focus',
  small:
    'inline-flex min-h-11 items-center gap-2 text-small font-semibold text-primary-strong underline [overflow-wrap:anywhere] focus:outline-none focus-visible:ring-2 focus-visible:ring-focus',
};
const iconClass = { base: 'h-5 w-5 shrink-0', small: 'h-4 w-4 shrink-0' };

type Size = keyof typeof linkClass;

export function MapLink({ place, size = 'base' }: { place: Place; size?: Size }) {
  return (
    <a href={mapHref(place)} target="_blank" rel="noopener noreferrer" className={linkClass[size]}>
      <MapPin aria-hidden="true" className={iconClass[size]} />
      {addressLine(place)}
      <span className="sr-only"> (opens a map)</span>
    </a>
  );
}

export function PhoneLink({ phone, size = 'base' }: { phone: string; size?: Size }) {
  return (
    <a href={telHref(phone)} className={linkClass[size]}>
      <Phone aria-hidden="true" className={iconClass[size]} />
      {phone}
    </a>
  );
}
