import { createFileRoute } from '@tanstack/react-router'
import { OrganizationPage } from '~/features/organization/organization-page'
import { organizationPageQuery } from '~/features/organization/queries'
import { isMonth } from '~/lib/month'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/organization_management/')({
  validateSearch: (search: Record<string, unknown>): { month?: string } => ({
    month: typeof search.month === 'string' && isMonth(search.month) ? search.month : undefined,
  }),
  loaderDeps: ({ search }) => ({ month: search.month }),
  loader: ({ context, deps }) => context.queryClient.ensureQueryData(organizationPageQuery(deps.month)),
  head: ({ match }) => pageHead(match, { title: '団体管理', noindex: true }),
  component: function OrganizationRoute() {
    const { month } = Route.useSearch()
    return <OrganizationPage month={month} />
  },
})
