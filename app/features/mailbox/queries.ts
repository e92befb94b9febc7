import { queryOptions } from '@tanstack/react-query'
import { getMailboxMail, listMailbox } from './mailbox.functions'

export const mailboxQuery = (to?: string) =>
  queryOptions({
    queryKey: ['mailbox', to ?? ''],
    queryFn: () => listMailbox({ data: { to } }),
    staleTime: 0,
  })

export const mailboxMailQuery = (id: number) =>
  queryOptions({ queryKey: ['mailbox', 'mail', id], queryFn: () => getMailboxMail({ data: { id } }) })
