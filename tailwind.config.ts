import { breakpoints, theme } from './app.config'

const px = (n: number) => `${n}px`

// Tailwind v4 reads this through `@config` in app/styles.css; the values come from app.config.ts.
export default {
  content: ['./app/**/*.{ts,tsx}'],
  theme: {
    screens: {
      xs: px(breakpoints.xs),
      sm: px(breakpoints.sm),
      md: px(breakpoints.md),
      lg: px(breakpoints.lg),
      xl: px(breakpoints.xl),
      xxl: px(breakpoints.xxl),
    },
    extend: {
      colors: {
        background: theme.background,
        // `brand` is the spec's "base" light blue. It is not named `base`: Tailwind's `text-base` (font size)
        // would also become a colour.
        brand: theme.base,
        base: { light: theme.baseLight, ink: theme.baseInk },
        purple: { DEFAULT: theme.purple, dark: theme.purpleDark },
        yellow: theme.yellow,
        red: { DEFAULT: theme.red, dark: theme.darkRed },
        'light-grey': theme.lightGrey,
      },
      fontFamily: {
        sans: [
          '"Hiragino Kaku Gothic ProN"',
          '"Hiragino Sans"',
          '"Noto Sans JP"',
          'Meiryo',
          'system-ui',
          'sans-serif',
        ],
      },
    },
  },
}
