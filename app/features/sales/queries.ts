import { queryOptions } from '@tanstack/react-query'
import { getBankAccount, getCustomers, getPayouts, getReceipt, getSales } from './sales.functions'

export const salesQuery = (month: string | undefined) =>
  queryOptions({
    queryKey: ['sales', 'month', month ?? 'current'],
    queryFn: () => getSales({ data: { month } }),
  })

export const customersQuery = () =>
  queryOptions({ queryKey: ['sales', 'customers'], queryFn: () => getCustomers() })

export const receiptQuery = (id: number) =>
  queryOptions({ queryKey: ['sales', 'receipt', id], queryFn: () => getReceipt({ data: { id } }) })

export const payoutsQuery = (month: string | undefined) =>
  queryOptions({
    queryKey: ['sales', 'payouts', month ?? 'current'],
    queryFn: () => getPayouts({ data: { month } }),
  })

export const bankAccountQuery = () =>
  queryOptions({ queryKey: ['sales', 'bank-account'], queryFn: () => getBankAccount() })
