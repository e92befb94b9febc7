import { z } from 'zod'
import { ClassWorkCard } from './class-works'
import { DateTime, Id, IdString } from './common'

/** /v1/users/followings/{teacher_id}: whether the caller follows the teacher, and how many do. */
export const FollowState = z.object({
  teacher_id: Id,
  is_following: z.boolean(),
  follower_count: z.number().int().nonnegative(),
})
export type FollowState = z.infer<typeof FollowState>

/** /v1/users/favorites/{class_work_id}: whether the class is one of the caller's favorites, and how many have it. */
export const FavoriteState = z.object({
  class_work_id: Id,
  is_favorite: z.boolean(),
  favorite_count: z.number().int().nonnegative(),
})
export type FavoriteState = z.infer<typeof FavoriteState>

/** GET /v1/users/favorites: the caller's favorite classes that are published, most recently added first. */
export const Favorite = z.object({ class_work: ClassWorkCard, favorited_at: DateTime })
export type Favorite = z.infer<typeof Favorite>
export const FavoriteList = z.array(Favorite)

export const TeacherIdParams = z.object({ teacher_id: IdString })
export const ClassWorkIdParams = z.object({ class_work_id: IdString })
