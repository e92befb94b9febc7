import { createFileRoute } from '@tanstack/react-router'
import { PurchaseHistoryPage } from '~/features/purchase-history/history-page'
import { paymentHistoryQuery } from '~/features/purchase-history/queries'
import { isMonth } from '~/lib/month'
import { pageHead } from '~/lib/seo'

/** /purchase_history: payments and refunds per month (issue 17). */
export const Route = createFileRoute('/_default/_auth/purchase_history/')({
  validateSearch: (search: Record<string, unknown>): { month?: string } => ({
    month: typeof search.month === 'string' && isMonth(search.month) ? search.month : undefined,
  }),
  loaderDeps: ({ search }) => ({ month: search.month }),
  loader: async ({ context, deps }) => {
    await context.queryClient.ensureQueryData(paymentHistoryQuery(deps.month))
  },
  head: ({ match }) => pageHead(match, { title: '購入履歴', noindex: true }),
  component: function PurchaseHistoryRoute() {
    const { month } = Route.useSearch()
    return <PurchaseHistoryPage month={month} />
  },
})
