import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { fieldErrorsOf } from './action-result'

describe('fieldErrorsOf', () => {
  const schema = z.object({
    nickname: z.string().min(1, '入力してください（20文字以内）'),
    category_id: z.number(),
    target_grade_ids: z.array(z.number()).min(1, '対象学年を選択してください'),
    title: z.string(),
  })

  it('keeps the schema’s Japanese messages and says type errors in Japanese', () => {
    const r = schema.safeParse({ nickname: '', target_grade_ids: [] })
    expect(r.success).toBe(false)
    expect(fieldErrorsOf(r.error?.issues)).toEqual({
      nickname: '入力してください（20文字以内）',
      category_id: '選択してください',
      target_grade_ids: '対象学年を選択してください',
      title: '入力してください',
    })
  })

  it('keeps the first message per field and names nested fields by path', () => {
    expect(
      fieldErrorsOf([
        { path: ['learners', 0, 'nickname'], code: 'too_small', message: '入力してください' },
        { path: ['learners', 0, 'nickname'], code: 'custom', message: 'ほかの理由' },
      ]),
    ).toEqual({ 'learners.0.nickname': '入力してください' })
  })

  it('accepts anything from a server answer without failing', () => {
    expect(fieldErrorsOf(undefined)).toEqual({})
    expect(fieldErrorsOf('nope')).toEqual({})
  })
})
