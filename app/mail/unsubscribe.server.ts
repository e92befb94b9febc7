import { createHmac, timingSafeEqual } from 'node:crypto'
import { NOTIFICATION_KIND_NAMES, type NotificationKind, notificationKind } from '../lib/notification-kinds'
import { deriveSecret, resolveSessionSecret, type SecretSource } from '../server/auth/secret.server'

/**
 * One-click unsubscribe tokens: `<user id>.<kind>.<HMAC>`, signed with a key derived from SESSION_SECRET, so a link
 * in a mail works without signing in and cannot be forged for another member or kind. A token does not expire:
 * a mail read a year later must still stop what it is about. Mandatory kinds have no token.
 */

const sign = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('base64url')

export function unsubscribeToken(secret: string, userId: number, kind: NotificationKind): string {
  const body = `${userId}.${kind}`
  return `${body}.${sign(secret, body)}`
}

export function readUnsubscribeToken(
  secret: string,
  token: string,
): { userId: number; kind: NotificationKind } | undefined {
  const match = /^([1-9][0-9]{0,9})\.([a-z_]{1,40})\.([A-Za-z0-9_-]{43})$/.exec(token)
  if (!match) return undefined
  const [, id, kind, mac] = match as unknown as [string, string, string, string]
  const expected = Buffer.from(sign(secret, `${id}.${kind}`))
  const given = Buffer.from(mac)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined
  const known = notificationKind(kind)
  if (!known || known.mandatory || !NOTIFICATION_KIND_NAMES.includes(known.kind)) return undefined
  return { userId: Number(id), kind: known.kind }
}

/** The key of the links: derived from the session secret, so every instance signs and reads the same links. */
export function unsubscribeSecretOf(source: SecretSource): string {
  return deriveSecret(resolveSessionSecret(source), 'unsubscribe v1')
}
