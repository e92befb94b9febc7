import { createFileRoute, notFound } from '@tanstack/react-router'
import { paymentReceiptQuery } from '~/features/purchase-history/queries'
import { PaymentReceiptPage } from '~/features/purchase-history/receipt-page'
import { parseId } from '~/lib/ids'
import { pageHead } from '~/lib/seo'

/** /purchase_history/receipt/{paymentId}: a printable 領収書 (issue 17). */
export const Route = createFileRoute('/_default/_auth/purchase_history/receipt/$id')({
  loader: async ({ context, params }) => {
    const id = parseId(params.id)
    if (id === undefined) throw notFound()
    if (!(await context.queryClient.ensureQueryData(paymentReceiptQuery(id)))) throw notFound()
    return { id }
  },
  head: ({ match }) => pageHead(match, { title: '領収書', noindex: true }),
  component: function PaymentReceiptRoute() {
    const { id } = Route.useLoaderData()
    return <PaymentReceiptPage id={id} />
  },
})
