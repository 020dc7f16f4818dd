import { Clock, CloudUpload, Star } from 'lucide-react';
import type { DirectoryPharmacy } from '../../../domain/directory';
import type { MyPharmacy } from '../../../domain/pharmacies';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { MapLink, PhoneLink } from '../../ui/directory/place-links';

// How a pharmacy reads on the pharmacies screen: an entry of "My pharmacies" (the preferred one marked in
// words; its address a map link, its phone a call link, whether it is open all day and night; Make
// preferred and Remove for the patient) and a result of "Find a pharmacy" (with the distance after a zip).

export function PharmacyEntry({
  pharmacy,
  canChange,
  onMakePreferred,
  onRemove,
}: {
  pharmacy: MyPharmacy;
  /** Only the patient changes the list: Make preferred and Remove. */
  canChange: boolean;
  onMakePreferred: (pharmacy: MyPharmacy) => void;
  onRemove: (pharmacy: MyPharmacy) => void;
}) {
  return (
    <>
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
        <MapLink place={pharmacy} />
      </p>
      {pharmacy.phone ? (
        <p>
          <PhoneLink phone={pharmacy.phone} />
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
    </>
  );
}

export function PharmacyResult({
  pharmacy,
  searchedByZip,
}: {
  pharmacy: DirectoryPharmacy;
  searchedByZip: boolean;
}) {
  return (
    <>
      <p className="font-semibold [overflow-wrap:anywhere]">{pharmacy.name}</p>
      <MapLink place={pharmacy} size="small" />
      {pharmacy.phone ? (
        <p>
          <PhoneLink phone={pharmacy.phone} size="small" />
        </p>
      ) : null}
      {pharmacy.open_24_hours ? (
        <p className="flex items-center gap-1 text-small text-text">
          <Clock aria-hidden="true" className="h-4 w-4" />
          Open 24 hours
        </p>
      ) : null}
      {searchedByZip && pharmacy.distance_miles !== null && pharmacy.distance_miles !== undefined ? (
        <p className="text-small text-muted">{pharmacy.distance_miles.toFixed(1)} miles away</p>
      ) : null}
    </>
  );
}
