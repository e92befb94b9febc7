import { createFileRoute, Outlet } from '@tanstack/react-router'
import { requireMember } from '~/features/auth/guards'

/**
 * The layout shared by every sign-in-required route (spec §2): the auth guard, and no indexing.
 * The guard is UX only — server functions and the API authorize every call themselves.
 */
export const Route = createFileRoute('/_default/_auth')({
  beforeLoad: requireMember,
  head: () => ({ meta: [{ name: 'robots', content: 'noindex, nofollow' }] }),
  component: Outlet,
})
