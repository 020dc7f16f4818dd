import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import type { DirectorySearchPage, DirectorySearchResult } from '../../../local/directory-search';
import { focusFirstProblem } from '../form';
import { useZodForm } from '../use-zod-form';

// The state of a search of the provider directory (Find a doctor, Find a pharmacy): its fields are a form
// of use-schema-form.ts checked by the domain's search schema (the messages the server would answer, and
// the server's own beside its field), one search at a time (a new one cancels the last), and where focus
// goes after a page or an add.

export function useDirectorySearch<Criteria extends Record<string, string>, Item>(options: {
  empty: Criteria;
  /** The domain's schema of the search: its messages show beside the fields. */
  schema: z.ZodType;
  search: (criteria: Criteria, page: number, signal: AbortSignal) => Promise<DirectorySearchResult<Item>>;
  /** The directory id of a result (where focus goes after it is added). */
  idOf: (item: Item) => string;
  /** Adds the result (resolves once it is in the list), or null when the caller may not add. */
  onAdd: ((item: Item) => Promise<void>) | null;
  /** The ids already listed: a change of it can move focus to the result just added. */
  listed: ReadonlySet<string>;
}) {
  const { empty, schema, search, idOf, onAdd, listed } = options;
  const form = useZodForm(schema, empty);
  const [searched, setSearched] = useState<Criteria | null>(null);
  const [result, setResult] = useState<DirectorySearchResult<Item> | null>(null);
  const [busy, setBusy] = useState(false);
  const [adding, setAdding] = useState<string | null>(null);
  const focusTarget = useRef<'results' | string | null>(null);
  const running = useRef<AbortController | null>(null);
  const resultsRef = useRef<HTMLDivElement>(null);
  const formElement = useRef<HTMLFormElement | null>(null);

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

  const run = async (criteria: Criteria, page: number) => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setBusy(true);
    const answer = await search(criteria, page, controller.signal);
    if (controller.signal.aborted) return;
    setBusy(false);
    setResult(answer);
    if (answer.kind === 'failed') {
      form.setServerErrors(answer.fieldErrors);
      // The server refused a field (a zip code it does not know): focus goes there, as for the device's
      // own checks.
      if (Object.keys(answer.fieldErrors).length > 0) focusFirstProblem(formElement.current);
    }
    if (answer.kind === 'found') focusTarget.current = 'results';
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formElement.current = event.currentTarget;
    if (form.validate() === null) {
      focusFirstProblem(event.currentTarget);
      return;
    }
    // The criteria as typed: the directory reads them as the schema does.
    const criteria = form.values;
    setSearched(criteria);
    void run(criteria, 1);
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
  return { form, submit, searched, result, found, busy, adding, add, toPage, resultsRef };
}
