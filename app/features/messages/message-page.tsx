import { useMutation, useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import {
  type ReactNode,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import type { Message, Room, RoomPartner } from '~/contract/v1/rooms'
import { contactKindsLabel, detectContactInfo } from '~/lib/contact-detector'
import { addressName, formatDateJa, formatTimeJa } from '~/lib/format'
import { MESSAGE_PAGE_SIZE, STUDENT_LIMIT } from '~/lib/page-sizes'
import { relativeTimeJa } from '~/lib/relative-time'
import { DEFAULT_AVATAR } from '~/lib/responsive-image'
import { earlierThan, slidOut } from './history'
import { getOlderRoomMessages, markRoomRead, sendRoomMessage, startRoom } from './messages.functions'
import { messagePartnerQuery, roomLookupQuery, roomMessagesQuery, roomsQuery } from './queries'
import { roomLookupFor } from './room-lookup'
import { StudentSearch } from './student-search'

function Avatar({ url, size = 40 }: { url: string | null; size?: number }) {
  return (
    <img
      src={url ?? DEFAULT_AVATAR}
      alt=""
      width={size}
      height={size}
      className="shrink-0 rounded-full bg-base-light object-cover"
      style={{ width: size, height: size }}
    />
  )
}

/** /message: rooms with the other person, one room open at a time (`?room=`). */
/**
 * `roomId` opens a room; `to` (a user id, from a teacher's student or customer list) opens the room with that
 * person, or preselects them to start one.
 */
export function MessagePage({
  roomId,
  to,
  reportMessage,
}: {
  roomId?: number
  to?: number
  /** 「通報する」 under each message from the partner (the report feature, composed by the route). */
  reportMessage?: (messageId: number) => ReactNode
}) {
  const { rooms, destinations, moreStudents, studentSearch } = useSuspenseQuery(roomsQuery()).data
  // A room the list does not hold (older than its newest ones) is looked up by itself (the loader fetched it).
  const lookup = roomLookupFor(rooms, roomId, to)
  const found = useQuery({ ...roomLookupQuery(lookup ?? { roomId: 0 }), enabled: lookup !== undefined }).data
  const current = lookup
    ? (found ?? undefined)
    : roomId !== undefined
      ? rooms.find((r) => r.id === roomId)
      : to !== undefined
        ? rooms.find((r) => r.partner.id === to)
        : undefined
  const preselect = !current && to !== undefined && destinations.some((d) => d.id === to) ? to : undefined
  // A conversation that does not exist yet: its room is created with the first message sent.
  const draftWith = !current && to !== undefined ? to : undefined
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-2xl font-black">メッセージ</h1>
      <p className="mt-2 text-xs text-slate-700">
        安全のため、電話番号・メールアドレス・LINE IDなどの連絡先や外部サイトのURLは送らないでください。
      </p>
      <div className="mt-4 grid grid-cols-1 gap-4 md:grid-cols-[18rem_minmax(0,1fr)]">
        <div className={current || draftWith !== undefined ? 'hidden md:block' : ''}>
          <RoomList rooms={rooms} currentId={current?.id} />
          <NewRoom
            key={preselect}
            destinations={destinations}
            initialPartner={preselect}
            moreStudents={moreStudents}
          />
          {studentSearch ? <StudentSearch /> : null}
        </div>
        {current ? (
          <RoomView key={current.id} room={current} partner={current.partner} reportMessage={reportMessage} />
        ) : draftWith !== undefined ? (
          <DraftRoom key={draftWith} partnerId={draftWith} />
        ) : (
          <p className="hidden rounded-2xl bg-light-grey p-6 text-center text-sm text-slate-700 md:block">
            左の一覧からメッセージを選んでください。
          </p>
        )}
      </div>
    </div>
  )
}

function RoomList({ rooms, currentId }: { rooms: Room[]; currentId?: number }) {
  if (rooms.length === 0) {
    return (
      <p className="rounded-2xl bg-light-grey p-4 text-sm text-slate-700">メッセージはまだありません。</p>
    )
  }
  return (
    <ul
      className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white"
      data-testid="room-list"
    >
      {rooms.map((r) => (
        <li key={r.id}>
          <Link
            to="/message"
            search={{ room: r.id }}
            className={`flex items-center gap-3 px-3 py-3 hover:bg-light-grey ${r.id === currentId ? 'bg-base-light' : ''}`}
            aria-current={r.id === currentId ? 'page' : undefined}
            data-testid="room-item"
          >
            <Avatar url={r.partner.avatar_url} />
            <span className="min-w-0 flex-1">
              <span className="flex items-center justify-between gap-2">
                <span className="truncate font-bold">
                  {addressName(r.partner.nickname, r.partner.is_teacher)}
                </span>
                {r.unread_count > 0 ? (
                  <span
                    className="rounded-full bg-red-dark px-2 text-xs leading-5 font-bold text-white"
                    data-testid="room-unread"
                  >
                    <span className="sr-only">未読</span>
                    {r.unread_count}
                    <span className="sr-only">件</span>
                  </span>
                ) : null}
              </span>
              <span className="block truncate text-xs text-slate-700">
                {r.last_message ? r.last_message.body : 'まだメッセージはありません'}
              </span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  )
}

function NewRoom({
  destinations,
  initialPartner,
  moreStudents,
}: {
  destinations: { id: number; nickname: string; is_teacher: boolean }[]
  initialPartner?: number
  /** The list holds a teacher's most recent students only. */
  moreStudents: boolean
}) {
  const uid = useId()
  const [partner, setPartner] = useState(initialPartner === undefined ? '' : String(initialPartner))
  const navigate = useNavigate()
  if (destinations.length === 0) return null
  return (
    <form
      className="mt-4 rounded-2xl border border-slate-200 bg-white p-3"
      onSubmit={(e) => {
        e.preventDefault()
        if (!partner) return showErrorSnackbar('相手を選んでください')
        void navigate({ to: '/message', search: { to: Number(partner) } })
      }}
    >
      <label htmlFor={`${uid}-partner`} className="text-sm font-bold">
        新しくメッセージを送る
      </label>
      <p className="text-xs text-slate-700">予約・フォローした先生に送れます。</p>
      {moreStudents ? (
        <p className="text-xs text-slate-700" data-testid="new-room-more-students">
          受講者は最近予約した{STUDENT_LIMIT}
          人を表示しています。ほかの受講者は、下の検索かクラス管理の受講者一覧から送れます。
        </p>
      ) : null}
      <div className="mt-2 flex gap-2">
        <select
          id={`${uid}-partner`}
          className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-2 py-2"
          value={partner}
          onChange={(e) => setPartner(e.target.value)}
          data-testid="new-room-partner"
        >
          <option value="">選択してください</option>
          {destinations.map((d) => (
            <option key={d.id} value={d.id}>
              {addressName(d.nickname, d.is_teacher)}
            </option>
          ))}
        </select>
        <button type="submit" className="btn-outline px-3" data-testid="new-room-start">
          開く
        </button>
      </div>
    </form>
  )
}

/** A new conversation with `partnerId`: the composer alone, until the first message creates the room. */
function DraftRoom({ partnerId }: { partnerId: number }) {
  const { data: partner } = useSuspenseQuery(messagePartnerQuery(partnerId))
  if (!partner)
    return (
      <p
        className="rounded-2xl bg-light-grey p-6 text-center text-sm text-slate-700"
        data-testid="draft-unavailable"
      >
        この相手にはメッセージを送れません。
      </p>
    )
  return <RoomView partner={partner} />
}

function RoomView({
  room,
  partner,
  reportMessage,
}: {
  /** Absent for a conversation not started yet (DraftRoom). */
  room?: Room
  partner: RoomPartner
  reportMessage?: (messageId: number) => ReactNode
}) {
  const uid = useId()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const { data: latest } = useQuery({ ...roomMessagesQuery(room?.id ?? 0), enabled: room !== undefined })
  const history = useOlderMessages(room?.id, latest ?? undefined)
  const messages = latest
  const [text, setText] = useState('')
  const [warning, setWarning] = useState<string | null>(null)
  const bottom = useRef<HTMLDivElement>(null)
  const textarea = useRef<HTMLTextAreaElement>(null)

  const read = useMutation({
    mutationFn: () => markRoomRead({ data: room!.id }),
    onSuccess: async (result) => {
      if (!result.ok) return
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['auth'] }),
        queryClient.invalidateQueries({ queryKey: ['rooms'], exact: true }),
        queryClient.invalidateQueries({ queryKey: ['rooms', 'lookup'] }),
        queryClient.invalidateQueries({ queryKey: ['mypage'] }),
      ])
    },
  })
  // Opening the room, and every new message from the partner while it is open, marks it read: once the messages
  // are on screen (they are loaded after the page), never while they could not be loaded.
  const lastPartnerMessage = messages?.filter((m) => !m.is_mine).at(-1)?.id
  const { mutate: markRead } = read
  const unread = room?.unread_count ?? 0
  const shown = room !== undefined && messages !== undefined
  // Not while the tab is hidden (a phone locked with the room open still hears new messages for a while): those
  // stay unread, with their badge and mail, until the page is seen again.
  const visible = usePageVisible()
  // The partner's last message this page marked read: coming back to the tab marks again only what is new.
  const markedUpTo = useRef<number | undefined>(undefined)
  useEffect(() => {
    if (!visible || !shown) return
    if (unread > 0 || (lastPartnerMessage !== undefined && lastPartnerMessage !== markedUpTo.current)) {
      markedUpTo.current = lastPartnerMessage
      markRead()
    }
  }, [visible, shown, lastPartnerMessage, unread, markRead])

  // A new last message is brought into view when the reader is at the bottom already, or sent it: one reading
  // further up the history stays where they are.
  const last = messages?.at(-1)
  const lastId = last?.id
  const lastIsMine = last?.is_mine ?? false
  // Where the reader was before the message came (kept on scroll: measured after it, the new message is in the way).
  const atBottom = useRef(true)
  useEffect(() => {
    if (lastId !== undefined && (atBottom.current || lastIsMine))
      bottom.current?.scrollIntoView({ block: 'nearest' })
  }, [lastId, lastIsMine])

  const send = useMutation({
    mutationFn: async (body: string) => {
      if (room) {
        const result = await sendRoomMessage({ data: { room_id: room.id, body } })
        return result.ok
          ? { ...result, data: { roomId: room.id, held: result.data.status === 'held' } }
          : result
      }
      // The first message of a new conversation creates its room (the server says whether it held it).
      return startRoom({ data: { partner_id: partner.id, body } })
    },
    onSuccess: async (result, body) => {
      if (!result.ok) return showErrorSnackbar(result.message || '送信できませんでした')
      // Only what was sent is cleared: what was typed after it while it was on its way stays.
      setText((t) => {
        const now = t.trimStart()
        return now.startsWith(body) ? now.slice(body.length).trimStart() : t
      })
      setWarning(null)
      showSnackbar({
        message: result.data.held ? '送信しました。運営が確認してから相手に届きます' : '送信しました',
      })
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['rooms', result.data.roomId, 'messages'] }),
        queryClient.invalidateQueries({ queryKey: ['rooms'], exact: true }),
      ])
      if (!room) await navigate({ to: '/message', search: { room: result.data.roomId } })
    },
    onError: (error) => showErrorSnackbar(`送信できませんでした ${(error as Error).message ?? ''}`),
  })

  const renderMessage = (m: Message) => (
    <li
      key={m.id}
      className={`flex max-w-[85%] flex-col ${m.is_mine ? 'items-end self-end' : 'items-start self-start'}`}
      data-testid="message"
    >
      <p
        className={`rounded-2xl px-4 py-2 whitespace-pre-line ${
          m.is_mine ? 'bg-purple-dark text-white' : 'bg-light-grey text-slate-900'
        }`}
      >
        {m.body}
      </p>
      <p className="mt-1 text-[11px] text-slate-700">
        <time dateTime={m.created_at} title={`${formatDateJa(m.created_at)} ${formatTimeJa(m.created_at)}`}>
          {relativeTimeJa(m.created_at)}
        </time>
        {m.status === 'held' ? (
          <span className="ml-2 font-bold text-red-dark" data-testid="message-held">
            確認中（運営が確認してから相手に届きます）
          </span>
        ) : m.status === 'deleted' ? (
          <span className="ml-2 font-bold text-red-dark" data-testid="message-deleted">
            運営により削除されました（相手には表示されません）
          </span>
        ) : m.contains_contact_info ? (
          <span className="ml-2 font-bold text-red-dark">連絡先を含む可能性</span>
        ) : null}
        {!m.is_mine && reportMessage ? <span className="ml-2">{reportMessage(m.id)}</span> : null}
      </p>
    </li>
  )

  const submit = (confirmed: boolean) => {
    const body = text.trim()
    if (!body) return showErrorSnackbar('メッセージを入力してください')
    if (body.length > 2000) return showErrorSnackbar('2000文字以内で入力してください')
    const found = detectContactInfo(body)
    if (found.flagged && !confirmed) {
      setWarning(contactKindsLabel(found.kinds))
      return
    }
    send.mutate(body)
  }

  return (
    <section
      aria-labelledby={`${uid}-heading`}
      className="flex min-h-[28rem] flex-col rounded-2xl border border-slate-200 bg-white"
      data-testid="room-view"
    >
      <header className="flex items-center gap-3 border-b border-slate-200 px-4 py-3">
        <Link to="/message" className="btn-ghost px-2 py-1 text-sm md:hidden">
          一覧へ
        </Link>
        <Avatar url={partner.avatar_url} size={32} />
        <h2 id={`${uid}-heading`} className="font-bold">
          {addressName(partner.nickname, partner.is_teacher)}
        </h2>
      </header>
      <section
        ref={history.scroller}
        onScroll={(e) => {
          const el = e.currentTarget
          atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80
        }}
        className="max-h-[60vh] flex-1 overflow-y-auto p-4"
        aria-label="メッセージの履歴"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        tabIndex={0}
      >
        {history.more ? (
          <p className="mb-3 text-center">
            <button
              type="button"
              className="btn-outline px-3 py-1.5 text-sm"
              disabled={history.loading}
              onClick={history.load}
              data-testid="message-older"
            >
              以前のメッセージを表示
            </button>
          </p>
        ) : null}
        {history.earlier.length > 0 ? (
          // Outside the live region: a page of history put above is not news to be read out.
          <ol className="mb-3 flex flex-col gap-3" aria-label="以前のメッセージ">
            {history.earlier.map(renderMessage)}
          </ol>
        ) : null}
        <ol className="flex flex-col gap-3" data-testid="message-list" aria-live="polite">
          {(messages ?? []).map(renderMessage)}
          {!room || (messages && messages.length === 0) ? (
            <li className="text-center text-sm text-slate-700">最初のメッセージを送ってみましょう。</li>
          ) : null}
        </ol>
        <div ref={bottom} />
      </section>
      {room && !room.can_send ? (
        // The partner's account is suspended: a message would be refused (410).
        <p
          className="border-t border-slate-200 p-4 text-sm text-slate-700"
          role="status"
          data-testid="cannot-send"
        >
          この相手は現在ご利用いただけないため、メッセージを送れません
        </p>
      ) : (
        <form
          className="border-t border-slate-200 p-3"
          onSubmit={(e) => {
            e.preventDefault()
            submit(false)
          }}
        >
          <label htmlFor={`${uid}-body`} className="sr-only">
            メッセージ
          </label>
          <textarea
            id={`${uid}-body`}
            ref={textarea}
            rows={3}
            maxLength={2000}
            className="w-full rounded-lg border border-slate-300 px-3 py-2"
            placeholder="メッセージを入力"
            value={text}
            onChange={(e) => {
              setText(e.target.value)
              if (warning) setWarning(null)
            }}
            data-testid="message-input"
          />
          {warning ? (
            <div
              role="alert"
              className="mt-2 rounded-lg border-2 border-red-dark bg-red/10 p-3 text-sm"
              data-testid="contact-warning"
            >
              <p className="font-bold text-red-dark">{warning}が含まれているようです。</p>
              <p className="mt-1">
                安全のため、まなびのたねの外で連絡を取り合うことは禁止されています。内容を確認してください。このまま送信すると、運営が確認するまで相手には届きません。
              </p>
              <div className="mt-2 flex flex-wrap gap-2">
                <button
                  type="button"
                  className="btn-outline px-3 py-1.5"
                  onClick={() => {
                    setWarning(null)
                    textarea.current?.focus()
                  }}
                  data-testid="contact-edit"
                >
                  修正する
                </button>
                <button
                  type="button"
                  className="btn bg-red-dark px-3 py-1.5 text-white hover:bg-red"
                  disabled={send.isPending}
                  onClick={() => submit(true)}
                  data-testid="contact-send-anyway"
                >
                  このまま送信する
                </button>
              </div>
            </div>
          ) : null}
          <div className="mt-2 flex justify-end">
            <button
              type="submit"
              className="btn-primary"
              disabled={send.isPending}
              data-testid="message-send"
            >
              送信
            </button>
          </div>
        </form>
      )}
    </section>
  )
}

/**
 * The history above the latest page (which polls): pages older than what is shown, loaded on request. A message
 * that slides out of the polled page as new ones arrive joins the loaded history, so no gap opens between them.
 * The scroll position stays on what was being read when a page is put above it.
 */
function useOlderMessages(roomId: number | undefined, latest: Message[] | undefined) {
  const [older, setOlder] = useState<{ messages: Message[]; complete: boolean }>({
    messages: [],
    complete: false,
  })
  const [loading, setLoading] = useState(false)
  const scroller = useRef<HTMLElement>(null)
  const fromBottom = useRef<number | undefined>(undefined)

  // Bumped when the history is dropped: a page asked for before that no longer fits and is not applied.
  const generation = useRef(0)
  const reset = () => {
    generation.current += 1
    setOlder({ messages: [], complete: false })
  }

  const previous = useRef<Message[] | undefined>(undefined)
  useEffect(() => {
    const before = previous.current
    previous.current = latest
    if (!before || !latest) return
    const gone = slidOut(before, latest)
    // The page moved past everything it held (the tab slept): the history no longer meets it, so it goes.
    if (gone === null) {
      generation.current += 1
      setOlder({ messages: [], complete: false })
    }
    // Kept even before any page was loaded: one may be on its way, from before these.
    else if (gone.length > 0) setOlder((o) => ({ ...o, messages: [...o.messages, ...gone] }))
  }, [latest])

  useLayoutEffect(() => {
    const el = scroller.current
    if (!el || fromBottom.current === undefined || older.messages.length === 0) return
    el.scrollTop = el.scrollHeight - fromBottom.current
    fromBottom.current = undefined
  }, [older])

  const earlier = earlierThan(older.messages, latest ?? [])
  const oldest = earlier[0] ?? latest?.[0]
  const more =
    roomId !== undefined &&
    oldest !== undefined &&
    !older.complete &&
    (older.messages.length > 0 || (latest?.length ?? 0) >= MESSAGE_PAGE_SIZE)

  const load = async () => {
    if (roomId === undefined || oldest === undefined) return
    setLoading(true)
    const asked = generation.current
    try {
      const page = await getOlderRoomMessages({ data: { room_id: roomId, before: oldest.id } })
      if (asked !== generation.current) return
      if (page === null) {
        // The message paged from is gone (an operator removed it): start again from the latest page.
        reset()
        return showErrorSnackbar('メッセージを読み込めませんでした。もう一度お試しください')
      }
      const el = scroller.current
      if (el) fromBottom.current = el.scrollHeight - el.scrollTop
      const complete = page.length < MESSAGE_PAGE_SIZE
      setOlder((o) => ({ messages: [...page, ...o.messages], complete }))
      // The button goes with the last page: keep the keyboard in the history rather than on the page's body.
      if (complete) el?.focus({ preventScroll: true })
    } catch {
      showErrorSnackbar('メッセージを読み込めませんでした')
    } finally {
      setLoading(false)
    }
  }
  return { earlier, more, loading, load, scroller }
}

const onVisibilityChange = (notify: () => void) => {
  document.addEventListener('visibilitychange', notify)
  return () => document.removeEventListener('visibilitychange', notify)
}

/** Whether the page is in view (the server renders it as in view). */
function usePageVisible() {
  return useSyncExternalStore(
    onVisibilityChange,
    () => document.visibilityState === 'visible',
    () => true,
  )
}
