import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/unauthorized')({
  component: () => (
    <main id="main" className="p-8">
      <h1 className="text-xl">Unauthorized Access</h1>
    </main>
  ),
});
