import { describe, expect, it } from 'vitest'
import type { ClassWorkCard, PublicSchedule } from '../contract/v1/class-works'
import { toClassCardView, toLessonRowView } from './card-view'

const schedule = (over: Partial<PublicSchedule> = {}): PublicSchedule => ({
  id: 7,
  started_at: '2026-12-03T10:00:00.000Z',
  ended_at: '2026-12-03T10:40:00.000Z',
  capacity: 8,
  purchased_count: 3,
  held_count: 0,
  is_canceled: false,
  lessons: [{ started_at: '2026-12-03T10:00:00.000Z', ended_at: '2026-12-03T10:40:00.000Z' }],
  ...over,
})

const card = (over: Partial<ClassWorkCard> = {}): ClassWorkCard => ({
  id: 67,
  title: 'ねんど遊び',
  image_url: null,
  price: 0,
  capacity: 8,
  duration_minutes: 40,
  lesson_count: 1,
  category: { id: 11, name: '陶芸' },
  class_style: { id: 2, name: 'グループ' },
  target_grades: [
    { id: 1, name: '未就学児' },
    { id: 2, name: '小学1年' },
    { id: 3, name: '小学2年' },
  ],
  teacher: { id: 11, nickname: 'とうこ先生', avatar_url: '/a.svg', is_verified: true },
  next_schedule: schedule(),
  favorite_count: 4,
  rating: { average: 4, count: 1 },
  created_at: '2026-10-27T09:26:59.611Z',
  ...over,
})

describe('toClassCardView', () => {
  it('keeps what the card shows: names, the grades as one label, the next lesson and its seats left', () => {
    expect(toClassCardView(card())).toEqual({
      id: 67,
      title: 'ねんど遊び',
      image_url: null,
      price: 0,
      lesson_count: 1,
      category: '陶芸',
      style: 'グループ',
      teacher: { nickname: 'とうこ先生', avatar_url: '/a.svg', is_verified: true },
      rating: { average: 4, count: 1 },
      grades: '未就学児〜小学2年',
      next: { started_at: '2026-12-03T10:00:00.000Z', ended_at: '2026-12-03T10:40:00.000Z', seats_left: 5 },
    })
  })

  it("shows a course's first lesson, not the span of the run, and counts held seats as taken", () => {
    const run = schedule({
      started_at: '2026-12-03T10:00:00.000Z',
      ended_at: '2026-12-17T11:00:00.000Z',
      capacity: 4,
      purchased_count: 2,
      held_count: 1,
      lessons: [
        { started_at: '2026-12-03T10:00:00.000Z', ended_at: '2026-12-03T11:00:00.000Z' },
        { started_at: '2026-12-10T10:00:00.000Z', ended_at: '2026-12-10T11:00:00.000Z' },
        { started_at: '2026-12-17T10:00:00.000Z', ended_at: '2026-12-17T11:00:00.000Z' },
      ],
    })
    expect(toClassCardView(card({ lesson_count: 3, next_schedule: run })).next).toEqual({
      started_at: '2026-12-03T10:00:00.000Z',
      ended_at: '2026-12-03T11:00:00.000Z',
      seats_left: 1,
    })
  })

  it('has no next lesson while none is scheduled, and never fewer than 0 seats', () => {
    expect(toClassCardView(card({ next_schedule: null })).next).toBeNull()
    const over = schedule({ capacity: 2, purchased_count: 2, held_count: 1 })
    expect(toClassCardView(card({ next_schedule: over })).next?.seats_left).toBe(0)
  })

  it('serializes to about half of the whole card', () => {
    const whole = JSON.stringify(card()).length
    expect(JSON.stringify(toClassCardView(card())).length).toBeLessThan(whole * 0.65)
  })
})

describe('toLessonRowView', () => {
  it('keeps the lesson, its seats left and what the row says of the class', () => {
    expect(toLessonRowView({ schedule: schedule({ held_count: 2 }), class_work: card() })).toEqual({
      schedule: { id: 7, started_at: '2026-12-03T10:00:00.000Z', seats_left: 3 },
      class_work: {
        id: 67,
        title: 'ねんど遊び',
        teacher: 'とうこ先生',
        teacher_verified: true,
        category: '陶芸',
        price: 0,
      },
    })
  })

  it('says when the teacher is not verified', () => {
    const teacher = { id: 11, nickname: 'とうこ先生', avatar_url: null, is_verified: false }
    expect(
      toLessonRowView({ schedule: schedule(), class_work: card({ teacher }) }).class_work.teacher_verified,
    ).toBe(false)
  })
})
