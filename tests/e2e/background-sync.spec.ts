import { FULL_CHROMIUM } from './chromium';
import { expect, test } from './fixtures';
import { addAppointmentThroughUi, storedToken, waitForServiceWorker } from './support';

// Background Sync: a change queued offline reaches the server once the device is online again, sent by
// the service worker's `sync` event alone, with no page of the app left open (src/local/background-sync.ts).
// In the full browser: the headless shell the other specs run in never fires `sync` (chromium.ts).
test.use(FULL_CHROMIUM);

test("the service worker's sync event alone delivers a queued change after the page is closed", async ({
  patientPage: page,
  context,
  request,
}) => {
  await waitForServiceWorker(page);
  await page.goto('/appointments');
  const token = await storedToken(page);
  await context.setOffline(true);
  await addAppointmentThroughUi(page, 'Flu shot');
  await page.close(); // no page is left to send it
  await context.setOffline(false);
  await expect
    .poll(
      async () => {
        const response = await request.get('/api/appointments', {
          headers: { Authorization: `Bearer ${token}` },
        });
        return (await response.json()).data.map(
          (row: { appointment_title: string }) => row.appointment_title,
        );
      },
      { timeout: 15_000 },
    )
    .toEqual(['Flu shot']);
});
