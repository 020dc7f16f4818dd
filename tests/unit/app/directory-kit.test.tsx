import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { z } from 'zod';
import type { DirectorySearchResult } from '../../../src/local/directory-search';
import { DirectorySearch, type SearchField } from '../../../src/app/ui/directory/directory-search';
import { MyEntries } from '../../../src/app/ui/directory/my-entries';
import { nearbyNoMatches } from '../../../src/app/ui/directory/no-matches-advice';
import { useDirectoryList } from '../../../src/app/ui/directory/use-directory-list';

// The provider pattern the doctors and pharmacies screens are configured from (src/app/ui/directory):
// the patient's own list, the directory search with Add, and removing with the focus kept on the list.

vi.mock('react-hot-toast', () => ({ default: { success: vi.fn(), error: vi.fn() } }));

afterEach(cleanup);

type Clinic = { clinic_id: string; name: string };
type Criteria = { zip: string };
const schema = z.object({ zip: z.string().regex(/^\d{5}$/, { error: 'Zip code must be 5 digits.' }) });
const FIELDS: readonly SearchField<Criteria>[] = [{ name: 'zip', label: 'Zip code', inputMode: 'numeric' }];
const FOUND: DirectorySearchResult<Clinic> = {
  kind: 'found',
  result: {
    items: [
      { clinic_id: 'c1', name: 'North Clinic' },
      { clinic_id: 'c2', name: 'South Clinic' },
    ],
    page: 1,
    totalPages: 1,
    totalCount: 2,
  },
};

function Search({
  onAdd,
  search,
}: {
  onAdd: ((clinic: Clinic) => Promise<void>) | null;
  search: (criteria: Criteria) => Promise<DirectorySearchResult<Clinic>>;
}) {
  return (
    <DirectorySearch
      id="find-a-clinic"
      title="Find a clinic"
      offlineMessage="Searching needs a connection."
      fields={FIELDS}
      empty={{ zip: '' }}
      schema={schema}
      search={(criteria) => search(criteria)}
      idOf={(clinic) => clinic.clinic_id}
      nameOf={(clinic) => clinic.name}
      noun={{ one: 'clinic', many: 'clinics' }}
      noMatches={(searched) =>
        nearbyNoMatches({ many: 'clinics', zip: searched.zip, miles: 50, clearFilters: null })
      }
      renderResult={(clinic, searched) => <p>{`${clinic.name} near ${searched.zip}`}</p>}
      listed={new Set(['c1'])}
      onAdd={onAdd}
    />
  );
}

describe('DirectorySearch', () => {
  it("checks the fields with the domain's schema before asking, beside the field", async () => {
    const search = vi.fn(() => Promise.resolve(FOUND));
    render(<Search onAdd={null} search={search} />);
    const form = screen.getByRole('search', { name: 'Find a clinic' });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Zip code' }), { target: { value: '100' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Search' }));
    expect(within(form).getByText('Zip code must be 5 digits.')).toBeTruthy();
    await waitFor(() =>
      expect(document.activeElement).toBe(within(form).getByRole('textbox', { name: 'Zip code' })),
    );
    expect(search).not.toHaveBeenCalled();
  });

  it('lists what it found; a listed one says so, the others offer Add', async () => {
    const onAdd = vi.fn(() => Promise.resolve());
    render(<Search onAdd={onAdd} search={() => Promise.resolve(FOUND)} />);
    const form = screen.getByRole('search', { name: 'Find a clinic' });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Zip code' }), { target: { value: '10001' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Search' }));
    expect(await screen.findByRole('heading', { name: '2 clinics found' })).toBeTruthy();
    const results = within(screen.getByRole('list', { name: 'Search results' })).getAllByRole('listitem');
    expect(results.map((item) => item.textContent)).toEqual([
      'North Clinic near 10001In your list',
      'South Clinic near 10001Add',
    ]);
    expect(within(results[0] as HTMLElement).getByRole('button', { name: 'In your list' })).toHaveProperty(
      'disabled',
      true,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Add South Clinic' }));
    await waitFor(() => expect(onAdd).toHaveBeenCalledWith({ clinic_id: 'c2', name: 'South Clinic' }));
  });

  it("shows the server's refusal of a field beside it, once, with focus there; any other refusal above", async () => {
    const unknown = 'We do not know this zip code. Check it and try again.';
    const refusals: DirectorySearchResult<Clinic>[] = [
      { kind: 'failed', message: unknown, fieldErrors: { zip: unknown } },
      { kind: 'failed', message: 'Something went wrong', fieldErrors: {} },
    ];
    render(<Search onAdd={null} search={() => Promise.resolve(refusals.shift() ?? FOUND)} />);
    const zip = screen.getByRole('textbox', { name: 'Zip code' });
    fireEvent.change(zip, { target: { value: '99999' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText(unknown)).toBeTruthy();
    expect(screen.getAllByText(unknown)).toHaveLength(1);
    // The field's message is the one alert.
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([unknown]);
    expect(zip.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(zip));
    fireEvent.change(zip, { target: { value: '10001' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual(['Something went wrong']);
  });

  it('says plainly where a search that found nothing looked, what to try, and takes focus there', async () => {
    const nothing: DirectorySearchResult<Clinic> = {
      kind: 'found',
      result: { items: [], page: 1, totalPages: 0, totalCount: 0 },
    };
    render(<Search onAdd={null} search={() => Promise.resolve(nothing)} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Zip code' }), { target: { value: '99701' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    const heading = await screen.findByRole('heading', {
      name: 'No clinics found within 50 miles of 99701.',
    });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    const tips = screen.getAllByRole('listitem').map((item) => item.textContent);
    expect(tips).toEqual([
      'Search a wider area: choose "Within 100 miles" under Distance.',
      'Try the zip code of a nearby town or city.',
      'Check that 99701 is the zip code you meant.',
    ]);
    expect(screen.queryByRole('list', { name: 'Search results' })).toBeNull();
  });

  it('offers no Add, and no "In your list", to who may only look things up', async () => {
    render(<Search onAdd={null} search={() => Promise.resolve(FOUND)} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Zip code' }), { target: { value: '10001' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    const list = await screen.findByRole('list', { name: 'Search results' });
    expect(within(list).queryAllByRole('button')).toHaveLength(0);
  });
});

describe('nearbyNoMatches', () => {
  it('offers a wider area until the widest, and fewer criteria when some were set', () => {
    expect(
      nearbyNoMatches({ many: 'doctors', zip: '59001', miles: 25, clearFilters: 'Leave the name empty.' }),
    ).toEqual({
      title: 'No doctors match this search within 25 miles of 59001.',
      tips: [
        'Search a wider area: choose "Within 100 miles" under Distance.',
        'Leave the name empty.',
        'Try the zip code of a nearby town or city.',
        'Check that 59001 is the zip code you meant.',
      ],
    });
    const widest = nearbyNoMatches({ many: 'pharmacies', zip: '99701', miles: 100, clearFilters: null });
    expect(widest.title).toBe('No pharmacies found within 100 miles of 99701.');
    expect(widest.tips.join(' ')).not.toMatch(/wider/);
  });
});

type Entry = { id: string; clinic_id: string; name: string };
let saved: Entry[] = [];

function MyClinics({ entries, canSearch }: { entries: Entry[] | undefined; canSearch: boolean }) {
  const list = useDirectoryList({
    entries,
    directoryIdOf: (entry: Entry) => entry.clinic_id,
    headingId: 'my-clinics-heading',
    remove: (entry: Entry) => {
      saved = saved.filter((kept) => kept.id !== entry.id);
      return Promise.resolve();
    },
    removedMessage: 'Clinic removed.',
  });
  return (
    <>
      <MyEntries
        title="My clinics"
        headingId="my-clinics-heading"
        entries={entries}
        keyOf={(entry) => entry.id}
        itemAttributes={(entry) => ({ 'data-clinic-entry': entry.id })}
        empty={{ icon: null, title: 'No clinics yet.', text: 'Search the directory below.' }}
        find={canSearch ? { label: 'Find a clinic', onFind: () => undefined } : null}
        focusKey={list.focusId}
        onFocused={list.clearFocus}
      >
        {(entry) => (
          <button type="button" onClick={() => list.askRemove(entry)}>{`Remove ${entry.name}`}</button>
        )}
      </MyEntries>
      {list.removing ? (
        <button type="button" onClick={list.confirmRemove}>
          Confirm
        </button>
      ) : null}
    </>
  );
}

describe('MyEntries and useDirectoryList', () => {
  it('says the list is empty, with the way to the search only for who may search', () => {
    const { rerender } = render(<MyClinics entries={[]} canSearch />);
    expect(screen.getByText('No clinics yet.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Find a clinic' })).toBeTruthy();
    rerender(<MyClinics entries={[]} canSearch={false} />);
    expect(screen.queryByRole('button', { name: 'Find a clinic' })).toBeNull();
  });

  it('after a removal, puts the focus on the next entry, or on the heading once the list is empty', async () => {
    saved = [
      { id: 'e1', clinic_id: 'c1', name: 'North Clinic' },
      { id: 'e2', clinic_id: 'c2', name: 'South Clinic' },
    ];
    const { rerender } = render(<MyClinics entries={saved} canSearch />);
    expect(within(screen.getByRole('list', { name: 'My clinics' })).getAllByRole('listitem')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Remove North Clinic' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    rerender(<MyClinics entries={saved} canSearch />);
    await waitFor(() => expect(document.activeElement?.getAttribute('data-clinic-entry')).toBe('e2'));
    fireEvent.click(screen.getByRole('button', { name: 'Remove South Clinic' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(saved).toHaveLength(0));
    rerender(<MyClinics entries={saved} canSearch />);
    await waitFor(() => expect(document.activeElement?.id).toBe('my-clinics-heading'));
  });
});
