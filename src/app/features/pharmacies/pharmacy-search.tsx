import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ChevronLeft, ChevronRight, Clock, MapPin, Phone, SearchX, WifiOff } from 'lucide-react';
import {
  DOCTOR_PAGE_SIZE,
  pharmacySearchQuerySchema,
  type DirectoryPharmacy,
} from '../../../domain/directory';
import { MY_PHARMACY_MESSAGES } from '../../../domain/pharmacies';
import {
  searchPharmacies,
  type PharmacySearchPage,
  type PharmacySearchResult,
} from '../../../local/pharmacies';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/fields';
import { FormAlert } from '../../ui/form-alert';
import { EmptyState } from '../../ui/page';
import { useOnline } from '../../shell/use-online';
import { addressLine, mapHref, telHref } from '../../../domain/places';

// "Find a pharmacy": the directory near a zip (nearest first) and/or by name, 5 a page. The directory lives
// on the server, so this is the one part of the screen that needs a connection; offline it says so. A
// caregiver with Search Pharmacy may look up a phone or an address here, without Add.

type Criteria = { zip: string; name: string };
type FieldName = keyof Criteria;
const EMPTY: Criteria = { zip: '', name: '' };

type Props = {
  /** The directory ids already in the list: those results say so instead of offering Add. */
  listed: ReadonlySet<string>;
  /** Adds the pharmacy (resolves once it is in the list; the toast is the caller's), or null: no Add. */
  onAdd: ((pharmacy: DirectoryPharmacy) => Promise<void>) | null;
};

/** The domain's checks of the search fields, by field (the same messages the server answers). */
function problemsOf(criteria: Criteria): Partial<Record<FieldName, string>> | null {
  const parsed = pharmacySearchQuerySchema.safeParse(criteria);
  if (parsed.success) return null;
  const problems: Partial<Record<FieldName, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'name' || field === 'zip') && !problems[field]) problems[field] = issue.message;
  }
  return problems;
}

const linkClass =
  'inline-flex min-h-11 items-center gap-2 text-small font-semibold text-primary-strong underline [overflow-wrap:anywhere] focus:outline-none focus-visible:ring-2 focus-visible:ring-focus';

export function PharmacySearch({ listed, onAdd }: Props) {
  const online = useOnline();
  const [values, setValues] = useState<Criteria>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [searched, setSearched] = useState<Criteria | null>(null);
  const [result, setResult] = useState<PharmacySearchResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [adding, setAdding] = useState<string | null>(null);
  const focusTarget = useRef<'results' | string | null>(null);
  const running = useRef<AbortController | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const resultsRef = useRef<HTMLDivElement>(null);

  useEffect(() => () => running.current?.abort(), []);

  // After a new page, focus goes to its heading (a screen reader hears "page 2 of 9"); after an add, to
  // the result that was added (its Add button is gone).
  useEffect(() => {
    const wanted = focusTarget.current;
    if (wanted === null || busy) return;
    const target =
      wanted === 'results'
        ? resultsRef.current?.querySelector<HTMLElement>('[data-results-heading]')
        : resultsRef.current?.querySelector<HTMLElement>(`[data-directory-id="${wanted}"]`);
    target?.focus();
    focusTarget.current = null;
  }, [busy, result, listed, adding]);

  const set = (field: FieldName) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const run = async (criteria: Criteria, page: number) => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setBusy(true);
    const answer = await searchPharmacies(
      { ...criteria, page, limit: DOCTOR_PAGE_SIZE },
      { signal: controller.signal },
    );
    if (controller.signal.aborted) return;
    setBusy(false);
    setResult(answer);
    if (answer.kind === 'failed') setErrors(answer.fieldErrors);
    if (answer.kind === 'found') focusTarget.current = 'results';
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems = problemsOf(values);
    if (problems) {
      setErrors(problems);
      requestAnimationFrame(() =>
        formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
      );
      return;
    }
    setErrors({});
    setSearched(values);
    void run(values, 1);
  };

  const add = async (pharmacy: DirectoryPharmacy) => {
    if (!onAdd) return;
    setAdding(pharmacy.pharmacy_id);
    try {
      await onAdd(pharmacy);
      focusTarget.current = pharmacy.pharmacy_id;
    } finally {
      setAdding(null);
    }
  };

  // "Needs a connection" is about the moment it was said: once the connection is back it no longer shows.
  const found = result?.kind === 'found' ? result.result : null;
  return (
    <section id="find-a-pharmacy" aria-labelledby="find-a-pharmacy-heading" className="mb-8">
      <h2 id="find-a-pharmacy-heading" className="mb-3 text-heading text-text">
        Find a pharmacy
      </h2>
      {!online ? (
        <p
          role="status"
          className="mb-4 flex items-start gap-2 rounded-control bg-warning-soft p-3 text-small text-warning-strong ring-1 ring-warning/30 ring-inset"
        >
          <WifiOff aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
          {MY_PHARMACY_MESSAGES.searchOffline}
        </p>
      ) : null}
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
            onPage={(page) => void run(searched, page)}
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
      {pages > 1 ? (
        <nav aria-label="Result pages" className="mt-4 flex items-center justify-between gap-3">
          <Button
            variant="secondary"
            disabled={busy || found.page <= 1}
            onClick={() => onPage(found.page - 1)}
          >
            <ChevronLeft aria-hidden="true" className="h-5 w-5" />
            Previous
          </Button>
          <p className="text-small text-muted">
            Page {found.page} of {pages}
          </p>
          <Button
            variant="secondary"
            disabled={busy || found.page >= pages}
            onClick={() => onPage(found.page + 1)}
          >
            Next
            <ChevronRight aria-hidden="true" className="h-5 w-5" />
          </Button>
        </nav>
      ) : null}
    </>
  );
}
