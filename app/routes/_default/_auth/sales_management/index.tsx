import { createFileRoute } from '@tanstack/react-router'
import { bankAccountQuery, customersQuery, payoutsQuery, salesQuery } from '~/features/sales/queries'
import { SalesPage, type SalesTab } from '~/features/sales/sales-page'
import { isMonth } from '~/lib/month'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/sales_management/')({
  validateSearch: (search: Record<string, unknown>): { tab: SalesTab; month?: string } => ({
    tab: search.tab === 'customers' || search.tab === 'payouts' ? search.tab : 'sales',
    month: typeof search.month === 'string' && isMonth(search.month) ? search.month : undefined,
  }),
  loaderDeps: ({ search }) => ({ tab: search.tab, month: search.month }),
  loader: async ({ context, deps }) => {
    await Promise.all([
      context.queryClient.ensureQueryData(salesQuery(deps.month)),
      deps.tab === 'customers' ? context.queryClient.ensureQueryData(customersQuery()) : null,
      deps.tab === 'payouts' ? context.queryClient.ensureQueryData(payoutsQuery(deps.month)) : null,
      deps.tab === 'payouts' ? context.queryClient.ensureQueryData(bankAccountQuery()) : null,
    ])
  },
  head: ({ match }) => pageHead(match, { title: '売上管理', noindex: true }),
  component: function SalesRoute() {
    const { tab, month } = Route.useSearch()
    return <SalesPage tab={tab} month={month} />
  },
})
