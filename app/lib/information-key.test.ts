import { describe, expect, it } from 'vitest'
import { informationKey, parseInformationKey } from './information-key'

describe('information keys', () => {
  it('round-trips', () => {
    expect(parseInformationKey(informationKey('notice', 12))).toEqual({ kind: 'notice', id: 12 })
    expect(parseInformationKey(informationKey('class', 3))).toEqual({ kind: 'class', id: 3 })
  })
  it.each(['12', 'notice-', 'notice-0', 'class-01', 'other-1', 'notice-1e3', 'class-9999999999', null])(
    'refuses %s',
    (key) => {
      expect(parseInformationKey(key)).toBeUndefined()
    },
  )
})
