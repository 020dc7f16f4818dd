import { describe, expect, it } from 'vitest';
import { REMINDER_MESSAGES } from '../../../src/domain/reminders';
import { reminderFailure, reminderSetupSteps } from '../../../src/app/features/medicines/reminders-switch';

// Reminders set up by a person who is not a developer: never the browser's own words, and steps for the
// device they hold.

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 15; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';
const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

describe('reminderFailure', () => {
  it('never shows what the browser threw in its own words', () => {
    const browser = new DOMException('Registration failed - permission denied', 'NotAllowedError');
    expect(reminderFailure(browser)).toBe(REMINDER_MESSAGES.browserFailed);
    expect(reminderFailure(new TypeError('Failed to fetch'))).toBe(REMINDER_MESSAGES.browserFailed);
  });

  it('keeps our own sentences', () => {
    for (const text of [REMINDER_MESSAGES.setupFailed, REMINDER_MESSAGES.denied, REMINDER_MESSAGES.offline])
      expect(reminderFailure(new Error(text))).toBe(text);
  });
});

describe('reminderSetupSteps', () => {
  it('tells an iPhone user to add Kincare to the Home Screen first', () => {
    const steps = reminderSetupSteps('unsupported', { userAgent: IPHONE, standalone: false });
    expect(steps.join(' ')).toContain('Add to Home Screen');
    // Opened from the Home Screen, with notifications blocked: where the setting is.
    expect(reminderSetupSteps('denied', { userAgent: IPHONE, standalone: true }).join(' ')).toContain(
      'Settings app',
    );
  });

  it('gives blocked notifications their way back on Android and on a computer', () => {
    expect(reminderSetupSteps('denied', { userAgent: ANDROID, standalone: false }).join(' ')).toContain(
      'Notifications, and choose Allow',
    );
    expect(reminderSetupSteps('denied', { userAgent: DESKTOP, standalone: false }).join(' ')).toContain(
      'Set Notifications to Allow',
    );
  });

  it('says nothing more where reminders can simply be turned on', () => {
    expect(reminderSetupSteps('supported', { userAgent: DESKTOP, standalone: false })).toEqual([]);
    expect(reminderSetupSteps('supported', { userAgent: IPHONE, standalone: true })).toEqual([]);
  });
});
