import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { REMINDER_MESSAGES } from '../../../src/domain/reminders';
import { RemindersSwitch } from '../../../src/app/features/medicines/reminders-switch';
import * as device from '../../../src/local/push-subscription';

// 'Send a test reminder': once reminders are on for this device, the person can check that they arrive;
// the answer (or what went wrong) is said in plain words, never the browser's own. The device's push
// calls are replaced: the server's side has tests of its own (tests/server/push-test.test.ts).

vi.mock('../../../src/local/push-subscription', () => ({
  reminderSupport: vi.fn(() => 'supported'),
  remindersEnabled: vi.fn(async () => true),
  enableReminders: vi.fn(async () => undefined),
  disableReminders: vi.fn(async () => undefined),
  sendTestReminder: vi.fn(async () => REMINDER_MESSAGES.testSent),
}));

beforeEach(() => vi.clearAllMocks());
afterEach(() => cleanup());

const testButton = () => screen.findByRole('button', { name: 'Send a test reminder' });

describe('the test reminder button', () => {
  it('sends a test reminder and says it is on its way', async () => {
    render(<RemindersSwitch />);
    fireEvent.click(await testButton());
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain(REMINDER_MESSAGES.testSent));
    expect(device.sendTestReminder).toHaveBeenCalledTimes(1);
  });

  it('says plainly what went wrong, never in the browser’s words', async () => {
    vi.mocked(device.sendTestReminder)
      .mockRejectedValueOnce(new Error(REMINDER_MESSAGES.testOffline))
      .mockRejectedValueOnce(new DOMException('Registration failed - push service error', 'AbortError'));
    render(<RemindersSwitch />);
    fireEvent.click(await testButton());
    expect((await screen.findByRole('alert')).textContent).toContain(REMINDER_MESSAGES.testOffline);
    fireEvent.click(await testButton());
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain(REMINDER_MESSAGES.browserFailed),
    );
    expect(screen.queryByText(/Registration failed/)).toBeNull();
  });

  it('is not offered while reminders are off on this device', async () => {
    vi.mocked(device.remindersEnabled).mockResolvedValueOnce(false);
    render(<RemindersSwitch />);
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Reminders on this device' }).textContent).toBe('Off'),
    );
    expect(screen.queryByRole('button', { name: 'Send a test reminder' })).toBeNull();
  });
});
