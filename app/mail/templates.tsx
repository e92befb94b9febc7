import type { ReactElement } from 'react'
import { appConfig } from '../../app.config'
import { formatDateJa, formatPrice, formatRunJa, formatTimeJa } from '../lib/format'
import type { NotificationKind } from '../lib/notification-kinds'
import { Action, Details, type MailFooter, MailLayout, P } from './layout'

/**
 * One template per mail the app sends (issue 14). A template is a subject and a React Email body built from
 * plain, serialisable props (they travel in the job's payload). Times are shown in Asia/Tokyo.
 */

interface Lesson {
  className: string
  startedAt: string
  endedAt: string
  /** Who attends: the member or one of their learners. */
  attendee: string
  /** N for a course run (全N回), whose startedAt/endedAt span its lessons; absent for one lesson. */
  lessonCount?: number
}

/**
 * 変更前の日時 of a moved lesson or run. A course run whose span stayed (a lesson between moved, or the first one's end)
 * says which changed instead of the same dates twice.
 */
const previousRunRows = (p: {
  startedAt: string
  endedAt: string
  previousStartedAt: string
  previousEndedAt: string
  lessonCount?: number
}): [string, string][] =>
  p.previousStartedAt === p.startedAt && p.previousEndedAt === p.endedAt
    ? [['変更内容', '一部の回の日時（各回の日時はクラスのページでご確認ください）']]
    : [['変更前の日時', formatRunJa(p.previousStartedAt, p.previousEndedAt, p.lessonCount ?? 1)]]

/** The cancellation deadline, or (null: booked or moved less than 24 h ahead) that it has passed. */
const cancelDeadlineRow = (deadline: string | null): [string, string] => [
  'キャンセル期限',
  deadline === null
    ? '開始24時間前を過ぎているため、キャンセルできません'
    : `${formatDateJa(deadline)} ${formatTimeJa(deadline)}まで`,
]

const lessonRows = (l: Lesson): [string, string][] => [
  ['クラス', l.className],
  ['日時', formatRunJa(l.startedAt, l.endedAt, l.lessonCount ?? 1)],
  ['受講する人', l.attendee],
]

/** The refund's row, where money was paid: a free class's cancellation refunds nothing (not 「返金額 無料」). */
const refundRow = (refund: number): [string, string][] =>
  refund > 0 ? [['返金額', formatPrice(refund)]] : []

/** The receipt's issuer, as its page prints it; the number only once the platform had registered. */
function issuerRows(issuer: { name: string; registrationNumber: string | null }) {
  const rows: [string, string][] = [['発行者', issuer.name]]
  if (issuer.registrationNumber) rows.push(['登録番号', issuer.registrationNumber])
  return rows
}

interface Template<P> {
  /** Which preference governs it; 'verification' and 'refund' cannot be switched off. */
  kind: NotificationKind | 'verification'
  subject(props: P): string
  body(props: P & { footer: MailFooter }): ReactElement
}

const define = <P,>(t: Template<P>) => t

export const templates = {
  verify_email: define<{ verifyUrl: string; expiresHours: number }>({
    kind: 'verification',
    subject: () => 'メールアドレスの確認',
    body: (p) => (
      <MailLayout preview="メールアドレスを確認してください" heading="メールアドレスの確認" footer={p.footer}>
        <P>まなびのたねにご登録いただきありがとうございます。</P>
        <P>
          下のボタンからメールアドレスを確認してください。リンクの有効期限は{p.expiresHours}
          時間で、1回だけ使えます。
        </P>
        <Action href={p.verifyUrl}>メールアドレスを確認する</Action>
        <P>お心当たりのない場合は、このメールを破棄してください。</P>
      </MailLayout>
    ),
  }),

  reservation_confirmed: define<
    Lesson & { price: number; cancelDeadline: string | null; attendanceUrl: string }
  >({
    kind: 'reservation',
    subject: (p) => `予約が確定しました：${p.className}`,
    body: (p) => (
      <MailLayout
        preview={`${p.className}の予約が確定しました`}
        heading="予約が確定しました"
        footer={p.footer}
      >
        <P>
          ご予約ありがとうございます。授業の15分前から、受講するクラスのページに参加用のリンクが表示されます。
        </P>
        <Details
          rows={[...lessonRows(p), ['料金', formatPrice(p.price)], cancelDeadlineRow(p.cancelDeadline)]}
        />
        <Action href={p.attendanceUrl}>受講するクラスを見る</Action>
      </MailLayout>
    ),
  }),

  reservation_canceled: define<Lesson & { refund: number; attendanceUrl: string }>({
    kind: 'reservation',
    subject: (p) => `予約をキャンセルしました：${p.className}`,
    body: (p) => (
      <MailLayout
        preview={`${p.className}の予約をキャンセルしました`}
        heading="予約をキャンセルしました"
        footer={p.footer}
      >
        <P>次の予約のキャンセルを受け付けました。</P>
        <Details rows={[...lessonRows(p), ...refundRow(p.refund)]} />
        <Action href={p.attendanceUrl}>予約の一覧を見る</Action>
      </MailLayout>
    ),
  }),

  /** A seat an operator cancelled (its member's account was suspended): money mail, not to be switched off. */
  reservation_withdrawn: define<Lesson & { refund: number }>({
    kind: 'refund',
    subject: (p) => `【予約取消】${p.className}`,
    body: (p) => (
      <MailLayout
        preview={`${p.className}の予約を取り消しました`}
        heading="予約を取り消しました"
        footer={p.footer}
      >
        <P>
          運営の判断により、次の予約を取り消しました。
          {p.refund > 0 ? 'お支払いは全額返金します。' : ''}
        </P>
        <Details rows={[...lessonRows(p), ...refundRow(p.refund)]} />
      </MailLayout>
    ),
  }),

  payment_receipt: define<
    Lesson & {
      amount: number
      taxAmount: number
      receiptNumber: string
      receiptUrl: string
      /**
       * Who issued the receipt, as recorded when the payment went through (docs/decisions/0057), else as configured
       * now (the receipt page does the same). Not printed on the refund notice.
       */
      issuer: { name: string; registrationNumber: string | null }
      /** Paid after the hold ended with no seat left: the whole amount goes back. */
      refundedNoSeat?: boolean
    }
  >({
    kind: 'refund',
    subject: (p) =>
      p.refundedNoSeat
        ? `お支払いを返金します：${p.className}`
        : `お支払いが完了しました（領収書）：${p.className}`,
    body: (p) => (
      <MailLayout
        preview={
          p.refundedNoSeat ? 'お支払いを全額返金します' : `${formatPrice(p.amount)}のお支払いが完了しました`
        }
        heading={p.refundedNoSeat ? 'お支払いを返金します' : 'お支払いが完了しました'}
        footer={p.footer}
      >
        <P>
          {p.refundedNoSeat
            ? // Not only a full class: a cancelled lesson, a class taken down, a suspension or the child's seat booked
              // meanwhile also leave the money without a seat.
              'お支払いの期限を過ぎてから決済が完了しましたが、その間に満席・休講などで予約できなくなったため、予約は確定していません。お支払いは全額返金します。'
            : 'お支払いを受け付け、予約が確定しました。領収書は下のリンクから表示・印刷できます。'}
        </P>
        <Details
          rows={[
            ...lessonRows(p),
            ['お支払い金額', `${formatPrice(p.amount)}（税込）`],
            ['うち消費税（10%）', formatPrice(p.taxAmount)],
            ['領収書番号', p.receiptNumber],
            ...(p.refundedNoSeat ? [] : issuerRows(p.issuer)),
          ]}
        />
        <Action href={p.receiptUrl}>{p.refundedNoSeat ? '購入履歴を見る' : '領収書を見る'}</Action>
      </MailLayout>
    ),
  }),

  refund_completed: define<Lesson & { amount: number; historyUrl: string }>({
    kind: 'refund',
    subject: (p) => `返金が完了しました：${p.className}`,
    body: (p) => (
      <MailLayout
        preview={`${formatPrice(p.amount)}を返金しました`}
        heading="返金が完了しました"
        footer={p.footer}
      >
        <P>
          次のお支払いを全額返金しました。カード会社によっては、明細に反映されるまで数日かかることがあります。
        </P>
        <Details rows={[...lessonRows(p), ['返金額', formatPrice(p.amount)]]} />
        <Action href={p.historyUrl}>購入履歴を見る</Action>
      </MailLayout>
    ),
  }),

  schedule_canceled: define<Lesson & { refund: number; classUrl: string; byOperator?: boolean }>({
    kind: 'refund',
    subject: (p) => `【開催中止】${p.className}`,
    body: (p) => (
      <MailLayout
        preview={`${p.className}は開催中止になりました`}
        heading="授業が開催中止になりました"
        footer={p.footer}
      >
        <P>
          {p.byOperator ? '運営の判断により' : '先生の都合により'}
          、ご予約の授業は開催中止になりました。{p.refund > 0 ? '料金は全額返金されます。' : ''}
        </P>
        <Details rows={[...lessonRows(p), ...refundRow(p.refund)]} />
        <Action href={p.classUrl}>{p.byOperator ? 'ほかのクラスを探す' : 'クラスのほかの日程を見る'}</Action>
      </MailLayout>
    ),
  }),

  schedule_moved: define<
    Lesson & {
      previousStartedAt: string
      previousEndedAt: string
      cancelDeadline: string | null
      attendanceUrl: string
    }
  >({
    kind: 'refund',
    subject: (p) => `【日時変更】${p.className}`,
    body: (p) => (
      <MailLayout
        preview={`${p.className}の日時が変わりました`}
        heading="授業の日時が変わりました"
        footer={p.footer}
      >
        <P>
          先生の都合により、ご予約の授業の日時が変わりました。新しい日時で参加できない場合は、キャンセル期限までにキャンセルすると全額返金されます。
        </P>
        <Details rows={[...lessonRows(p), ...previousRunRows(p), cancelDeadlineRow(p.cancelDeadline)]} />
        <Action href={p.attendanceUrl}>受講するクラスを見る</Action>
      </MailLayout>
    ),
  }),

  teacher_new_reservation: define<Lesson & { member: string; seatsLeft: number; manageUrl: string }>({
    kind: 'teacher_reservation',
    subject: (p) => `新しい予約がありました：${p.className}`,
    body: (p) => (
      <MailLayout
        preview={`${p.member}さんが予約しました`}
        heading="新しい予約がありました"
        footer={p.footer}
      >
        <P>{p.member}さんがあなたのクラスを予約しました。</P>
        <Details rows={[...lessonRows(p), ['残席', `${p.seatsLeft}席`]]} />
        <Action href={p.manageUrl}>クラス管理を開く</Action>
      </MailLayout>
    ),
  }),

  /** `byOperator`: the member's account was suspended and an operator cancelled the seat, not the member. */
  teacher_reservation_canceled: define<Lesson & { member: string; manageUrl: string; byOperator?: boolean }>({
    kind: 'teacher_reservation',
    subject: (p) => `予約がキャンセルされました：${p.className}`,
    body: (p) => (
      <MailLayout
        preview={
          p.byOperator
            ? `${p.member}さんの予約が取り消されました`
            : `${p.member}さんが予約をキャンセルしました`
        }
        heading="予約がキャンセルされました"
        footer={p.footer}
      >
        <P>
          {p.byOperator
            ? `運営の判断により、${p.member}さんの次の予約が取り消されました。`
            : `${p.member}さんが次の予約をキャンセルしました。`}
        </P>
        <Details rows={lessonRows(p)} />
        <Action href={p.manageUrl}>クラス管理を開く</Action>
      </MailLayout>
    ),
  }),

  /** `sender` as addressed: 'はなこさん', 'けんた 先生' (a room's teacher, addressName). */
  new_message: define<{ sender: string; roomUrl: string }>({
    kind: 'message',
    subject: (p) => `${p.sender}からメッセージが届きました`,
    body: (p) => (
      <MailLayout
        preview={`${p.sender}からメッセージが届きました`}
        heading="新着メッセージ"
        footer={p.footer}
      >
        <P>{p.sender}からメッセージが届きました。内容はまなびのたねでご確認ください。</P>
        <Action href={p.roomUrl}>メッセージを読む</Action>
      </MailLayout>
    ),
  }),

  class_announcement: define<{ className: string; title: string; excerpt: string; url: string }>({
    kind: 'announcement',
    subject: (p) => `${p.className}からのお知らせ：${p.title}`,
    body: (p) => (
      <MailLayout preview={p.title} heading={p.title} footer={p.footer}>
        <P>予約している「{p.className}」の先生からお知らせが届きました。</P>
        <P>{p.excerpt}</P>
        <Action href={p.url}>お知らせを読む</Action>
      </MailLayout>
    ),
  }),

  operator_notice: define<{ title: string; excerpt: string; url: string }>({
    kind: 'operator_notice',
    subject: (p) => `【まなびのたね】${p.title}`,
    body: (p) => (
      <MailLayout preview={p.title} heading={p.title} footer={p.footer}>
        <P>{p.excerpt}</P>
        <Action href={p.url}>お知らせを読む</Action>
      </MailLayout>
    ),
  }),

  new_review: define<{
    className: string
    rating: number
    comment: string
    reviewer: string
    classUrl: string
  }>({
    kind: 'teacher_review',
    subject: (p) => `レビューが届きました：${p.className}`,
    body: (p) => (
      <MailLayout
        preview={`${p.className}にレビューが届きました`}
        heading="レビューが届きました"
        footer={p.footer}
      >
        <P>
          {p.reviewer}さんが「{p.className}」のレビューを書きました。
        </P>
        <Details
          rows={[
            ['評価', `${'★'.repeat(p.rating)}${'☆'.repeat(5 - p.rating)}（${p.rating}）`],
            ['コメント', p.comment],
          ]}
        />
        <P>クラスのページから一度だけ返信できます。</P>
        <Action href={p.classUrl}>レビューを見る</Action>
      </MailLayout>
    ),
  }),

  org_member_changed: define<{
    organizationName: string
    /** As addressed: 「けんた 先生」, or a nickname that already ends in 先生 as it is (addressName). */
    member: string
    change: 'joined' | 'left'
    memberCount: number
    url: string
  }>({
    kind: 'organization_members',
    subject: (p) =>
      p.change === 'joined'
        ? `団体に先生が参加しました：${p.organizationName}`
        : `団体から先生が抜けました：${p.organizationName}`,
    body: (p) => (
      <MailLayout
        preview={`${p.member}が${p.organizationName}${p.change === 'joined' ? 'に参加しました' : 'を抜けました'}`}
        heading={p.change === 'joined' ? '団体に先生が参加しました' : '団体から先生が抜けました'}
        footer={p.footer}
      >
        {p.change === 'joined' ? (
          <P>
            {p.member}が招待コードで「{p.organizationName}」に参加しました。
          </P>
        ) : (
          <P>
            {p.member}が「{p.organizationName}
            」を抜けました。その先生のクラスは団体のクラスではなくなりました。
          </P>
        )}
        <Details rows={[['メンバー', `${p.memberCount}人（オーナーを含む）`]]} />
        {p.change === 'joined' ? (
          <P>心当たりのない参加は、招待コードを作り直してから、そのメンバーを外してください。</P>
        ) : null}
        <Action href={p.url}>団体管理を開く</Action>
      </MailLayout>
    ),
  }),

  /**
   * To a teacher the owner removed from the organisation: their classes left it with them. An account matter (as
   * verification's are), not a setting: the cards of their classes change, and they may be invited back.
   */
  org_member_removed: define<{ nickname: string; organizationName: string; manageUrl: string }>({
    kind: 'verification',
    subject: (p) => `団体のメンバーから外れました：${p.organizationName}`,
    body: (p) => (
      <MailLayout
        preview={`${p.organizationName}のメンバーから外れました`}
        heading="団体のメンバーから外れました"
        footer={p.footer}
      >
        <P>
          {p.nickname}さん、「{p.organizationName}」のオーナーが、あなたを団体のメンバーから外しました。
        </P>
        <P>
          あなたのクラスは団体のクラスではなくなりました。クラスの公開や予約、これまでの売上はそのままです。団体に戻るには、オーナーから新しい招待コードを受け取ってください。
        </P>
        <Action href={p.manageUrl}>クラス管理を開く</Action>
      </MailLayout>
    ),
  }),

  /** To the member an owner handed the organisation to: they now manage it (the former owner stays a member). */
  org_owner_assigned: define<{
    nickname: string
    organizationName: string
    memberCount: number
    url: string
  }>({
    kind: 'verification',
    subject: (p) => `団体のオーナーになりました：${p.organizationName}`,
    body: (p) => (
      <MailLayout
        preview={`${p.organizationName}のオーナーになりました`}
        heading="団体のオーナーになりました"
        footer={p.footer}
      >
        <P>
          {p.nickname}さん、「{p.organizationName}
          」のこれまでのオーナーが、団体のオーナーをあなたに譲りました。
        </P>
        <P>
          これからは、あなたが団体の情報、招待コード、メンバーと売上を管理します。これまでのオーナーはメンバーとして残ります。
        </P>
        <Details rows={[['メンバー', `${p.memberCount}人（オーナーを含む）`]]} />
        <Action href={p.url}>団体管理を開く</Action>
      </MailLayout>
    ),
  }),

  request_scheduled: define<{
    className: string
    startedAt: string
    endedAt: string
    lessonCount?: number
    classUrl: string
  }>({
    kind: 'announcement',
    subject: (p) => `リクエストしたクラスの日程が決まりました：${p.className}`,
    body: (p) => (
      <MailLayout
        preview={`${p.className}の新しい日程`}
        heading="リクエストしたクラスの日程が決まりました"
        footer={p.footer}
      >
        <P>開催をリクエストした「{p.className}」に、新しい日程が追加されました。</P>
        <Details
          rows={[
            ['クラス', p.className],
            ['日時', formatRunJa(p.startedAt, p.endedAt, p.lessonCount ?? 1)],
          ]}
        />
        <P>席には限りがあります。ご都合が合えば、クラスのページから予約してください。</P>
        <Action href={p.classUrl}>クラスのページを見る</Action>
      </MailLayout>
    ),
  }),

  waitlist_offer: define<{
    className: string
    startedAt: string
    endedAt: string
    lessonCount?: number
    /** Whom the seat is held for (a child, or the member themself): only they can book it. */
    attendee?: string
    expiresAt: string
    classUrl: string
  }>({
    kind: 'waitlist',
    subject: (p) => `キャンセル待ちの席が空きました：${p.className}`,
    body: (p) => (
      <MailLayout
        preview={`${p.className}の席を確保しています`}
        heading="キャンセル待ちの席が空きました"
        footer={p.footer}
      >
        <P>キャンセル待ちをしていた授業に空きが出ました。あなたのために席を確保しています。</P>
        <Details
          rows={[
            ['クラス', p.className],
            ['日時', formatRunJa(p.startedAt, p.endedAt, p.lessonCount ?? 1)],
            ...(p.attendee ? [['受講する人', p.attendee] as [string, string]] : []),
            ['予約の期限', `${formatDateJa(p.expiresAt)} ${formatTimeJa(p.expiresAt)}まで`],
          ]}
        />
        <P>期限までに予約しないと、席は次の方に回ります。</P>
        <Action href={p.classUrl}>予約する</Action>
      </MailLayout>
    ),
  }),

  waitlist_moved: define<{
    className: string
    startedAt: string
    endedAt: string
    previousStartedAt: string
    previousEndedAt: string
    lessonCount?: number
    /** When a seat is held for them: the end of the offer, at the new time. */
    offerExpiresAt?: string
    classUrl: string
  }>({
    kind: 'waitlist',
    subject: (p) => `【日時変更】キャンセル待ちの授業：${p.className}`,
    body: (p) => (
      <MailLayout
        preview={`${p.className}の日時が変わりました`}
        heading="キャンセル待ちの授業の日時が変わりました"
        footer={p.footer}
      >
        <P>先生の都合により、キャンセル待ちをしている授業の日時が変わりました。</P>
        <Details
          rows={[
            ['クラス', p.className],
            ['新しい日時', formatRunJa(p.startedAt, p.endedAt, p.lessonCount ?? 1)],
            ...previousRunRows(p),
            ...(p.offerExpiresAt
              ? [
                  [
                    '予約の期限',
                    `${formatDateJa(p.offerExpiresAt)} ${formatTimeJa(p.offerExpiresAt)}まで`,
                  ] as [string, string],
                ]
              : []),
          ]}
        />
        <P>
          {p.offerExpiresAt
            ? 'あなたのために席を確保しています。新しい日時でご都合が合えば、期限までに予約してください。'
            : '新しい日時でキャンセル待ちを続けます。ご都合が合わない場合は、マイページのキャンセル待ちからやめられます。'}
        </P>
        <Action href={p.classUrl}>{p.offerExpiresAt ? '予約する' : 'クラスのページを見る'}</Action>
      </MailLayout>
    ),
  }),

  waitlist_canceled: define<{
    className: string
    startedAt: string
    endedAt: string
    lessonCount?: number
    classUrl: string
    byOperator?: boolean
  }>({
    kind: 'waitlist',
    subject: (p) => `【開催中止】キャンセル待ちの授業：${p.className}`,
    body: (p) => (
      <MailLayout
        preview={`${p.className}は開催中止になりました`}
        heading="キャンセル待ちの授業が開催中止になりました"
        footer={p.footer}
      >
        <P>
          {p.byOperator ? '運営の判断により' : '先生の都合により'}
          、キャンセル待ちをしていた授業は開催中止になりました。キャンセル待ちは終了しました（お支払いはありません）。
        </P>
        <Details
          rows={[
            ['クラス', p.className],
            ['日時', formatRunJa(p.startedAt, p.endedAt, p.lessonCount ?? 1)],
          ]}
        />
        <Action href={p.classUrl}>{p.byOperator ? 'ほかのクラスを探す' : 'クラスのほかの日程を見る'}</Action>
      </MailLayout>
    ),
  }),

  verification_approved: define<{ nickname: string; manageUrl: string }>({
    kind: 'verification',
    subject: () => '本人確認が完了しました',
    body: (p) => (
      <MailLayout preview="本人確認が完了しました" heading="本人確認が完了しました" footer={p.footer}>
        <P>{p.nickname}さん、本人確認の審査が完了しました。</P>
        <P>クラスを公開できるようになりました。あなたのページとクラスには「本人確認済み」と表示されます。</P>
        <Action href={p.manageUrl}>クラス管理へ</Action>
      </MailLayout>
    ),
  }),

  verification_rejected: define<{ nickname: string; reason: string; retryUrl: string }>({
    kind: 'verification',
    subject: () => '本人確認を完了できませんでした',
    body: (p) => (
      <MailLayout
        preview="本人確認を完了できませんでした"
        heading="本人確認を完了できませんでした"
        footer={p.footer}
      >
        <P>{p.nickname}さん、申請いただいた内容では本人確認を完了できませんでした。</P>
        <Details rows={[['理由', p.reason]]} />
        <P>内容を確認のうえ、もう一度申請してください。提出いただいた画像は30日後に削除されます。</P>
        <Action href={p.retryUrl}>もう一度申請する</Action>
      </MailLayout>
    ),
  }),

  account_suspended: define<{ nickname: string }>({
    kind: 'verification',
    subject: () => 'アカウントの利用を停止しました',
    body: (p) => (
      <MailLayout
        preview="アカウントの利用を停止しました"
        heading="アカウントの利用を停止しました"
        footer={p.footer}
      >
        <P>
          {p.nickname}
          さんのアカウントは、利用規約に反する行為の報告を受けて確認した結果、利用を停止しました。
        </P>
        <P>
          公開中のクラスは非公開になり、今後の予約はすべてキャンセルして全額を返金します。お心当たりのない場合は、お問い合わせフォームからご連絡ください（このメールへの返信は届きません）。
        </P>
        <Action href={appConfig.helpLinks.contactForm}>お問い合わせフォーム</Action>
      </MailLayout>
    ),
  }),

  /** To a member whose suspension an operator lifted: they may sign in again; a teacher's classes are drafts. */
  account_reinstated: define<{
    nickname: string
    classesRestored: number
    /** Reviews the suspension had taken down, shown again (0 for mails queued before this was counted). */
    reviewsRestored: number
    loginUrl: string
    manageUrl: string
  }>({
    kind: 'verification',
    subject: () => 'アカウントの利用停止を解除しました',
    body: (p) => (
      <MailLayout
        preview="アカウントの利用停止を解除しました"
        heading="アカウントの利用停止を解除しました"
        footer={p.footer}
      >
        <P>
          {p.nickname}さんのアカウントの利用停止を解除しました。これまでどおりログインしてご利用いただけます。
        </P>
        {p.classesRestored > 0 ? (
          <P>
            利用停止で非公開にしたクラス（{p.classesRestored}
            件）は下書きに戻しました。クラス画像を登録し直してから、あらためて公開してください。キャンセルした予約は元に戻りません。
          </P>
        ) : null}
        {p.reviewsRestored > 0 ? (
          <P>利用停止で非表示にしたレビュー（{p.reviewsRestored}件）を、ふたたび表示しています。</P>
        ) : null}
        {p.classesRestored > 0 ? (
          <Action href={p.manageUrl}>クラス管理へ</Action>
        ) : (
          <Action href={p.loginUrl}>まなびのたねを開く</Action>
        )}
      </MailLayout>
    ),
  }),

  /** To a teacher whose payout account was set or changed: a stolen session cannot redirect payouts unnoticed. */
  bank_account_changed: define<{
    nickname: string
    bankName: string
    numberMasked: string
    salesUrl: string
  }>({
    kind: 'verification',
    subject: () => '振込先口座が登録・変更されました',
    body: (p) => (
      <MailLayout
        preview="振込先口座が登録・変更されました"
        heading="振込先口座が登録・変更されました"
        footer={p.footer}
      >
        <P>{p.nickname}さんの売上の振込先口座が登録・変更されました。</P>
        <Details
          rows={[
            ['金融機関', p.bankName],
            ['口座番号', p.numberMasked],
          ]}
        />
        <P>
          お心当たりのない場合は、すぐにお問い合わせフォームからご連絡ください（このメールへの返信は届きません）。
        </P>
        <Action href={p.salesUrl}>振込先を確認する</Action>
      </MailLayout>
    ),
  }),

  /** To the teacher of a class an operator took down (a report): what happened, and where to ask. */
  class_hidden: define<{ className: string; canceled: number; refunded: number }>({
    kind: 'verification',
    subject: (p) => `【非公開】${p.className}`,
    body: (p) => (
      <MailLayout
        preview={`${p.className}を非公開にしました`}
        heading="クラスを非公開にしました"
        footer={p.footer}
      >
        <P>
          「{p.className}
          」は、利用規約に反する内容の報告を受けて運営が確認した結果、非公開にしました。再び公開することはできません。
        </P>
        {p.canceled > 0 ? (
          <P>
            今後の予約{p.canceled}件はキャンセルしました。
            {p.refunded > 0 ? '受講者にはお支払いの全額を返金します。' : ''}
          </P>
        ) : null}
        <P>
          お心当たりのない場合は、お問い合わせフォームからご連絡ください（このメールへの返信は届きません）。
        </P>
        <Action href={appConfig.helpLinks.contactForm}>お問い合わせフォーム</Action>
      </MailLayout>
    ),
  }),

  lesson_reminder: define<Lesson & { hoursBefore: 24 | 1; attendanceUrl: string }>({
    kind: 'reminder',
    subject: (p) =>
      p.hoursBefore === 1
        ? `まもなく授業が始まります：${p.className}`
        : `明日の授業のお知らせ：${p.className}`,
    body: (p) => (
      <MailLayout
        preview={p.hoursBefore === 1 ? '1時間後に授業が始まります' : '24時間後に授業が始まります'}
        heading={p.hoursBefore === 1 ? '1時間後に授業が始まります' : '明日の授業のお知らせ'}
        footer={p.footer}
      >
        <P>授業の15分前から、下のページに参加用のリンクが表示されます。</P>
        <Details rows={lessonRows(p)} />
        <Action href={p.attendanceUrl}>授業に参加する</Action>
      </MailLayout>
    ),
  }),
}

export type TemplateName = keyof typeof templates
export type TemplateProps<N extends TemplateName> = Parameters<(typeof templates)[N]['subject']>[0]
