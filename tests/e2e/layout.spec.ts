import AxeBuilder from '@axe-core/playwright'
import { expect, type Page, test } from '@playwright/test'
import { gotoReady, login } from './helpers'

// Every page, for every role, at a small phone (320), a phone (390), a tablet (768) and a PC (1280): nothing is
// wider than the viewport (no sideways scrolling), axe finds no serious or critical violation (at phone and PC
// widths), and no page logs an error — a hydration mismatch (React #418) or any other — while it loads and
// hydrates. Each page is loaded once, at 320 px, and then resized: the layout
// follows media queries, so a resize shows what a load at that width would.

const WIDTHS = [320, 390, 768, 1280] as const

const VISITOR_PAGES = [
  '/',
  '/class_search',
  '/class_search?q=英語',
  '/class_search/detail/1',
  '/teacher/detail/1',
  '/magazine',
  '/magazine/detail/1',
  '/company',
  '/terms_of_service',
  '/privacy_policy',
  '/commercial_transactions',
  '/test/pinia',
  '/test/test',
  '/no-such-page',
]
const MEMBER_PAGES = [
  '/mypage',
  '/message',
  '/profile',
  '/profile/edit_user',
  '/profile/sessions',
  '/profile/teacher',
  '/follow',
  '/information',
  '/notification_settings',
  '/class_attendance',
  '/purchase_history',
]
const ROLES = [
  { who: 'a visitor', email: undefined, pages: VISITOR_PAGES },
  { who: 'a parent', email: 'parent@manabi.example', pages: [...MEMBER_PAGES, '/class_search/detail/1'] },
  {
    who: 'a teacher',
    email: 'teacher@manabi.example',
    pages: [
      ...MEMBER_PAGES,
      '/class_management',
      '/class_management/create',
      '/class_management/edit/1',
      '/sales_management',
      '/sales_management?tab=customers',
      '/sales_management?tab=payouts',
      '/organization_management',
    ],
  },
  {
    // The owner's view: the invitation code, each member's 「オーナーを譲る」 and 「外す」, the sales roll-up.
    who: 'an organisation owner',
    email: 'owner@manabi.example',
    pages: ['/organization_management', '/profile/edit_organization'],
  },
  {
    who: 'an operator',
    email: 'operator@manabi.example',
    pages: [
      '/admin',
      '/admin/verifications',
      '/admin/reports',
      '/admin/suspensions',
      '/admin/messages',
      '/admin/notices',
      '/admin/audit',
    ],
  },
]

/** Errors the page logs from now on (console errors and uncaught exceptions), with the path they happened on. */
function watchErrors(page: Page) {
  const errors: string[] = []
  page.on('console', (m) => {
    // The browser's own line for a document or resource answered 4xx/5xx (the 404 page is one) is not a defect.
    if (m.type() === 'error' && !/^Failed to load resource/.test(m.text()))
      errors.push(`${new URL(page.url()).pathname}: ${m.text()}`)
  })
  page.on('pageerror', (e) => errors.push(`${new URL(page.url()).pathname}: ${e.message}`))
  return errors
}

/** Serious and critical axe violations on the page as it is now. */
async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze()
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)
}

/** The elements that stick out past the right edge of the viewport, for the failure message. */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const root = document.documentElement
    if (root.scrollWidth <= root.clientWidth) return null
    const wide = [...document.body.querySelectorAll<HTMLElement>('*')]
      .filter((el) => el.getBoundingClientRect().right > root.clientWidth + 0.5)
      .filter(
        (el) => !el.parentElement || el.parentElement.getBoundingClientRect().right <= root.clientWidth + 0.5,
      )
      .slice(0, 5)
      .map(
        (el) =>
          `<${el.tagName.toLowerCase()} class="${el.className}"> ${Math.round(el.getBoundingClientRect().right)}px`,
      )
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide }
  })
}

test.describe('layout and console on every page @pc-only', () => {
  test.describe.configure({ timeout: 420_000 })

  for (const role of ROLES) {
    test(`as ${role.who}: no page is wider than 320, 390, 768 or 1280 px, axe-clean, none logs an error`, async ({
      page,
    }) => {
      const errors = watchErrors(page)
      if (role.email) await login(page, role.email)
      const wider: string[] = []
      const inaccessible: string[] = []
      for (const path of role.pages) {
        await page.setViewportSize({ width: WIDTHS[0], height: 800 })
        await gotoReady(page, path)
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 800 })
          const found = await overflow(page)
          if (found) wider.push(`${path} at ${width}px: ${JSON.stringify(found)}`)
          if (width === 390 || width === 1280)
            for (const v of await axeViolations(page)) inaccessible.push(`${path} at ${width}px: ${v}`)
        }
      }
      expect(wider, 'pages wider than the viewport').toEqual([])
      expect(inaccessible, 'serious or critical axe violations').toEqual([])
      expect(errors, 'errors logged').toEqual([])
    })
  }
})

test('headings wrap between phrases on a phone, not mid-word @pc-only', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 800 })
  await gotoReady(page, '/class_search/detail/1')
  const h1 = page.getByRole('heading', { level: 1 })
  expect(await h1.evaluate((el) => getComputedStyle(el).wordBreak)).toBe('auto-phrase')
  // Chromium segments Japanese by phrase: no line of the title ends inside a katakana word.
  const lines = await h1.evaluate((el) => {
    const range = document.createRange()
    const text = el.firstChild?.nodeType === Node.TEXT_NODE ? (el.firstChild as Text) : null
    if (!text) return []
    const out: { top: number; char: string }[] = []
    for (let i = 0; i < text.length; i++) {
      range.setStart(text, i)
      range.setEnd(text, i + 1)
      out.push({ top: Math.round(range.getBoundingClientRect().top), char: text.data[i]! })
    }
    return out
  })
  for (let i = 1; i < lines.length; i++) {
    if (lines[i]!.top === lines[i - 1]!.top) continue
    const pair = lines[i - 1]!.char + lines[i]!.char
    expect(/^[\p{Script=Katakana}ー]{2}$/u.test(pair), `a line break inside 「${pair}」`).toBe(false)
  }
})
