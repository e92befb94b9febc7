import { useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { formatDateJa, formatTimeJa } from '~/lib/format'
import { mailboxMailQuery, mailboxQuery } from './queries'

const when = (iso: string) => `${formatDateJa(iso)} ${formatTimeJa(iso)}`

/** /test/mailbox: the mails the app kept instead of sending (newest first, 50). */
export function MailboxPage(props: { to?: string }) {
  const mails = useSuspenseQuery(mailboxQuery(props.to)).data
  return (
    <div>
      <h1 className="text-2xl font-black">メールボックス</h1>
      <p className="mt-2 text-sm text-slate-700">
        メールサーバーを設定していないため、送信されたメールはここに保存されています（新しい順に50件）。
        {props.to ? `宛先: ${props.to}` : null}
      </p>
      {mails.length === 0 ? (
        <p className="mt-6">メールはまだありません。</p>
      ) : (
        <ul
          className="mt-6 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white"
          data-testid="mailbox"
        >
          {mails.map((m) => (
            <li key={m.id} className="p-4" data-testid="mailbox-item">
              <Link to="/test/mailbox/$id" params={{ id: String(m.id) }} className="font-bold underline">
                {m.subject}
              </Link>
              <p className="mt-1 break-all text-sm text-slate-600">
                {m.to} ・ {when(m.createdAt)}
              </p>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** /test/mailbox/$id: one mail, its HTML part in a sandboxed frame and its plain-text part. */
export function MailboxMailPage(props: { id: number }) {
  const mail = useSuspenseQuery(mailboxMailQuery(props.id)).data
  return (
    <div>
      <p className="text-sm">
        <Link to="/test/mailbox" search={{}} className="underline">
          メールボックス
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-black" data-testid="mail-subject">
        {mail.subject}
      </h1>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 text-sm">
        <dt className="font-bold">宛先</dt>
        <dd className="break-all" data-testid="mail-to">
          {mail.to}
        </dd>
        <dt className="font-bold">日時</dt>
        <dd>{when(mail.createdAt)}</dd>
        {Object.entries(mail.headers).map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="font-bold">{k}</dt>
            <dd className="break-all">{v}</dd>
          </div>
        ))}
      </dl>
      <iframe
        title="メール本文"
        srcDoc={mail.html}
        sandbox="allow-popups allow-popups-to-escape-sandbox"
        className="mt-6 h-[32rem] w-full rounded-2xl border border-slate-200 bg-white"
      />
      <h2 className="mt-6 font-bold">テキスト版</h2>
      <pre
        className="mt-2 whitespace-pre-wrap break-all rounded-2xl bg-slate-50 p-4 text-sm"
        data-testid="mail-text"
      >
        {mail.text}
      </pre>
    </div>
  )
}
