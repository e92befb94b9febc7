import { describe, expect, it } from 'vitest'
import { CreateReportBody, DecideVerificationBody, SubmitVerificationBody } from './trust'

const valid = {
  legal_name: '森 ゆい',
  legal_name_kana: 'モリ ユイ',
  birth_date: '1990-04-01',
  career: '小学校で5年間、算数を教えていました。',
  face_path: `verifications/${'a'.repeat(32)}.webp`,
  document_path: `verifications/${'b'.repeat(32)}.webp`,
}

const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues.map((i) => i.message) ?? []

describe('SubmitVerificationBody', () => {
  it('accepts a complete submission', () => {
    expect(SubmitVerificationBody.safeParse(valid).success).toBe(true)
  })
  it.each([
    [{ legal_name_kana: 'mori yui' }, 'ふりがなはカタカナかひらがなで入力してください'],
    [{ birth_date: '1990-02-30' }, '生年月日を正しく入力してください'],
    [{ birth_date: '1899-12-31' }, '生年月日を正しく入力してください'],
    [{ career: '短い' }, '経歴は10文字以上で入力してください'],
    // Only an image this server stored under verifications/ — never a public upload or another path.
    [{ face_path: 'avatars/0123456789abcdef0123456789abcdef.webp' }, '画像をアップロードしてください'],
    [{ document_path: `verifications/../${'b'.repeat(32)}.webp` }, '画像をアップロードしてください'],
  ])('refuses %j with a Japanese message', (patch, message) => {
    expect(messages(SubmitVerificationBody.safeParse({ ...valid, ...patch }))).toContain(message)
  })
  it('refuses unknown fields (no setting of the status by the member)', () => {
    expect(SubmitVerificationBody.safeParse({ ...valid, status: 'approved' }).success).toBe(false)
  })
})

describe('DecideVerificationBody', () => {
  it('needs a reason to reject, not to approve', () => {
    expect(DecideVerificationBody.safeParse({ decision: 'approve' }).success).toBe(true)
    expect(messages(DecideVerificationBody.safeParse({ decision: 'reject', reason: '  ' }))).toContain(
      '却下の理由を入力してください',
    )
    expect(DecideVerificationBody.safeParse({ decision: 'reject', reason: '書類が不鮮明です' }).success).toBe(
      true,
    )
  })
})

describe('CreateReportBody', () => {
  it('takes a reason from the list', () => {
    expect(CreateReportBody.safeParse({ target_type: 'class', target_id: 1, reason: 'spam' }).success).toBe(
      true,
    )
    expect(
      messages(CreateReportBody.safeParse({ target_type: 'class', target_id: 1, reason: 'boring' })),
    ).toContain('通報の理由を選んでください')
    expect(CreateReportBody.safeParse({ target_type: 'review', target_id: 1, reason: 'spam' }).success).toBe(
      true,
    )
    expect(CreateReportBody.safeParse({ target_type: 'user', target_id: 1, reason: 'spam' }).success).toBe(
      false,
    )
  })
})
