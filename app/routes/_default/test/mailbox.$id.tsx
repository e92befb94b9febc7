import { createFileRoute, notFound } from '@tanstack/react-router'
import { MailboxMailPage } from '~/features/mailbox/mailbox-page'
import { mailboxMailQuery } from '~/features/mailbox/queries'
import { parseId } from '~/lib/ids'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/test/mailbox/$id')({
  loader: ({ context, params }) => {
    const id = parseId(params.id)
    if (id === undefined) throw notFound()
    return context.queryClient.ensureQueryData(mailboxMailQuery(id))
  },
  head: ({ match }) => pageHead(match, { title: 'メール', noindex: true }),
  component: function MailboxMail() {
    return <MailboxMailPage id={Number(Route.useParams().id)} />
  },
})
