import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ChevronLeft, ChevronRight, WifiOff } from 'lucide-react';
import type { DirectorySearchPage, DirectorySearchResult } from '../../local/directory-search';
import { Button } from './button';

// What the two searches of the provider directory share (Find a doctor, Find a pharmacy): the form's
// state and checks, one search at a time (a new one cancels the last), where focus goes after a page or an
// add, the "needs a connection" notice and the page buttons. Each screen keeps its own fields and results.

type Problems<Field extends string> = Partial<Record<Field, string>>;

export function useDirectorySearch<Criteria extends Record<string, string>, Item>(options: {
  empty: Criteria;
  /** The domain's checks of the fields, by field (the messages the server would answer), or null. */
  problemsOf: (criteria: Criteria) => Problems<keyof Criteria & string> | null;
  search: (criteria: Criteria, page: number, signal: AbortSignal) => Promise<DirectorySearchResult<Item>>;
  /** The directory id of a result (where focus goes after it is added). */
  idOf: (item: Item) => string;
  /** Adds the result (resolves once it is in the list), or null when the caller may not add. */
  onAdd: ((item: Item) => Promise<void>) | null;
  /** The ids already listed: a change of it can move focus to the result just added. */
  listed: ReadonlySet<string>;
}) {
  type Field = keyof Criteria & string;
  const { empty, problemsOf, search, idOf, onAdd, listed } = options;
  const [values, setValues] = useState<Criteria>(empty);
  const [errors, setErrors] = useState<Problems<Field>>({});
  const [searched, setSearched] = useState<Criteria | null>(null);
  const [result, setResult] = useState<DirectorySearchResult<Item> | null>(null);
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

  const set = (field: Field) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const run = async (criteria: Criteria, page: number) => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setBusy(true);
    const answer = await search(criteria, page, controller.signal);
    if (controller.signal.aborted) return;
    setBusy(false);
    setResult(answer);
    if (answer.kind === 'failed') setErrors(answer.fieldErrors as Problems<Field>);
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

  const add = async (item: Item) => {
    if (!onAdd) return;
    setAdding(idOf(item));
    try {
      await onAdd(item);
      focusTarget.current = idOf(item);
    } finally {
      setAdding(null);
    }
  };

  const found: DirectorySearchPage<Item> | null = result?.kind === 'found' ? result.result : null;
  const toPage = (page: number) => {
    if (searched) void run(searched, page);
  };
  return {
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
  };
}

/** The checks of a search schema, by field, for the fields named (the first message of each). */
export function problemsBySchema<Field extends string>(
  parsed:
    { success: true } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } },
  fields: readonly Field[],
): Partial<Record<Field, string>> | null {
  if (parsed.success) return null;
  const problems: Partial<Record<Field, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = fields.find((name) => name === issue.path[0]);
    if (field && !problems[field]) problems[field] = issue.message;
  }
  return problems;
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
