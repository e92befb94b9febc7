import { createFileRoute, notFound, Outlet } from '@tanstack/react-router'

/**
 * Test pages (spec §2): on in development and tests, off in production unless ENABLE_TEST_PAGES=1.
 * The flag comes from the server's configuration; when it is off these paths are a plain 404.
 */
export const Route = createFileRoute('/_default/test')({
  beforeLoad: ({ context }) => {
    if (!context.site.testPagesEnabled) throw notFound()
  },
  head: () => ({ meta: [{ name: 'robots', content: 'noindex, nofollow' }] }),
  component: () => (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <p className="mb-4 inline-block rounded bg-yellow px-2 py-0.5 text-xs font-bold">テスト用ページ</p>
      <Outlet />
    </div>
  ),
})
