import { queryOptions } from '@tanstack/react-query'
import { getPaymentHistory, getPaymentReceipt } from './purchase-history.functions'

export const paymentHistoryQuery = (month: string | undefined) =>
  queryOptions({
    queryKey: ['purchase-history', month ?? 'current'],
    queryFn: () => getPaymentHistory({ data: { month } }),
  })

export const paymentReceiptQuery = (id: number) =>
  queryOptions({
    queryKey: ['purchase-history', 'receipt', id],
    queryFn: () => getPaymentReceipt({ data: { id } }),
  })
