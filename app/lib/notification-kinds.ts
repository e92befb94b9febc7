/**
 * The kinds of notification a member receives, and which of them they may switch off (issue 14). The settings
 * page, the unsubscribe links and the senders all read this table.
 */
export const NOTIFICATION_KINDS = [
  {
    kind: 'reservation',
    label: '予約の確定・キャンセル',
    description: 'ご自身の予約が確定したときや、キャンセルしたとき',
    mandatory: false,
    defaultOn: true,
  },
  {
    // Its own kind: a member who stops the confirmations above must not miss a seat held for them for 12 hours.
    kind: 'waitlist',
    label: 'キャンセル待ち',
    description: 'キャンセル待ちの授業に空きが出てお席をお取り置きしたときや、その授業が中止になったとき',
    mandatory: false,
    defaultOn: true,
  },
  {
    kind: 'refund',
    label: 'お支払い・返金・開催中止・日時の変更',
    description: '領収書、返金の完了、予約した授業の中止や日時の変更（停止できません）',
    mandatory: true,
    defaultOn: true,
  },
  {
    kind: 'reminder',
    label: '授業のリマインダー',
    description: '予約した授業の24時間前と1時間前',
    mandatory: false,
    defaultOn: true,
  },
  {
    kind: 'message',
    label: '新着メッセージ',
    description: 'メッセージが届いたとき（同じ相手からは10分に1通まで）',
    mandatory: false,
    defaultOn: true,
  },
  {
    kind: 'announcement',
    label: 'クラスからのお知らせ',
    description: '予約したクラスの先生がお知らせを投稿したとき',
    mandatory: false,
    defaultOn: true,
  },
  {
    kind: 'teacher_reservation',
    label: '生徒の予約・キャンセル（先生向け）',
    description: 'ご自身のクラスに予約やキャンセルがあったとき',
    mandatory: false,
    defaultOn: true,
  },
  {
    kind: 'teacher_review',
    label: 'レビュー（先生向け）',
    description: 'ご自身のクラスにレビューが書かれたとき',
    mandatory: false,
    defaultOn: true,
  },
  {
    kind: 'organization_members',
    label: '団体のメンバー（オーナー向け）',
    description: 'ご自身の団体に先生が参加したときや、団体を抜けたとき',
    mandatory: false,
    defaultOn: true,
  },
  {
    kind: 'operator_notice',
    label: '運営からのお知らせ',
    description: 'まなびのたねからの大切なお知らせやキャンペーン（希望する方のみ）',
    mandatory: false,
    defaultOn: false,
  },
] as const

export type NotificationKind = (typeof NOTIFICATION_KINDS)[number]['kind']

export const NOTIFICATION_KIND_NAMES = NOTIFICATION_KINDS.map((k) => k.kind) as [
  NotificationKind,
  ...NotificationKind[],
]

export function notificationKind(kind: string) {
  return NOTIFICATION_KINDS.find((k) => k.kind === kind)
}
