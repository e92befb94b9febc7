import { createServerFn } from '@tanstack/react-start'
import { idInput } from '~/lib/ids'
import { memberActionResult } from '~/server/action-result.server'
import { api } from '~/server/api-client'
import { requireAccessToken } from '~/server/session-token.server'

/** Followed teachers and favorite classes of the signed-in member. */
export const getFollowPage = createServerFn({ method: 'GET' }).handler(async () => {
  const token = await requireAccessToken()
  const [followings, favorites] = await Promise.all([api.listFollowings(token), api.listFavorites(token)])
  return { followings, favorites }
})

export const unfollowTeacher = createServerFn({ method: 'POST' })
  .validator(idInput)
  .handler(async ({ data }) => {
    return memberActionResult((token) => api.unfollowTeacher(token, data))
  })

export const removeFavoriteClass = createServerFn({ method: 'POST' })
  .validator(idInput)
  .handler(async ({ data }) => {
    return memberActionResult((token) => api.removeFavorite(token, data))
  })
