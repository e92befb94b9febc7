import '@tanstack/react-start/server-only'
import { type Db, getDb } from '~/db/client'
import { consume, RateLimitedError } from '~/db/rate-limit'
import { RATE_LIMITED_MESSAGE } from '~/lib/limits'

/**
 * Counts a member's image upload (or `images` of them at once) before its bytes are decoded: every upload is read, re-encoded and stored, so
 * one account looping over the upload must be stopped (LIMITS.imageUploadsPerMember, counted on every instance).
 * Returns the refusal in Japanese when over the limit, undefined otherwise.
 */
export async function refuseImageUploadOverLimit(
  memberId: number,
  db?: Db,
  images = 1,
): Promise<{ message: string; retryAfterS: number } | undefined> {
  try {
    await consume(db ?? (await getDb()), 'imageUploadsPerMember', String(memberId), undefined, images)
    return undefined
  } catch (error) {
    if (error instanceof RateLimitedError)
      return { message: RATE_LIMITED_MESSAGE, retryAfterS: error.retryAfterS }
    throw error
  }
}
