import { describe, expect, it } from 'vitest'
import { escapeLike } from './like'

describe('escapeLike', () => {
  it('makes %, _ and \\ literal, and leaves everything else', () => {
    expect(escapeLike('100%_a\\b')).toBe('100\\%\\_a\\\\b')
    expect(escapeLike('はなこ')).toBe('はなこ')
  })
})
