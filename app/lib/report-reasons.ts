/**
 * The reasons a member gives for a report (通報, issue 15) and the kinds of content, with their labels. Plain
 * constants (no zod) so that the report dialog ships without the validation library; the contract builds its
 * schemas from them.
 */
export const REPORT_REASONS = {
  contact: '連絡先の交換・外部サービスへの誘導',
  inappropriate: '不適切な内容（暴力・性的・差別的な表現など）',
  harassment: '嫌がらせ・いじめ・威圧的な言動',
  child_safety: '子どもの安全が心配',
  spam: '宣伝・勧誘・スパム',
  impersonation: 'なりすまし・事実と異なる内容',
  other: 'その他',
} as const
export type ReportReason = keyof typeof REPORT_REASONS

export const REPORT_TARGETS = {
  class: 'クラス',
  teacher: '先生',
  message: 'メッセージ',
  review: 'レビュー',
} as const
export type ReportTarget = keyof typeof REPORT_TARGETS
