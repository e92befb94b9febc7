import { describe, expect, it } from 'vitest'
import { joinedMessage } from './joined-message'

describe('joinedMessage', () => {
  it("shows an organisation's name as text, never as a link or markup in the snackbar", () => {
    const message = joinedMessage('<a href="//evil.example" target="_blank">規約に同意</a>')
    expect(message).not.toMatch(/[<>"]/)
    expect(message).toBe(
      '&#60;a href=&#34;//evil.example&#34; target=&#34;_blank&#34;&#62;規約に同意&#60;/a&#62;に参加しました',
    )
    expect(joinedMessage('こども英語の会')).toBe('こども英語の会に参加しました')
  })
})
