import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { z } from 'zod';
import { DataList, type DataColumn } from '../../../src/app/ui/data-list';
import { TextField } from '../../../src/app/ui/fields';
import { DateRangeFields, FilterBar } from '../../../src/app/ui/filter-bar';
import { Form, useFormSubmit } from '../../../src/app/ui/form';
import { useCountAsOpenSheet, useSheetOpen } from '../../../src/app/ui/open-sheets';
import { Sheet } from '../../../src/app/ui/sheet';
import { useSchemaForm } from '../../../src/app/ui/use-schema-form';

// The app's UI kit (src/app/ui): when a form's messages show, the one submit path, a list that is a table
// on a desk and cards on a phone with the same content, the filter bar, and whether a sheet is open (where
// the toasts stand follows it).

afterEach(() => {
  cleanup();
  Reflect.deleteProperty(window, 'matchMedia');
});

function screenIsWide(wide: boolean) {
  window.matchMedia = ((query: string) => ({
    matches: wide,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  })) as unknown as typeof window.matchMedia;
}

const nameSchema = z.object({
  name: z.string().min(1, { error: 'Name is required.' }),
  note: z.string().max(3, { error: 'Note is too long.' }),
});

describe('useSchemaForm: when a message shows', () => {
  it('says nothing for a field only visited, and speaks once it was changed and left', () => {
    const { result } = renderHook(() => useSchemaForm(nameSchema, { name: '', note: '' }));
    act(() => result.current.field('name').onBlur());
    expect(result.current.field('name').error).toBeUndefined();
    act(() => result.current.field('name').onChange('A'));
    act(() => result.current.field('name').onChange(''));
    // Still in the field: nothing yet.
    expect(result.current.field('name').error).toBeUndefined();
    act(() => result.current.field('name').onBlur());
    expect(result.current.field('name').error).toBe('Name is required.');
    expect(result.current.field('note').error).toBeUndefined();
  });

  it('shows every message once a save was tried, and follows the typing after', () => {
    const { result } = renderHook(() => useSchemaForm(nameSchema, { name: '', note: 'long' }));
    let checked: unknown = 'unset';
    act(() => {
      checked = result.current.validate();
    });
    expect(checked).toBeNull();
    expect(result.current.field('name').error).toBe('Name is required.');
    expect(result.current.field('note').error).toBe('Note is too long.');
    act(() => result.current.field('note').onChange('ok'));
    expect(result.current.field('note').error).toBeUndefined();
  });

  it('holds values that are not text, judged by the same schema', () => {
    const schema = z.object({ times: z.array(z.string()).min(1, { error: 'Add a time.' }) });
    const { result } = renderHook(() => useSchemaForm(schema, { times: [] as string[] }));
    act(() => {
      result.current.validate();
    });
    expect(result.current.errorOf('times')).toBe('Add a time.');
    act(() => result.current.set('times', ['08:00']));
    expect(result.current.errorOf('times')).toBeUndefined();
    expect(result.current.values.times).toEqual(['08:00']);
  });
});

function NameForm({ save }: { save: (values: { name: string; note: string }) => Promise<void> }) {
  const form = useSchemaForm(nameSchema, { name: '', note: '' });
  const submission = useFormSubmit(form, save, {
    describe: (error) => (error instanceof Error ? error.message : 'No.'),
  });
  return (
    <Form
      label="Name form"
      onSubmit={submission.onSubmit}
      failure={submission.failure}
      submitLabel="Save"
      busy={submission.busy}
      onCancel={() => undefined}
    >
      <TextField label="Name" {...form.field('name')} />
      <TextField label="Note" {...form.field('note')} />
    </Form>
  );
}

describe('Form and useFormSubmit: the one submit path', () => {
  it('refuses a save with a problem, says it beside the field and takes the focus there', async () => {
    const save = vi.fn(() => Promise.resolve());
    render(<NameForm save={save} />);
    const form = screen.getByRole('form', { name: 'Name form' });
    fireEvent.change(within(form).getByLabelText('Note'), { target: { value: 'too long' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(within(form).getByText('Name is required.')).toBeTruthy();
    expect(within(form).getByText('Note is too long.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(within(form).getByLabelText('Name')));
    expect(save).not.toHaveBeenCalled();
  });

  it('saves checked values once, and shows why a save failed above the buttons', async () => {
    const save = vi.fn(() => Promise.reject(new Error('The disk is full.')));
    render(<NameForm save={save} />);
    const form = screen.getByRole('form', { name: 'Name form' });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Ada' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('The disk is full.');
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenCalledWith({ name: 'Ada', note: '' });
    // The buttons, in reading order: the save, then Cancel.
    expect(
      within(form)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Save', 'Cancel']);
  });
});

type Visit = { id: string; title: string; date: string; status: string };
const VISITS: Visit[] = [
  { id: 'v1', title: 'Check-up', date: '2026/03/14', status: 'Booked' },
  { id: 'v2', title: 'Dentist', date: '2026/04/02', status: 'Done' },
];
const COLUMNS: DataColumn<Visit>[] = [
  { header: 'Date', nowrap: true, cell: (visit) => visit.date },
  { header: 'Visit', cell: (visit) => visit.title },
  {
    header: 'Status',
    cell: (visit) => visit.status,
    card: (visit) => ({ after: <p data-testid="status">{visit.status}</p> }),
  },
];

function Visits({ focusKey = null }: { focusKey?: string | null }) {
  return (
    <DataList
      items={VISITS}
      keyOf={(visit) => visit.id}
      label="Visits"
      idPrefix="visit"
      columns={COLUMNS}
      title={(visit) => visit.title}
      actions={(visit) => <button type="button">{`Edit ${visit.title}`}</button>}
      itemAttributes={(visit) => ({ 'data-visit-id': visit.id })}
      focusKey={focusKey}
    />
  );
}

describe('DataList: a table on a desk, cards on a phone', () => {
  it('is a table from 768 px: a column a fact, the actions last, named by its label', () => {
    screenIsWide(true);
    render(<Visits />);
    const table = screen.getByRole('table', { name: 'Visits' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Date', 'Visit', 'Status', 'Action']);
    const row = table.querySelector('[data-visit-id="v1"]') as HTMLElement;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['2026/03/14', 'Check-up', 'Booked', 'Edit Check-up']);
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('is cards on a phone with the same facts and actions, each named by its heading', () => {
    screenIsWide(false);
    render(<Visits />);
    expect(screen.queryByRole('table')).toBeNull();
    const list = screen.getByRole('list', { name: 'Visits' });
    const card = within(list).getByRole('listitem', { name: 'Check-up' });
    expect(card.getAttribute('data-visit-id')).toBe('v1');
    expect(card.textContent).toContain('Date:2026/03/14');
    expect(card.textContent).toContain('Visit:Check-up');
    expect(within(card).getByTestId('status').textContent).toBe('Booked');
    expect(within(card).getByRole('button', { name: 'Edit Check-up' })).toBeTruthy();
  });

  it('takes the focus to the item asked for, on a phone and on a desk', async () => {
    for (const wide of [false, true]) {
      screenIsWide(wide);
      const { unmount } = render(<Visits focusKey="v2" />);
      await waitFor(() => expect(document.activeElement?.getAttribute('data-visit-id')).toBe('v2'));
      unmount();
    }
  });
});

function Filters({ onClear }: { onClear: () => void }) {
  const [range, setRange] = useState<{ startDate?: string; endDate?: string }>({});
  return (
    <FilterBar label="Filter visits" columns={2} onClear={onClear}>
      <DateRangeFields
        labels={{ start: 'From', end: 'To' }}
        start={range.startDate}
        end={range.endDate}
        onChange={(field, value) => setRange((current) => ({ ...current, [field]: value }))}
      />
    </FilterBar>
  );
}

describe('FilterBar', () => {
  it('says so beside the end of a range that ends before it starts, and clears on request', () => {
    const onClear = vi.fn();
    render(<Filters onClear={onClear} />);
    const filters = screen.getByRole('form', { name: 'Filter visits' });
    fireEvent.change(within(filters).getByLabelText('From'), { target: { value: '2026-05-10' } });
    fireEvent.change(within(filters).getByLabelText('To'), { target: { value: '2026-05-01' } });
    expect(within(filters).getByRole('alert').textContent).toBe(
      'The end of the range cannot be before its start.',
    );
    expect(within(filters).getByLabelText('To').getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(within(filters).getByLabelText('To'), { target: { value: '2026-05-20' } });
    expect(within(filters).queryByRole('alert')).toBeNull();
    fireEvent.click(within(filters).getByRole('button', { name: 'Clear Filters' }));
    expect(onClear).toHaveBeenCalledTimes(1);
  });
});

describe('useSheetOpen: whether a sheet or dialog is open', () => {
  it('is true while any one is open, until the last closes', () => {
    const seen = renderHook(() => useSheetOpen());
    expect(seen.result.current).toBe(false);
    const first = renderHook(({ open }) => useCountAsOpenSheet(open), { initialProps: { open: true } });
    const second = renderHook(({ open }) => useCountAsOpenSheet(open), { initialProps: { open: false } });
    expect(seen.result.current).toBe(true);
    second.rerender({ open: true });
    first.rerender({ open: false });
    expect(seen.result.current).toBe(true);
    second.unmount();
    expect(seen.result.current).toBe(false);
    first.unmount();
    expect(seen.result.current).toBe(false);
  });

  it('follows a Sheet opening and closing', () => {
    function Screen() {
      const [open, setOpen] = useState(false);
      const sheetOpen = useSheetOpen();
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            {sheetOpen ? 'A sheet is open' : 'Open'}
          </button>
          <Sheet open={open} onClose={() => setOpen(false)} title="Details">
            <button type="button" onClick={() => setOpen(false)}>
              Close
            </button>
          </Sheet>
        </>
      );
    }
    render(<Screen />);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(screen.getByRole('dialog', { name: 'Details' })).toBeTruthy();
    expect(screen.getByText('A sheet is open')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.getByRole('button', { name: 'Open', hidden: true })).toBeTruthy();
  });
});
