import type { MyPharmacy } from '../pharmacies';
import { declareResource } from './declare';

/** The pharmacies a patient uses (one may be preferred). Only the patient changes the list. */
export const pharmaciesResource = declareResource<MyPharmacy>()({
  key: 'pharmacies',
  path: '/api/pharmacies',
  titleField: 'name',
  nouns: { one: 'a pharmacy', many: 'pharmacies', singular: 'pharmacy' },
  catalogue: {
    resource: 'Pharmacy',
    permissions: [
      {
        value: 'ReadPharmacy',
        label: 'Read Pharmacy',
        description: 'View linked pharmacies',
        does: "See the patient's pharmacies.",
      },
      {
        value: 'SearchPharmacy',
        label: 'Search Pharmacy',
        description: 'Search by name or location',
        does: "Search the directory's pharmacies by name or zip code; only the patient changes their own list.",
      },
    ],
  },
  permissions: { read: 'ReadPharmacy' },
  typedFields: [{ field: 'preferred', label: 'Preferred', kind: 'choice' }],
  deviceIndexes: ['patient_id'],
  merge: 'field',
  ids: 'random',
});
