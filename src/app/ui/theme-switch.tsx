import { Monitor, Moon, Sun } from 'lucide-react';
import { THEME_CHOICES, setTheme, useTheme, type ThemeChoice } from './theme';

const ICONS: Record<ThemeChoice, typeof Sun> = { system: Monitor, light: Sun, dark: Moon };

/**
 * The colour theme of this device: System (the device's own light or dark setting), Light or Dark. Three
 * radio buttons (arrow keys move between them); the choice applies at once and is remembered.
 */
export function ThemeSwitch() {
  const current = useTheme();
  return (
    <fieldset>
      <legend className="text-small font-medium text-text">Appearance</legend>
      <div className="mt-2 grid grid-cols-3 gap-2">
        {THEME_CHOICES.map(({ value, label }) => {
          const Icon = ICONS[value];
          return (
            <label
              key={value}
              className={`relative flex min-h-11 cursor-pointer items-center justify-center gap-2 rounded-control border px-2 text-base font-semibold has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-focus ${
                current === value
                  ? 'border-primary bg-primary-soft text-primary-strong'
                  : 'border-border-strong bg-surface text-text hover:bg-surface-muted'
              }`}
            >
              <input
                type="radio"
                name="theme"
                value={value}
                checked={current === value}
                onChange={() => setTheme(value)}
                className="sr-only"
              />
              <Icon aria-hidden="true" className="h-5 w-5 shrink-0" />
              {label}
            </label>
          );
        })}
      </div>
      <p className="mt-2 text-small text-muted">
        System follows your device&apos;s light or dark setting. The choice is kept on this device.
      </p>
    </fieldset>
  );
}
