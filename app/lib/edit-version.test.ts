import { describe, expect, it } from 'vitest'
import { nextEditVersion } from './edit-version'

describe('nextEditVersion', () => {
  it('is the clock when it has moved on', () => {
    expect(
      nextEditVersion(new Date('2026-12-06T10:00:01Z'), new Date('2026-12-06T10:00:00Z')).toISOString(),
    ).toBe('2026-12-06T10:00:01.000Z')
  })

  it('moves past the previous save in the same millisecond, or when the clock stepped back', () => {
    const previous = new Date('2026-12-06T10:00:00.500Z')
    expect(nextEditVersion(new Date(previous), previous).toISOString()).toBe('2026-12-06T10:00:00.501Z')
    expect(nextEditVersion(new Date('2026-12-06T09:59:59Z'), previous).toISOString()).toBe(
      '2026-12-06T10:00:00.501Z',
    )
  })
})
