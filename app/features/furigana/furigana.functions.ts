import { createServerFn } from '@tanstack/react-start'
import { appendResponseHeader } from '@tanstack/react-start/server'
import { z } from 'zod'
import { Id } from '~/contract/v1/common'
import type { FuriganaMap } from '~/contract/v1/furigana'
import { ApiError, api } from '~/server/api-client'
import { furiganaCookie } from '~/server/furigana-cookie.server'
import { logger } from '~/server/logger.server'
import { currentAccessToken } from '~/server/session-token.server'
import { MAX_FURIGANA_IDS } from './ids'

const Ids = z.array(Id).max(MAX_FURIGANA_IDS).optional()
const FuriganaIdsInput = z.object({ class_ids: Ids, user_ids: Ids, announcement_ids: Ids }).strict()
export type FuriganaIdsInput = z.infer<typeof FuriganaIdsInput>

/**
 * The furigana of a page's content (classes, teachers' introductions, announcements). Furigana only helps: when it
 * cannot be read the page shows its texts without it rather than failing.
 */
export const getFurigana = createServerFn({ method: 'GET' })
  .validator(FuriganaIdsInput)
  .handler(async ({ data }): Promise<FuriganaMap['texts']> => {
    try {
      const token = await currentAccessToken()
      return (await api.getFurigana(token ?? undefined, data)).texts
    } catch (err) {
      if (!(err instanceof ApiError)) logger.warn({ err }, 'furigana unavailable')
      return {}
    }
  })

/** The readings of the site's fixed texts (generated from the source, app/lib/furigana-fixed.json). */
export const getFixedFurigana = createServerFn({ method: 'GET' }).handler(
  async (): Promise<FuriganaMap['texts']> =>
    (await import('~/lib/furigana-fixed.json')).default as unknown as FuriganaMap['texts'],
)

/**
 * Turns furigana mode on or off: for this device (a cookie) and, for a signed-in member, on their profile, so it
 * follows them to the devices they sign in on.
 */
export const setFurigana = createServerFn({ method: 'POST' })
  .validator(z.object({ on: z.boolean() }).strict())
  .handler(async ({ data }): Promise<{ on: boolean }> => {
    appendResponseHeader('set-cookie', furiganaCookie(data.on))
    const token = await currentAccessToken()
    if (token) {
      try {
        await api.setFurigana(token, data.on)
      } catch (err) {
        // Signed in without a profile yet (404): the device keeps the setting.
        if (!(err instanceof ApiError && err.status === 404)) throw err
      }
    }
    return { on: data.on }
  })
