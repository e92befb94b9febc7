import { createFileRoute, Outlet } from '@tanstack/react-router'
import { requireRegistering } from '~/features/auth/guards'

/** Registration routes (simple layout, sign-in required, never indexed). */
export const Route = createFileRoute('/_simple/register')({
  beforeLoad: requireRegistering,
  head: () => ({ meta: [{ name: 'robots', content: 'noindex, nofollow' }] }),
  component: () => (
    <div className="mx-auto max-w-2xl px-4 py-10">
      <Outlet />
    </div>
  ),
})
