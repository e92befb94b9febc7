import type { ClassWorkCard, CloseToStart } from '../contract/v1/class-works'
import { gradesLabel } from './class-labels'
import { seatsLeft } from './format'

/**
 * What a class card shows, and nothing more. Lists (home, search) hand the page this instead of the API's whole
 * card: it is serialized into every page's HTML for hydration, and the unseen fields (ids of masters, capacity,
 * counts, every lesson of a course) were half of each card's bytes (docs/decisions/0026).
 */
export interface ClassCardView {
  id: number
  title: string
  image_url: string | null
  price: number
  lesson_count: number
  category: string
  style: string
  teacher: { nickname: string; avatar_url: string | null; is_verified: boolean }
  rating: { average: number | null; count: number }
  /** 未就学児〜小学2年 */
  grades: string
  /** The next open schedule: its first lesson's period (a course's first day) and the seats left. */
  next: { started_at: string; ended_at: string; seats_left: number } | null
}

export function toClassCardView(card: ClassWorkCard): ClassCardView {
  const next = card.next_schedule
  const first = next?.lessons[0] ?? next
  return {
    id: card.id,
    title: card.title,
    image_url: card.image_url,
    price: card.price,
    lesson_count: card.lesson_count,
    category: card.category.name,
    style: card.class_style.name,
    teacher: {
      nickname: card.teacher.nickname,
      avatar_url: card.teacher.avatar_url,
      is_verified: card.teacher.is_verified,
    },
    rating: { average: card.rating.average, count: card.rating.count },
    grades: gradesLabel(card.target_grades),
    next:
      next && first
        ? { started_at: first.started_at, ended_at: first.ended_at, seats_left: seatsLeft(next) }
        : null,
  }
}

/** A row of the home page's 「もうすぐ始まる授業」: the lesson, its seats left, and what the row says of its class. */
export interface LessonRowView {
  schedule: { id: number; started_at: string; seats_left: number }
  class_work: {
    id: number
    title: string
    teacher: string
    /** 「本人確認済み」, as on the class's card. */
    teacher_verified: boolean
    category: string
    price: number
  }
}

export function toLessonRowView({ schedule, class_work: c }: CloseToStart): LessonRowView {
  return {
    schedule: { id: schedule.id, started_at: schedule.started_at, seats_left: seatsLeft(schedule) },
    class_work: {
      id: c.id,
      title: c.title,
      teacher: c.teacher.nickname,
      teacher_verified: c.teacher.is_verified,
      category: c.category.name,
      price: c.price,
    },
  }
}
