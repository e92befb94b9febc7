import { describe, expect, it } from 'vitest'
import { deepInfoFailureMessage } from './deep-info-failure'

describe('deepInfoFailureMessage', () => {
  it("is 'エラーが発生しました。' plus the error's message (text: showErrorSnackbar escapes it)", () => {
    expect(deepInfoFailureMessage(new Error('一時的な障害です'))).toBe(
      'エラーが発生しました。一時的な障害です',
    )
    expect(deepInfoFailureMessage(new Error(''))).toBe('エラーが発生しました。')
    expect(deepInfoFailureMessage('not an error')).toBe('エラーが発生しました。')
  })
})
