/**
 * The product's public constants (safe to ship to the browser).
 * Server-only settings live in app/server/config.ts and come from the environment.
 */

export const breakpoints = { xs: 0, sm: 600, md: 960, lg: 1280, xl: 1920, xxl: 2560 } as const
export type Breakpoint = keyof typeof breakpoints

export const theme = {
  background: '#ffffff',
  base: '#4ec2f0',
  baseLight: '#e4f6fd',
  baseInk: '#0b3b52',
  purple: '#7b5cd6',
  purpleDark: '#4b2fa3',
  yellow: '#ffd84d',
  red: '#e5484d',
  darkRed: '#b4232a',
  lightGrey: '#f2f4f7',
} as const

export const appConfig = {
  siteName: 'まなびのたね',
  magazineName: 'まなびのたねマガジン',
  tagline: '子どものための オンライン習いごと',
  /** `%s` is the page title. The top page uses the site name alone. */
  titleTemplate: '%s | まなびのたね',
  magazineTitleTemplate: '%s | まなびのたねマガジン',
  /** Prepended to every title outside production so that tabs cannot be confused. */
  titlePrefixes: { staging: '[STG] ', nonProduction: '[DEV] ', local: '[LOCAL] ' },
  defaultDescription:
    'まなびのたねは、未就学児から大学生までの子どもが、先生によるライブのオンラインクラスをスマホやPCで受けられる習いごとのマーケットプレイスです。登録・月額基本料は無料。',
  defaultImage: '/og-image.png',
  contactEmail: 'support@manabi.example',
  /** External help links (spec §9); shown in the footer and menus. */
  helpLinks: {
    guide: 'https://help.manabi.example/guide',
    news: 'https://help.manabi.example/news',
    faq: 'https://help.manabi.example/faq',
    cancellation: 'https://help.manabi.example/cancellation',
    commission: 'https://help.manabi.example/commission',
    paymentHelp: 'https://help.manabi.example/payment',
    follow: 'https://help.manabi.example/follow',
    subscriptionHelp: 'https://help.manabi.example/subscription',
    salesReceipt: 'https://help.manabi.example/sales-receipt',
    contactForm: 'https://help.manabi.example/contact',
    paymentDashboard: 'https://dashboard.payments.manabi.example/',
    social: {
      x: 'https://x.com/manabi_example',
      instagram: 'https://www.instagram.com/manabi_example/',
      line: 'https://line.me/R/ti/p/@manabi_example',
    },
  },
  breakpoints,
  /** Spec §9 timings, in milliseconds unless named otherwise. */
  timing: {
    snackbarTimer: 3000,
    userInfoFailureRedirectDelay: 3000,
    chunkReloadGuard: 10_000,
    identityRequestTimeout: 10_000,
    tokenCacheBuffer: 60_000,
    clockLeewaySeconds: 60,
    tokenRetries: 3,
    sessionCheckExpiryDays: 1,
    /** Delay before a page-loading overlay becomes visible, so fast navigations do not flash. */
    overlayShowDelay: 200,
  },
  /** Spec §9 scroll constants. */
  scroll: {
    duration: 300,
    offsetPhone: 150,
    offsetOther: 180,
    scrolledAt: 10,
    /** Fraction of a viewport height from the bottom that counts as the end of the page. */
    endFraction: 0.1,
    /** Anchor targets are offset by this many header heights. */
    anchorHeaderFactor: 1.2,
  },
  theme,
  /** Viewport width forced on tablets (spec §9). */
  tabletViewportWidth: 1200,
} as const

export type AppConfig = typeof appConfig
