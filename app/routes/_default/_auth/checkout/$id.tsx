import { createFileRoute, notFound } from '@tanstack/react-router'
import { CheckoutPage } from '~/features/checkout/checkout-page'
import { checkoutQuery } from '~/features/checkout/queries'
import { parseId } from '~/lib/ids'
import { pageHead } from '~/lib/seo'

/** /checkout/{paymentId}: pay a held seat (issue 17). */
export const Route = createFileRoute('/_default/_auth/checkout/$id')({
  loader: async ({ context, params }) => {
    const id = parseId(params.id)
    if (id === undefined) throw notFound()
    if (!(await context.queryClient.ensureQueryData(checkoutQuery(id)))) throw notFound()
    return { id }
  },
  head: ({ match }) => pageHead(match, { title: 'お支払い', noindex: true }),
  component: function CheckoutRoute() {
    const { id } = Route.useLoaderData()
    return <CheckoutPage paymentId={id} />
  },
})
