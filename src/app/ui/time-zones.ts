// The choice of a time zone, shared by the forms whose times belong to a place (a prescription's dose
// times, an appointment's visit).

type Option = { value: string; label: string };

/** Every zone the platform knows, with the chosen one first in the list when it is not among them. */
export function timeZoneOptions(current: string): Option[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
  const all = zones.includes(current) ? zones : [current, ...zones];
  return all.map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') }));
}
