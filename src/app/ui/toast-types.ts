import type toast from 'react-hot-toast';

/** react-hot-toast's `toast` function, as a type only (see toast-later.ts). */
export type Toast = typeof toast;
