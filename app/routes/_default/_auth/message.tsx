import { createFileRoute } from '@tanstack/react-router'
import { MessagePage } from '~/features/messages/message-page'
import { messagePartnerQuery, roomLookupQuery, roomsQuery } from '~/features/messages/queries'
import { roomLookupFor } from '~/features/messages/room-lookup'
import { ReportButton } from '~/features/report/report-button'
import { parseId } from '~/lib/ids'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/message')({
  validateSearch: (search: Record<string, unknown>): { room?: number; to?: number } => ({
    room: parseId(search.room),
    to: parseId(search.to),
  }),
  loaderDeps: ({ search }) => ({ room: search.room, to: search.to }),
  loader: async ({ context, deps }) => {
    const { rooms } = await context.queryClient.ensureQueryData(roomsQuery())
    // A room older than the newest ones the list holds.
    const lookup = roomLookupFor(rooms, deps.room, deps.to)
    const found = lookup ? await context.queryClient.ensureQueryData(roomLookupQuery(lookup)) : undefined
    // A new conversation: whom it would be with (no room exists until the first message is sent).
    if (deps.to !== undefined && lookup && !found)
      await context.queryClient.ensureQueryData(messagePartnerQuery(deps.to))
  },
  head: ({ match }) => pageHead(match, { title: 'メッセージ', noindex: true }),
  component: MessageRoute,
})

function MessageRoute() {
  const { room, to } = Route.useSearch()
  return (
    <MessagePage
      roomId={room}
      to={to}
      reportMessage={(id) => <ReportButton target="message" id={id} compact />}
    />
  )
}
