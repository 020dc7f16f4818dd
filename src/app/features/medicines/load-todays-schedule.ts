// Home loads the schedule through this small module, not with import('./todays-schedule') itself: a
// dynamic import in Home's chunk carries the list of every chunk the imported one needs (about forty
// hashed file names, for preloading), and those bytes alone took Home's first load over its budget
// (tests/build/budget.mjs). Imported from here, that list lives in this module's chunk, loaded after the
// first paint.
export function loadTodaysSchedule() {
  return import('./todays-schedule');
}
