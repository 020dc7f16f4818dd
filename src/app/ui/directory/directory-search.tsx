import type { ReactNode } from 'react';
import { ChevronLeft, ChevronRight, SearchX, WifiOff } from 'lucide-react';
import type { z } from 'zod';
import type { DirectorySearchPage, DirectorySearchResult } from '../../../local/directory-search';
import { Button } from '../button';
import { Card } from '../card';
import { CardList } from '../data-list';
import { SelectField, TextField } from '../fields';
import { FormAlert } from '../form-alert';
import { useOnline } from '../use-online';
import type { TextFieldName } from '../use-schema-form';
import type { NoMatchesAdvice } from './no-matches-advice';
import { useDirectorySearch } from './use-directory-search';

// "Find a ...": the search of the provider directory on the doctors and pharmacies screens, the one part
// of them that needs the server; offline it says so. Its fields, its results' content and what it calls
// them are the screen's; the form, the count, Add (or "In your list"), and the pages are the same for both.

export type SearchField<Criteria> = {
  name: keyof Criteria & string;
  label: string;
  /** A select of `options`, with `placeholder` as its empty choice; a text input otherwise. */
  options?: readonly { value: string; label: string }[];
  placeholder?: string;
  hint?: string;
  inputMode?: 'numeric';
  autoComplete?: string;
};

export type DirectorySearchProps<Criteria extends Record<string, string>, Item> = {
  /** The section's id ('find-a-doctor'): the list's empty state leads to its first field. */
  id: string;
  title: string;
  offlineMessage: string;
  fields: readonly SearchField<Criteria>[];
  empty: Criteria;
  schema: z.ZodType;
  search: (criteria: Criteria, page: number, signal: AbortSignal) => Promise<DirectorySearchResult<Item>>;
  idOf: (item: Item) => string;
  nameOf: (item: Item) => string;
  /** What a result is called: '1 doctor found', '12 doctors found'. */
  noun: { one: string; many: string };
  /** What a search that found nothing says, knowing what was searched: where it looked, what to try. */
  noMatches: (searched: Criteria) => NoMatchesAdvice;
  /** A result's content, knowing what was searched (a distance means something after a zip). */
  renderResult: (item: Item, searched: Criteria) => ReactNode;
  /** The directory ids already in the list: those results say so instead of offering Add. */
  listed: ReadonlySet<string>;
  /** Adds the result (resolves once it is in the list; the toast is the caller's), or null: no Add. */
  onAdd: ((item: Item) => Promise<void>) | null;
};

const GRID: Record<number, { form: string; button: string }> = {
  2: { form: 'sm:grid-cols-2', button: 'sm:col-span-2' },
  3: { form: 'sm:grid-cols-3', button: 'sm:col-span-3' },
};

export function DirectorySearch<Criteria extends Record<string, string>, Item>(
  props: DirectorySearchProps<Criteria, Item>,
) {
  const { id, title, fields, listed, onAdd } = props;
  const online = useOnline();
  const { form, submit, searched, result, found, busy, adding, add, toPage, resultsRef } = useDirectorySearch(
    {
      empty: props.empty,
      schema: props.schema,
      search: props.search,
      idOf: props.idOf,
      onAdd,
      listed,
    },
  );
  const grid = GRID[fields.length] ?? GRID[2];
  const headingId = `${id}-heading`;
  return (
    <section id={id} aria-labelledby={headingId} className="mb-8">
      <h2 id={headingId} className="mb-3 text-heading text-text">
        {title}
      </h2>
      {/* "Needs a connection" is about now: once the connection is back it no longer shows. */}
      {online ? null : <SearchOfflineNotice message={props.offlineMessage} />}
      <Card
        as="form"
        onSubmit={submit}
        noValidate
        role="search"
        aria-label={title}
        className={`grid gap-x-4 ${grid?.form ?? ''}`}
      >
        {fields.map((spec) => {
          // Every criterion is text: the name is one of the form's text fields.
          const common = {
            ...form.field(spec.name as TextFieldName<Criteria>),
            label: spec.label,
            hint: spec.hint,
            placeholder: spec.placeholder,
          };
          return spec.options ? (
            <SelectField key={spec.name} {...common} options={spec.options} />
          ) : (
            <TextField
              key={spec.name}
              {...common}
              inputMode={spec.inputMode}
              autoComplete={spec.autoComplete ?? 'off'}
            />
          );
        })}
        <div className={grid?.button}>
          <Button type="submit" disabled={busy} className="w-full sm:w-auto">
            {busy ? 'Searching...' : 'Search'}
          </Button>
        </div>
      </Card>

      <div ref={resultsRef} className="mt-4" aria-busy={busy}>
        {/* A refusal of the form's own fields shows beside them (and takes focus); anything else here. */}
        {result?.kind === 'failed' && !onlyAbout(result.fieldErrors, fields) ? (
          <FormAlert message={result.message} />
        ) : null}
        {found && searched ? (
          <Results
            {...props}
            found={found}
            searched={searched}
            adding={adding}
            busy={busy}
            onAdd={onAdd ? (item) => void add(item) : null}
            onPage={toPage}
          />
        ) : null}
      </div>
    </section>
  );
}

/** Whether a refusal names fields, all of them the form's own: it shows beside them, nowhere else. */
function onlyAbout(fieldErrors: Record<string, string>, fields: readonly { name: string }[]): boolean {
  const named = Object.keys(fieldErrors);
  return named.length > 0 && named.every((name) => fields.some((field) => field.name === name));
}

function Results<Criteria extends Record<string, string>, Item>({
  found,
  searched,
  adding,
  busy,
  onAdd,
  onPage,
  listed,
  idOf,
  nameOf,
  noun,
  noMatches,
  renderResult,
}: Pick<
  DirectorySearchProps<Criteria, Item>,
  'listed' | 'idOf' | 'nameOf' | 'noun' | 'noMatches' | 'renderResult'
> & {
  found: DirectorySearchPage<Item>;
  searched: Criteria;
  adding: string | null;
  busy: boolean;
  onAdd: ((item: Item) => void) | null;
  onPage: (page: number) => void;
}) {
  if (found.totalCount === 0) return <NothingFound advice={noMatches(searched)} />;
  const pages = Math.max(1, found.totalPages);
  return (
    <>
      <h3
        data-results-heading
        tabIndex={-1}
        className="mb-3 text-base font-semibold text-text focus:outline-none"
      >
        {found.totalCount === 1
          ? `1 ${noun.one} found`
          : `${found.totalCount.toLocaleString('en-US')} ${noun.many} found`}
        {pages > 1 ? `, page ${found.page} of ${pages}` : ''}
      </h3>
      <CardList
        items={found.items}
        keyOf={idOf}
        label="Search results"
        cardClassName="flex flex-wrap items-center justify-between gap-3"
        itemAttributes={(item) => ({ 'data-directory-id': idOf(item) })}
      >
        {(item) => (
          <>
            <div className="min-w-0 flex-1">{renderResult(item, searched)}</div>
            {onAdd === null ? null : listed.has(idOf(item)) ? (
              <Button variant="secondary" disabled>
                In your list
              </Button>
            ) : (
              <Button
                onClick={() => onAdd(item)}
                disabled={adding !== null}
                aria-label={`Add ${nameOf(item)}`}
              >
                Add
              </Button>
            )}
          </>
        )}
      </CardList>
      <ResultPages page={found.page} totalPages={found.totalPages} busy={busy} onPage={onPage} />
    </>
  );
}

/**
 * A search that found nothing: the sentence as the results' heading (focus goes to it, so a screen reader
 * hears it as it would a count), and what to try.
 */
function NothingFound({ advice }: { advice: NoMatchesAdvice }) {
  return (
    <Card as="div" variant="dashed" className="flex flex-col items-start gap-2">
      <SearchX aria-hidden="true" className="h-7 w-7 text-primary" />
      <h3 data-results-heading tabIndex={-1} className="text-heading text-text focus:outline-none">
        {advice.title}
      </h3>
      <p className="text-muted">Things to try:</p>
      <ul className="list-disc space-y-1 pl-5 text-muted">
        {advice.tips.map((tip) => (
          <li key={tip}>{tip}</li>
        ))}
      </ul>
    </Card>
  );
}

/** "Searching ... needs a connection": shown while offline (it is about now, not about the last try). */
export function SearchOfflineNotice({ message }: { message: string }) {
  return (
    <p
      role="status"
      className="mb-4 flex items-start gap-2 rounded-control bg-warning-soft p-3 text-small text-warning-strong ring-1 ring-warning/30 ring-inset"
    >
      <WifiOff aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
      {message}
    </p>
  );
}

/** Previous / Page X of Y / Next under a page of results (nothing when there is one page). */
export function ResultPages({
  page,
  totalPages,
  busy,
  onPage,
}: {
  page: number;
  totalPages: number;
  busy: boolean;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, totalPages);
  if (pages <= 1) return null;
  return (
    <nav aria-label="Result pages" className="mt-4 flex items-center justify-between gap-3">
      <Button variant="secondary" disabled={busy || page <= 1} onClick={() => onPage(page - 1)}>
        <ChevronLeft aria-hidden="true" className="h-5 w-5" />
        Previous
      </Button>
      <p className="text-small text-muted">
        Page {page} of {pages}
      </p>
      <Button variant="secondary" disabled={busy || page >= pages} onClick={() => onPage(page + 1)}>
        Next
        <ChevronRight aria-hidden="true" className="h-5 w-5" />
      </Button>
    </nav>
  );
}
