/**
 * What the audit log records (issue 15). The keys stand alone: `adminAuditQuery` checks a search's action against
 * them without loading the labels (the route's search validation, which is in every page's entry script, checks
 * only the shape of the name).
 */
export const AUDIT_ACTIONS = [
  'sign_in',
  'sign_in_failed',
  'sign_in_refused',
  'logout',
  'logout_others',
  'role_grant',
  'role_revoke',
  'notice_create',
  'notice_withdraw',
  'message_release',
  'message_delete',
  'verification_approve',
  'verification_reject',
  'document_access',
  'documents_purge',
  'report_dismiss',
  'report_hide',
  'account_suspend',
  'account_reinstate',
  'bank_account_change',
] as const

export type AuditAction = (typeof AUDIT_ACTIONS)[number]

/** The label the operator's audit page shows for each action. */
export const AUDIT_ACTION_LABELS = {
  sign_in: 'ログイン',
  sign_in_failed: 'ログイン失敗',
  sign_in_refused: 'ログイン拒否（利用停止中）',
  logout: 'ログアウト',
  logout_others: 'ほかの端末からログアウト',
  role_grant: '運営権限の付与',
  role_revoke: '運営権限の取り消し',
  notice_create: 'お知らせの作成',
  notice_withdraw: 'お知らせの取り下げ',
  message_release: 'メッセージの公開（確認済み）',
  message_delete: 'メッセージの削除',
  verification_approve: '本人確認の承認',
  verification_reject: '本人確認の却下',
  document_access: '本人確認書類の閲覧',
  documents_purge: '本人確認書類の削除（保存期間の満了）',
  report_dismiss: '通報の却下（対応不要）',
  report_hide: '通報による非表示',
  account_suspend: 'アカウントの利用停止',
  account_reinstate: 'アカウントの利用停止の解除',
  bank_account_change: '振込先口座の登録・変更',
} as const satisfies Record<AuditAction, string>
