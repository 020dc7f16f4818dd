import { WIDEST_SEARCH_MILES } from '../../../domain/directory';

// What a search of the provider directory that found nothing says: where it looked, in the person's own
// terms (the zip and the distance they chose), and what to try next, each a thing they can do on this
// screen. It never blames them and never says only "no results".

export type NoMatchesAdvice = { title: string; tips: string[] };

/**
 * A zip search that found nothing: "No doctors found within 50 miles of 99701.", then a wider distance
 * (while there is one), fewer filters (when some were set), and another zip.
 */
export function nearbyNoMatches(options: {
  /** What the results are: 'doctors', 'pharmacies'. */
  many: string;
  zip: string;
  miles: number;
  /** The advice to drop the other criteria, or null when none was set. */
  clearFilters: string | null;
}): NoMatchesAdvice {
  const { many, zip, miles, clearFilters } = options;
  const tips: string[] = [];
  if (miles < WIDEST_SEARCH_MILES) {
    tips.push(`Search a wider area: choose "Within ${WIDEST_SEARCH_MILES} miles" under Distance.`);
  }
  if (clearFilters) tips.push(clearFilters);
  tips.push('Try the zip code of a nearby town or city.');
  tips.push(`Check that ${zip} is the zip code you meant.`);
  return {
    title: clearFilters
      ? `No ${many} match this search within ${miles} miles of ${zip}.`
      : `No ${many} found within ${miles} miles of ${zip}.`,
    tips,
  };
}
