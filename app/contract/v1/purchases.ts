import { z } from 'zod'
import { DateTime, Id, Lesson, PersonRef } from './common'

/**
 * pending: a paid seat held while the member pays (issue 17); reserved: paid (or free); canceled_*: refunded.
 * A hold that ended unpaid (expired) is not shown to the member.
 */
export const purchaseStatuses = ['pending', 'reserved', 'canceled_by_user', 'canceled_by_teacher'] as const
export const PurchaseStatus = z.enum(purchaseStatuses)
export type PurchaseStatus = z.infer<typeof PurchaseStatus>

/** POST /v1/purchases: reserve a seat for the member themself (learner_id null or absent) or one of their learners. */
export const CreatePurchaseBody = z
  .object({
    schedule_id: Id,
    learner_id: Id.nullable().optional(),
  })
  .strict()
export type CreatePurchaseBody = z.input<typeof CreatePurchaseBody>

export const purchaseScopes = ['upcoming', 'past'] as const
export const PurchaseListQuery = z.object({ scope: z.enum(purchaseScopes).default('upcoming') })
export type PurchaseScope = (typeof purchaseScopes)[number]

/** Who takes the lesson: the member themself or one of their learner profiles. */
export const Attendee = z.object({
  kind: z.enum(['member', 'learner']),
  learner_id: Id.nullable(),
  nickname: z.string(),
})
export type Attendee = z.infer<typeof Attendee>

/** A reservation as its owner sees it. */
export const Purchase = z.object({
  id: Id,
  status: PurchaseStatus,
  price: z.number().int().nonnegative(),
  created_at: DateTime,
  canceled_at: DateTime.nullable(),
  class_work: z.object({ id: Id, title: z.string(), image_url: z.string().nullable() }),
  teacher: PersonRef,
  /** started_at/ended_at span the lessons: a course run (全N回) is one reservation of N lessons. */
  schedule: z.object({
    id: Id,
    started_at: DateTime,
    ended_at: DateTime,
    is_canceled: z.boolean(),
    lessons: z.array(Lesson).min(1),
    /** How often the teacher changed its time, and when last (an .ics file's SEQUENCE and DTSTAMP). */
    revision: z.number().int().nonnegative(),
    moved_at: DateTime.nullable(),
  }),
  attendee: Attendee,
  /** Only while the reservation is live and now is within [start − 15 min, end] of one of its lessons; else null. */
  meeting_url: z.string().nullable(),
  /** The member may still cancel (reserved, and more than 24 hours before the start). */
  can_cancel: z.boolean(),
  cancel_deadline: DateTime,
  /** Its payment (paid classes, issue 17): null for a free class. */
  payment: z
    .object({
      id: Id,
      status: z.enum(['requires_payment', 'succeeded', 'canceled']),
      amount: z.number().int().positive(),
      refund_status: z.enum(['pending', 'succeeded']).nullable(),
    })
    .nullable(),
  /** While pending: until when the seat is held for the payment. */
  hold_expires_at: DateTime.nullable(),
  /** The member's review of this lesson (issue 16), and whether they may write one now. */
  review: z.object({ id: Id, rating: z.number().int().min(1).max(5) }).nullable(),
  can_review: z.boolean(),
})
export type Purchase = z.infer<typeof Purchase>
export const PurchaseList = z.array(Purchase)
