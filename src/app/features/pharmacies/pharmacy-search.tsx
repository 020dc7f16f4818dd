import { Clock, MapPin, Phone, SearchX } from 'lucide-react';
import {
  DOCTOR_PAGE_SIZE,
  pharmacySearchQuerySchema,
  type DirectoryPharmacy,
} from '../../../domain/directory';
import { MY_PHARMACY_MESSAGES } from '../../../domain/pharmacies';
import { searchPharmacies, type PharmacySearchPage } from '../../../local/pharmacies';
import { Button } from '../../ui/button';
import {
  problemsBySchema,
  ResultPages,
  SearchOfflineNotice,
  useDirectorySearch,
} from '../../ui/directory-search';
import { TextField } from '../../ui/fields';
import { FormAlert } from '../../ui/form-alert';
import { EmptyState } from '../../ui/page';
import { useOnline } from '../../ui/use-online';
import { addressLine, mapHref, telHref } from '../../../domain/places';

// "Find a pharmacy": the directory near a zip (nearest first) and/or by name, 5 a page. The directory lives
// on the server, so this is the one part of the screen that needs a connection; offline it says so. A
// caregiver with Search Pharmacy may look up a phone or an address here, without Add.

type Criteria = { zip: string; name: string };
const EMPTY: Criteria = { zip: '', name: '' };

type Props = {
  /** The directory ids already in the list: those results say so instead of offering Add. */
  listed: ReadonlySet<string>;
  /** Adds the pharmacy (resolves once it is in the list; the toast is the caller's), or null: no Add. */
  onAdd: ((pharmacy: DirectoryPharmacy) => Promise<void>) | null;
};

/** The domain's checks of the search fields, by field (the same messages the server answers). */
const problemsOf = (criteria: Criteria) =>
  problemsBySchema(pharmacySearchQuerySchema.safeParse(criteria), ['zip', 'name'] as const);

const linkClass =
  'inline-flex min-h-11 items-center gap-2 text-small font-semibold text-primary-strong underline [overflow-wrap:anywhere] focus:outline-none focus-visible:ring-2 focus-visible:ring-focus';

export function PharmacySearch({ listed, onAdd }: Props) {
  const online = useOnline();
  const {
    values,
    errors,
    set,
    submit,
    searched,
    result,
    found,
    busy,
    adding,
    add,
    toPage,
    formRef,
    resultsRef,
  } = useDirectorySearch({
    empty: EMPTY,
    problemsOf,
    search: (criteria: Criteria, page, signal) =>
      searchPharmacies({ ...criteria, page, limit: DOCTOR_PAGE_SIZE }, { signal }),
    idOf: (pharmacy: DirectoryPharmacy) => pharmacy.pharmacy_id,
    onAdd,
    listed,
  });

  // "Needs a connection" is about the moment it was said: once the connection is back it no longer shows.
  return (
    <section id="find-a-pharmacy" aria-labelledby="find-a-pharmacy-heading" className="mb-8">
      <h2 id="find-a-pharmacy-heading" className="mb-3 text-heading text-text">
        Find a pharmacy
      </h2>
      {!online ? <SearchOfflineNotice message={MY_PHARMACY_MESSAGES.searchOffline} /> : null}
      <form
        ref={formRef}
        onSubmit={submit}
        noValidate
        role="search"
        aria-label="Find a pharmacy"
        className="grid gap-x-4 rounded-card bg-surface p-4 text-text shadow-card ring-1 ring-border sm:grid-cols-2 sm:p-6"
      >
        <TextField
          label="Zip code"
          name="zip"
          inputMode="numeric"
          autoComplete="postal-code"
          placeholder="e.g. 10001"
          hint="Nearest first"
          value={values.zip}
          error={errors.zip}
          onChange={set('zip')}
        />
        <TextField
          label="Name"
          name="name"
          placeholder="e.g. Walgreens"
          autoComplete="off"
          hint="A zip code, a name, or both"
          value={values.name}
          error={errors.name}
          onChange={set('name')}
        />
        <div className="sm:col-span-2">
          <Button type="submit" disabled={busy} className="w-full sm:w-auto">
            {busy ? 'Searching...' : 'Search'}
          </Button>
        </div>
      </form>

      <div ref={resultsRef} className="mt-4" aria-busy={busy}>
        {result?.kind === 'failed' ? <FormAlert message={result.message} /> : null}
        {found && searched ? (
          <Results
            found={found}
            searchedByZip={searched.zip.trim() !== ''}
            listed={listed}
            canAdd={onAdd !== null}
            adding={adding}
            busy={busy}
            onAdd={(pharmacy) => void add(pharmacy)}
            onPage={toPage}
          />
        ) : null}
      </div>
    </section>
  );
}

function Results({
  found,
  searchedByZip,
  listed,
  canAdd,
  adding,
  busy,
  onAdd,
  onPage,
}: {
  found: PharmacySearchPage;
  searchedByZip: boolean;
  listed: ReadonlySet<string>;
  canAdd: boolean;
  adding: string | null;
  busy: boolean;
  onAdd: (pharmacy: DirectoryPharmacy) => void;
  onPage: (page: number) => void;
}) {
  if (found.totalCount === 0)
    return (
      <EmptyState icon={<SearchX />} title="No pharmacies match this search.">
        Try part of the name, or a nearby zip code.
      </EmptyState>
    );
  const pages = Math.max(1, found.totalPages);
  return (
    <>
      <h3
        data-results-heading
        tabIndex={-1}
        className="mb-3 text-base font-semibold text-text focus:outline-none"
      >
        {found.totalCount === 1
          ? '1 pharmacy found'
          : `${found.totalCount.toLocaleString('en-US')} pharmacies found`}
        {pages > 1 ? `, page ${found.page} of ${pages}` : ''}
      </h3>
      <ul className="space-y-3" aria-label="Search results">
        {found.items.map((pharmacy) => {
          const inList = listed.has(pharmacy.pharmacy_id);
          return (
            <li
              key={pharmacy.pharmacy_id}
              data-directory-id={pharmacy.pharmacy_id}
              tabIndex={-1}
              className="flex flex-wrap items-center justify-between gap-3 rounded-card bg-surface p-4 text-text shadow-card ring-1 ring-border focus:outline-none focus:ring-2 focus:ring-focus"
            >
              <div className="min-w-0 flex-1">
                <p className="font-semibold [overflow-wrap:anywhere]">{pharmacy.name}</p>
                <a href={mapHref(pharmacy)} target="_blank" rel="noopener noreferrer" className={linkClass}>
                  <MapPin aria-hidden="true" className="h-4 w-4 shrink-0" />
                  {addressLine(pharmacy)}
                  <span className="sr-only"> (opens a map)</span>
                </a>
                {pharmacy.phone ? (
                  <p>
                    <a href={telHref(pharmacy.phone)} className={linkClass}>
                      <Phone aria-hidden="true" className="h-4 w-4 shrink-0" />
                      {pharmacy.phone}
                    </a>
                  </p>
                ) : null}
                {pharmacy.open_24_hours ? (
                  <p className="flex items-center gap-1 text-small text-text">
                    <Clock aria-hidden="true" className="h-4 w-4" />
                    Open 24 hours
                  </p>
                ) : null}
                {searchedByZip &&
                pharmacy.distance_miles !== null &&
                pharmacy.distance_miles !== undefined ? (
                  <p className="text-small text-muted">{pharmacy.distance_miles.toFixed(1)} miles away</p>
                ) : null}
              </div>
              {inList && canAdd ? (
                <Button variant="secondary" disabled>
                  In your list
                </Button>
              ) : canAdd ? (
                <Button
                  onClick={() => onAdd(pharmacy)}
                  disabled={adding !== null}
                  aria-label={`Add ${pharmacy.name}`}
                >
                  Add
                </Button>
              ) : null}
            </li>
          );
        })}
      </ul>
      <ResultPages page={found.page} totalPages={found.totalPages} busy={busy} onPage={onPage} />
    </>
  );
}
