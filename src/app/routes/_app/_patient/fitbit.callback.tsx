import { createFileRoute } from '@tanstack/react-router';
import { FitbitCallbackPage, type FitbitCallbackSearch } from '../../../features/fitbit/fitbit-callback-page';

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

// Where Fitbit sends the patient back (src/server/services/fitbit/README.md): ?code= (and state), or
// ?error= when they said no.
export const Route = createFileRoute('/_app/_patient/fitbit/callback')({
  validateSearch: (search: Record<string, unknown>): FitbitCallbackSearch => ({
    code: text(search.code),
    state: text(search.state),
    error: text(search.error),
  }),
  component: function FitbitCallbackRoute() {
    return <FitbitCallbackPage search={Route.useSearch()} />;
  },
});
