import { describe, expect, it } from 'vitest'
import { durationLabel, gradeMismatch, gradesLabel, seatsLabel } from './class-labels'

const g = (id: number, name: string) => ({ id, name })

describe('gradesLabel', () => {
  it('reads a consecutive run of three or more as a range', () => {
    expect(gradesLabel([g(2, '小学1年'), g(3, '小学2年'), g(4, '小学3年')])).toBe('小学1年〜小学3年')
  })
  it('lists short or scattered sets', () => {
    expect(gradesLabel([g(2, '小学1年'), g(3, '小学2年')])).toBe('小学1年・小学2年')
    expect(gradesLabel([g(1, '未就学児'), g(5, '小学4年'), g(9, '中学2年')])).toBe(
      '未就学児・小学4年・中学2年',
    )
    expect(gradesLabel([g(1, 'a'), g(3, 'b'), g(5, 'c'), g(7, 'd'), g(9, 'e')])).toBe('a・b・c ほか2')
  })
  it('says when there is none', () => {
    expect(gradesLabel([])).toBe('指定なし')
  })
})

describe('seatsLabel and durationLabel', () => {
  it('says 満席 at zero', () => {
    expect(seatsLabel(0)).toBe('満席')
    expect(seatsLabel(3)).toBe('残り3席')
  })
  it('formats minutes', () => {
    expect(durationLabel(45)).toBe('45分')
    expect(durationLabel(60)).toBe('1時間')
    expect(durationLabel(90)).toBe('1時間30分')
  })
})

describe('gradeMismatch', () => {
  const targets = [g(2, '小学1年'), g(3, '小学2年'), g(4, '小学3年')]
  it('warns when the attendee is in none of the target grades', () => {
    expect(gradeMismatch(targets, g(8, '中学1年'))).toBe(
      'このクラスの対象学年は「小学1年〜小学3年」です（受講する人：中学1年）。',
    )
  })
  it('says nothing for a target grade, an unknown grade or a class for every grade', () => {
    expect(gradeMismatch(targets, g(3, '小学2年'))).toBeNull()
    expect(gradeMismatch(targets, null)).toBeNull()
    expect(gradeMismatch([], g(8, '中学1年'))).toBeNull()
  })
})
