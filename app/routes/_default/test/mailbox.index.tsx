import { createFileRoute } from '@tanstack/react-router'
import { MailboxPage } from '~/features/mailbox/mailbox-page'
import { mailboxQuery } from '~/features/mailbox/queries'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/test/mailbox/')({
  validateSearch: (search: Record<string, unknown>): { to?: string } => ({
    to: typeof search.to === 'string' && search.to ? search.to.slice(0, 254) : undefined,
  }),
  loaderDeps: ({ search }) => ({ to: search.to }),
  loader: ({ context, deps }) => context.queryClient.ensureQueryData(mailboxQuery(deps.to)),
  head: ({ match }) => pageHead(match, { title: 'メールボックス', noindex: true }),
  component: function Mailbox() {
    return <MailboxPage to={Route.useSearch().to} />
  },
})
