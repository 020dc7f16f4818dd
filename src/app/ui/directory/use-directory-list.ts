import { useCallback, useMemo, useState } from 'react';
import toast from 'react-hot-toast';

// The state of a list of providers the patient keeps (my doctors, my pharmacies): which entry takes the
// focus next, and removing one after asking. After a removal the focus goes to the next entry (or the one
// before), or to the list's heading when it is empty, so the person is never left on nothing.

export function useDirectoryList<Entry extends { id: string }>({
  entries,
  directoryIdOf,
  headingId,
  remove,
  removedMessage,
}: {
  entries: readonly Entry[] | undefined;
  /** The entry's id in the directory: the search marks those already listed. */
  directoryIdOf: (entry: Entry) => string;
  headingId: string;
  remove: (entry: Entry) => Promise<void>;
  removedMessage: string;
}) {
  const [removing, setRemoving] = useState<Entry | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const clearFocus = useCallback(() => setFocusId(null), []);
  const listed = useMemo(() => new Set((entries ?? []).map(directoryIdOf)), [entries, directoryIdOf]);

  const confirmRemove = async () => {
    if (!removing || !entries) return;
    const index = entries.findIndex((entry) => entry.id === removing.id);
    const neighbour = entries[index + 1] ?? entries[index - 1] ?? null;
    await remove(removing);
    setRemoving(null);
    toast.success(removedMessage);
    if (neighbour) setFocusId(neighbour.id);
    else requestAnimationFrame(() => document.getElementById(headingId)?.focus());
  };

  return {
    listed,
    focusId,
    /** An entry that arrived or moved (made preferred): it takes the focus once shown. */
    focus: setFocusId,
    clearFocus,
    removing,
    askRemove: setRemoving,
    cancelRemove: () => setRemoving(null),
    confirmRemove: () => void confirmRemove(),
  };
}

/** Takes the person to the first field of a search section ('#find-a-doctor'), scrolled into view. */
export function goToSearch(sectionId: string): void {
  const field = document.querySelector<HTMLElement>(`#${sectionId} input`);
  field?.scrollIntoView({ block: 'center' });
  field?.focus();
}
