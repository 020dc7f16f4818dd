import type { Config } from 'tailwindcss';

// Read by Tailwind 4 through `@config` in src/app/styles.css. Colours are CSS variables defined there, for
// light and dark: a class names a role (bg-surface, text-muted, bg-primary), never a shade, so every screen
// follows the theme the person chose.

const token = (name: string) => `var(--kc-${name})`;

export default {
  content: ['./index.html', './src/app/**/*.{ts,tsx}'],
  theme: {
    extend: {
      colors: {
        canvas: token('canvas'),
        surface: { DEFAULT: token('surface'), muted: token('surface-muted') },
        text: token('text'),
        muted: token('muted'),
        border: { DEFAULT: token('border'), strong: token('border-strong') },
        primary: {
          DEFAULT: token('primary'),
          hover: token('primary-hover'),
          soft: token('primary-soft'),
          strong: token('primary-strong'),
          on: token('on-primary'),
        },
        danger: {
          DEFAULT: token('danger'),
          hover: token('danger-hover'),
          soft: token('danger-soft'),
          strong: token('danger-strong'),
          on: token('on-danger'),
        },
        warning: { DEFAULT: token('warning'), soft: token('warning-soft'), strong: token('warning-strong') },
        success: { DEFAULT: token('success'), soft: token('success-soft'), strong: token('success-strong') },
        nav: {
          DEFAULT: token('nav'),
          text: token('nav-text'),
          muted: token('nav-muted'),
          hover: token('nav-hover'),
          active: token('nav-active'),
        },
        focus: token('focus'),
        // The older palette name; its shades are variables too, so they turn with the theme.
        brand: {
          50: 'var(--color-brand-50)',
          100: 'var(--color-brand-100)',
          600: 'var(--color-brand-600)',
          700: 'var(--color-brand-700)',
          800: 'var(--color-brand-800)',
          900: 'var(--color-brand-900)',
        },
      },
      // A type scale that stays legible for older eyes: body text is 1rem (never smaller than 0.875rem for
      // secondary text), and the figures people look for (today's medicines, the next appointment) get `display`.
      fontSize: {
        display: ['2rem', { lineHeight: '2.5rem', fontWeight: '700' }],
        title: ['1.5rem', { lineHeight: '2rem', fontWeight: '700' }],
        heading: ['1.125rem', { lineHeight: '1.75rem', fontWeight: '600' }],
        body: ['1rem', { lineHeight: '1.5rem' }],
        small: ['0.875rem', { lineHeight: '1.25rem' }],
      },
      spacing: {
        tap: '2.75rem', // 44 px: the smallest thing a finger should have to hit
        'safe-top': 'env(safe-area-inset-top)',
        'safe-bottom': 'env(safe-area-inset-bottom)',
        'safe-left': 'env(safe-area-inset-left)',
        'safe-right': 'env(safe-area-inset-right)',
      },
      borderRadius: { control: '0.625rem', card: '1rem', sheet: '1.25rem' },
      boxShadow: {
        card: '0 1px 2px rgb(var(--kc-shadow) / 0.06), 0 1px 3px rgb(var(--kc-shadow) / 0.08)',
        raised: '0 4px 12px rgb(var(--kc-shadow) / 0.12), 0 2px 4px rgb(var(--kc-shadow) / 0.08)',
        overlay: '0 12px 32px rgb(var(--kc-shadow) / 0.24), 0 4px 8px rgb(var(--kc-shadow) / 0.12)',
      },
      transitionDuration: { sidebar: '300ms' },
      width: { sidebar: '250px', 'sidebar-collapsed': '80px' },
    },
  },
} satisfies Config;
