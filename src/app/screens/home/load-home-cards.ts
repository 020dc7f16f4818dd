// Home loads its later cards through this small module, as it loads the medicine schedule (see
// ../../features/medicines/load-todays-schedule.ts): a dynamic import written in Home's own chunk carries
// the list of every chunk the imported module needs, for preloading, and those bytes count against Home's
// first load (tests/build/budget.mjs). Written here, the lists live in this module's chunk, fetched after
// the first paint. Each card's module is then a chunk of its own, so one card's code never delays another.

export function loadCheckInHomeCard() {
  return import('../../features/check-in/check-in-home-card');
}

export function loadFitbitHomeCard() {
  return import('../../features/fitbit/fitbit-home-card');
}

export function loadVitalsHomeCard() {
  return import('../../features/vitals/vitals-home-card');
}
