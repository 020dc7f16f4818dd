import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { PasswordField, TextField } from '../../../src/app/ui/fields';
import { ThemeSwitch } from '../../../src/app/ui/theme-switch';
import { applyTheme, readTheme, setTheme } from '../../../src/app/ui/theme';
import { initialsOf } from '../../../src/app/shell/header';
import { DISPLAY_KEYS } from '../../../src/domain/storage-keys';

afterEach(() => {
  cleanup();
  localStorage.clear();
  document.documentElement.removeAttribute('data-theme');
});

function Controlled({ asTextField = false }: { asTextField?: boolean }) {
  const [value, setValue] = useState('Secret-Words-42');
  return asTextField ? (
    <TextField label="Password" name="password" type="password" value={value} onChange={setValue} />
  ) : (
    <PasswordField label="New password" name="new_password" value={value} onChange={setValue} />
  );
}

describe('PasswordField', () => {
  it('hides the password until Show is pressed, and hides it again with Hide', () => {
    render(<Controlled />);
    const input = screen.getByLabelText('New password');
    expect(input.getAttribute('type')).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(input.getAttribute('type')).toBe('text');
    expect((input as HTMLInputElement).value).toBe('Secret-Words-42');
    fireEvent.click(screen.getByRole('button', { name: 'Hide' }));
    expect(input.getAttribute('type')).toBe('password');
  });

  it("is what TextField renders for type 'password', so every password form gets the toggle", () => {
    render(<Controlled asTextField />);
    expect(screen.getByRole('button', { name: 'Show' }).getAttribute('aria-controls')).toBe(
      screen.getByLabelText('Password').id,
    );
    // The toggle's name never contains 'password': the field's label stays the only match for it.
    expect(screen.getAllByLabelText(/password/i)).toHaveLength(1);
  });
});

describe('theme', () => {
  it('follows the system until the person chooses, and remembers the choice', () => {
    expect(readTheme()).toBe('system');
    applyTheme();
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
    setTheme('dark');
    expect(localStorage.getItem(DISPLAY_KEYS.theme)).toBe('dark');
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    setTheme('system');
    expect(localStorage.getItem(DISPLAY_KEYS.theme)).toBeNull();
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
  });

  it('ignores a stored value it does not know', () => {
    localStorage.setItem(DISPLAY_KEYS.theme, 'purple');
    expect(readTheme()).toBe('system');
  });

  it('offers System, Light and Dark in the profile, checked as stored', () => {
    localStorage.setItem(DISPLAY_KEYS.theme, 'light');
    render(<ThemeSwitch />);
    expect(screen.getByRole('group', { name: 'Appearance' })).toBeTruthy();
    expect(screen.getAllByRole('radio').map((radio) => radio.getAttribute('value'))).toEqual([
      'system',
      'light',
      'dark',
    ]);
    expect((screen.getByRole('radio', { name: 'Light' }) as HTMLInputElement).checked).toBe(true);
    act(() => {
      fireEvent.click(screen.getByRole('radio', { name: 'Dark' }));
    });
    expect((screen.getByRole('radio', { name: 'Dark' }) as HTMLInputElement).checked).toBe(true);
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
  });
});

describe('initialsOf', () => {
  it.each([
    ['Rosa Diaz', 'RD'],
    ['Rosa Maria de la Cruz', 'RC'],
    ['cher', 'C'],
    ['  ', '?'],
    [undefined, '?'],
  ])('%s -> %s', (name, initials) => {
    expect(initialsOf(name)).toBe(initials);
  });
});
