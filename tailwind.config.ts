import type { Config } from 'tailwindcss';

// Read by Tailwind 4 through `@config` in src/app/styles.css.
export default {
  content: ['./index.html', './src/app/**/*.{ts,tsx}'],
  theme: {
    extend: {
      colors: {
        brand: {
          50: '#f0fdfa',
          100: '#ccfbf1',
          600: '#0d9488',
          700: '#0f766e',
          800: '#115e59',
          900: '#134e4a',
        },
      },
      transitionDuration: { sidebar: '300ms' },
      width: { sidebar: '250px', 'sidebar-collapsed': '80px' },
    },
  },
} satisfies Config;
