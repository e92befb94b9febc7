import { describe, expect, it } from 'vitest'
import { MAX_FURIGANA_IDS, normalizeFuriganaIds } from './ids'

describe('normalizeFuriganaIds', () => {
  it('one key per page: repeats dropped, sorted, empty kinds left out', () => {
    expect(normalizeFuriganaIds({ class_ids: [3, 1, 3], user_ids: [], announcement_ids: [7] })).toEqual({
      class_ids: [1, 3],
      user_ids: undefined,
      announcement_ids: [7],
    })
  })
  it('never asks for more than the API takes (a teacher with 80 classes)', () => {
    const many = Array.from({ length: 80 }, (_, i) => 80 - i)
    expect(normalizeFuriganaIds({ class_ids: many }).class_ids).toHaveLength(MAX_FURIGANA_IDS)
  })
})
