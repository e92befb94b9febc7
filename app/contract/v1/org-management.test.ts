import { describe, expect, it } from 'vitest'
import { JoinOrganizationBody, normalizeInvitationCode } from './org-management'

describe('normalizeInvitationCode', () => {
  it.each([
    ['K7QX-M2PA-9RTD', 'K7QX-M2PA-9RTD'],
    ['k7qx-m2pa-9rtd', 'K7QX-M2PA-9RTD'],
    // An input method left in full-width mode, its dash the long vowel mark or a full-width hyphen.
    ['Ｋ７ＱＸ－Ｍ２ＰＡ－９ＲＴＤ', 'K7QX-M2PA-9RTD'],
    ['K7QXーM2PAーー9RTD', 'K7QX-M2PA-9RTD'],
    // Without hyphens, or with spaces: grouped as codes are.
    ['K7QXM2PA9RTD', 'K7QX-M2PA-9RTD'],
    [' k7qx m2pa 9rtd ', 'K7QX-M2PA-9RTD'],
    // Not twelve characters (the demo's code): only case and dashes change.
    ['mirai－7k3q', 'MIRAI-7K3Q'],
  ])('%s → %s', (typed, code) => {
    expect(normalizeInvitationCode(typed)).toBe(code)
  })

  it('the join body carries the normalized code; an empty one is refused in Japanese', () => {
    expect(JoinOrganizationBody.parse({ invitation_code: 'k7qxm2pa9rtd' })).toEqual({
      invitation_code: 'K7QX-M2PA-9RTD',
    })
    const empty = JoinOrganizationBody.safeParse({ invitation_code: '  ' })
    expect(empty.success).toBe(false)
    expect(empty.error?.issues[0]?.message).toBe('招待コードを入力してください')
  })
})
