import { createFileRoute, notFound, Outlet } from '@tanstack/react-router'

/**
 * Test pages (spec §2): on in development and tests, off in production unless ENABLE_TEST_PAGES=1.
 * The flag comes from the server's configuration; when it is off these paths are a plain 404 (the mailbox
 * excepted: it is on wherever mails are kept in the database, see config.ts).
 */
export const Route = createFileRoute('/_default/test')({
  beforeLoad: ({ context, location }) => {
    // The mailbox is also the demo's inbox (sign-up verification mails land there).
    const mailbox = location.pathname === '/test/mailbox' || location.pathname.startsWith('/test/mailbox/')
    if (!(context.site.testPagesEnabled || (mailbox && context.site.mailboxEnabled))) throw notFound()
  },
  head: () => ({ meta: [{ name: 'robots', content: 'noindex, nofollow' }] }),
  component: () => (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <p className="mb-4 inline-block rounded bg-yellow px-2 py-0.5 text-xs font-bold">テスト用ページ</p>
      <Outlet />
    </div>
  ),
})
