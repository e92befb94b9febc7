import { queryOptions } from '@tanstack/react-query'
import { getCheckout } from './checkout.functions'

export const checkoutQuery = (paymentId: number) =>
  queryOptions({ queryKey: ['checkout', paymentId], queryFn: () => getCheckout({ data: { id: paymentId } }) })
