import { useEffect, useRef } from 'react';
import { Clock, CloudUpload, MapPin, Phone, Star, Store } from 'lucide-react';
import type { MyPharmacy } from '../../../domain/pharmacies';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { EmptyState } from '../../ui/page';
import { addressLine, mapHref, telHref } from '../../../domain/places';

// The patient's pharmacies, from the device's table, the preferred one first and marked in words: name,
// address (a map link), phone (a call link), whether it is open all day and night. The patient may make one
// preferred and remove one (after asking); a caregiver only reads the list.

type Props = {
  pharmacies: MyPharmacy[] | undefined;
  /** Only the patient changes the list: Make preferred and Remove. */
  canChange: boolean;
  /** Where the empty list leads: the search, when this person may search. */
  onFindPharmacy: (() => void) | null;
  onMakePreferred: (pharmacy: MyPharmacy) => void;
  onRemove: (pharmacy: MyPharmacy) => void;
  /** An entry that just arrived, changed or whose neighbour was removed: it takes the focus once shown. */
  focusId: string | null;
  onFocused: () => void;
};

const linkClass =
  'inline-flex min-h-11 items-center gap-2 font-semibold text-primary-strong underline [overflow-wrap:anywhere] focus:outline-none focus-visible:ring-2 focus-visible:ring-focus';

export function MyPharmacies({
  pharmacies,
  canChange,
  onFindPharmacy,
  onMakePreferred,
  onRemove,
  focusId,
  onFocused,
}: Props) {
  return (
    <section aria-labelledby="my-pharmacies-heading" className="mb-8">
      <h2 id="my-pharmacies-heading" tabIndex={-1} className="mb-3 text-heading text-text focus:outline-none">
        My pharmacies
      </h2>
      {pharmacies === undefined ? null : pharmacies.length === 0 ? (
        <EmptyState
          icon={<Store />}
          title="No pharmacies in your list yet."
          action={
            onFindPharmacy ? (
              <Button variant="secondary" onClick={onFindPharmacy}>
                Find a pharmacy
              </Button>
            ) : null
          }
        >
          {canChange
            ? 'Search the directory below and add the pharmacies you use: their addresses and phone numbers then stay on this device, even without a signal.'
            : 'When pharmacies are added to this list, they show here.'}
        </EmptyState>
      ) : (
        <ul className="space-y-3" aria-labelledby="my-pharmacies-heading">
          {pharmacies.map((pharmacy) => (
            <PharmacyItem
              key={pharmacy.id}
              pharmacy={pharmacy}
              canChange={canChange}
              onMakePreferred={onMakePreferred}
              onRemove={onRemove}
              focus={pharmacy.id === focusId}
              onFocused={onFocused}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function PharmacyItem({
  pharmacy,
  canChange,
  onMakePreferred,
  onRemove,
  focus,
  onFocused,
}: {
  pharmacy: MyPharmacy;
  canChange: boolean;
  onMakePreferred: (pharmacy: MyPharmacy) => void;
  onRemove: (pharmacy: MyPharmacy) => void;
  focus: boolean;
  onFocused: () => void;
}) {
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (!focus) return;
    ref.current?.focus();
    onFocused();
  }, [focus, onFocused]);
  return (
    <li
      ref={ref}
      tabIndex={-1}
      data-pharmacy-entry={pharmacy.id}
      className="rounded-card bg-surface p-4 text-text shadow-card ring-1 ring-border focus:outline-none focus:ring-2 focus:ring-focus"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="min-w-0 font-semibold [overflow-wrap:anywhere]">{pharmacy.name}</h3>
        {pharmacy.preferred ? (
          <Badge tone="success" icon={<Star />}>
            Preferred
          </Badge>
        ) : null}
        {pharmacy.version === 0 ? (
          <Badge tone="warning" icon={<CloudUpload />}>
            Not synced yet
          </Badge>
        ) : null}
      </div>
      <p>
        <a href={mapHref(pharmacy)} target="_blank" rel="noopener noreferrer" className={linkClass}>
          <MapPin aria-hidden="true" className="h-5 w-5 shrink-0" />
          {addressLine(pharmacy)}
          <span className="sr-only"> (opens a map)</span>
        </a>
      </p>
      {pharmacy.phone ? (
        <p>
          <a href={telHref(pharmacy.phone)} className={linkClass}>
            <Phone aria-hidden="true" className="h-5 w-5 shrink-0" />
            {pharmacy.phone}
          </a>
        </p>
      ) : (
        <p className="text-small text-muted">Phone not known</p>
      )}
      {pharmacy.open_24_hours ? (
        <p className="flex items-center gap-2 text-small text-text">
          <Clock aria-hidden="true" className="h-4 w-4 shrink-0" />
          Open 24 hours
        </p>
      ) : pharmacy.opening_hours ? (
        <p className="flex items-center gap-2 text-small text-muted [overflow-wrap:anywhere]">
          <Clock aria-hidden="true" className="h-4 w-4 shrink-0" />
          {pharmacy.opening_hours}
        </p>
      ) : null}
      {canChange ? (
        <div className="mt-2 flex flex-wrap gap-2">
          {pharmacy.preferred ? null : (
            <Button
              variant="secondary"
              onClick={() => onMakePreferred(pharmacy)}
              aria-label={`Make preferred: ${pharmacy.name}`}
            >
              Make preferred
            </Button>
          )}
          <Button variant="ghost" onClick={() => onRemove(pharmacy)} aria-label={`Remove ${pharmacy.name}`}>
            Remove
          </Button>
        </div>
      ) : null}
    </li>
  );
}
