import { MapPin, SearchX } from 'lucide-react';
import {
  DOCTOR_PAGE_SIZE,
  doctorSearchQuerySchema,
  SPECIALITIES,
  type DirectoryDoctor,
} from '../../../domain/directory';
import { MY_DOCTOR_MESSAGES } from '../../../domain/doctors';
import type { DirectorySearchPage } from '../../../local/directory-search';
import { searchDoctors } from '../../../local/doctors';
import { Button } from '../../ui/button';
import {
  problemsBySchema,
  ResultPages,
  SearchOfflineNotice,
  useDirectorySearch,
} from '../../ui/directory-search';
import { SelectField, TextField } from '../../ui/fields';
import { FormAlert } from '../../ui/form-alert';
import { EmptyState } from '../../ui/page';
import { useOnline } from '../../ui/use-online';
import { addressLine } from '../../../domain/places';

// "Find a doctor": the directory by name, speciality and zip (nearest first), 5 a page. The directory lives
// on the server, so this is the one part of the screen that needs a connection; offline it says so.

type Criteria = { name: string; speciality: string; zip: string };
const EMPTY: Criteria = { name: '', speciality: '', zip: '' };

type Props = {
  /** The directory ids already in the list: those results say so instead of offering Add. */
  listed: ReadonlySet<string>;
  canOpen: boolean;
  onOpen: (doctor: DirectoryDoctor) => void;
  /** Adds the doctor; resolves once it is in the list (the toast is the caller's). */
  onAdd: (doctor: DirectoryDoctor) => Promise<void>;
};

/** The domain's checks of the search fields, by field (the same messages the server answers). */
const problemsOf = (criteria: Criteria) =>
  problemsBySchema(doctorSearchQuerySchema.safeParse(criteria), ['name', 'speciality', 'zip'] as const);

export function DoctorSearch({ listed, canOpen, onOpen, onAdd }: Props) {
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
      searchDoctors({ ...criteria, page, limit: DOCTOR_PAGE_SIZE }, { signal }),
    idOf: (doctor: DirectoryDoctor) => doctor.doctor_id,
    onAdd,
    listed,
  });

  // "Needs a connection" is about the moment it was said: once the connection is back it no longer shows.
  const showOffline = !online;
  return (
    <section id="find-a-doctor" aria-labelledby="find-a-doctor-heading" className="mb-8">
      <h2 id="find-a-doctor-heading" className="mb-3 text-heading text-text">
        Find a doctor
      </h2>
      {showOffline ? <SearchOfflineNotice message={MY_DOCTOR_MESSAGES.searchOffline} /> : null}
      <form
        ref={formRef}
        onSubmit={submit}
        noValidate
        role="search"
        aria-label="Find a doctor"
        className="grid gap-x-4 rounded-card bg-surface p-4 text-text shadow-card ring-1 ring-border sm:grid-cols-3 sm:p-6"
      >
        <TextField
          label="Name"
          name="name"
          placeholder="e.g. Cohen"
          autoComplete="off"
          value={values.name}
          error={errors.name}
          onChange={set('name')}
        />
        <SelectField
          label="Speciality"
          name="speciality"
          placeholder="All specialities"
          options={SPECIALITIES.map((speciality) => ({ value: speciality, label: speciality }))}
          value={values.speciality}
          error={errors.speciality}
          onChange={set('speciality')}
        />
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
        <div className="sm:col-span-3">
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
            canOpen={canOpen}
            adding={adding}
            busy={busy}
            onOpen={onOpen}
            onAdd={(doctor) => void add(doctor)}
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
  canOpen,
  adding,
  busy,
  onOpen,
  onAdd,
  onPage,
}: {
  found: DirectorySearchPage<DirectoryDoctor>;
  searchedByZip: boolean;
  listed: ReadonlySet<string>;
  canOpen: boolean;
  adding: string | null;
  busy: boolean;
  onOpen: (doctor: DirectoryDoctor) => void;
  onAdd: (doctor: DirectoryDoctor) => void;
  onPage: (page: number) => void;
}) {
  if (found.totalCount === 0)
    return (
      <EmptyState icon={<SearchX />} title="No doctors match this search.">
        Try part of the name, another speciality, or a nearby zip code.
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
          ? '1 doctor found'
          : `${found.totalCount.toLocaleString('en-US')} doctors found`}
        {pages > 1 ? `, page ${found.page} of ${pages}` : ''}
      </h3>
      <ul className="space-y-3" aria-label="Search results">
        {found.items.map((doctor) => {
          const inList = listed.has(doctor.doctor_id);
          return (
            <li
              key={doctor.doctor_id}
              data-directory-id={doctor.doctor_id}
              tabIndex={-1}
              className="flex flex-wrap items-center justify-between gap-3 rounded-card bg-surface p-4 text-text shadow-card ring-1 ring-border focus:outline-none focus:ring-2 focus:ring-focus"
            >
              <div className="min-w-0 flex-1">
                {canOpen ? (
                  <button
                    type="button"
                    aria-haspopup="dialog"
                    onClick={() => onOpen(doctor)}
                    className="block min-h-11 w-full rounded-control text-left font-semibold text-primary-strong underline [overflow-wrap:anywhere] focus:outline-none focus-visible:ring-2 focus-visible:ring-focus"
                  >
                    {doctor.name}
                  </button>
                ) : (
                  <p className="font-semibold [overflow-wrap:anywhere]">{doctor.name}</p>
                )}
                <p className="text-small text-text">{doctor.speciality}</p>
                <p className="text-small text-muted [overflow-wrap:anywhere]">{addressLine(doctor)}</p>
                {searchedByZip && doctor.distance_miles !== null && doctor.distance_miles !== undefined ? (
                  <p className="flex items-center gap-1 text-small text-muted">
                    <MapPin aria-hidden="true" className="h-4 w-4" />
                    {doctor.distance_miles.toFixed(1)} miles away
                  </p>
                ) : null}
              </div>
              {inList ? (
                <Button variant="secondary" disabled>
                  In your list
                </Button>
              ) : (
                <Button
                  onClick={() => onAdd(doctor)}
                  disabled={adding !== null}
                  aria-label={`Add ${doctor.name}`}
                >
                  Add
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      <ResultPages page={found.page} totalPages={found.totalPages} busy={busy} onPage={onPage} />
    </>
  );
}
