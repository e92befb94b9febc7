import { createFileRoute, notFound } from '@tanstack/react-router'
import { receiptQuery } from '~/features/sales/queries'
import { ReceiptPage } from '~/features/sales/receipt-page'
import { parseId } from '~/lib/ids'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/sales_management/receipt/$id')({
  loader: async ({ context, params }) => {
    const id = parseId(params.id)
    if (id === undefined) throw notFound()
    if (!(await context.queryClient.ensureQueryData(receiptQuery(id)))) throw notFound()
    return { id }
  },
  head: ({ match }) => pageHead(match, { title: '領収書', noindex: true }),
  component: function ReceiptRoute() {
    const { id } = Route.useLoaderData()
    return <ReceiptPage id={id} />
  },
})
