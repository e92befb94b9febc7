import { and, eq } from 'drizzle-orm'
import type { DbOrTx } from '../db/client'
import { notificationPreferences } from '../db/schema'
import { NOTIFICATION_KINDS, type NotificationKind, notificationKind } from '../lib/notification-kinds'

/** A member's notification choices (issue 14). No row means the kind's default; mandatory kinds are always on. */

export async function isNotificationEnabled(db: DbOrTx, userId: number, kind: string): Promise<boolean> {
  const known = notificationKind(kind)
  if (!known) return true // verification: not a member's choice
  if (known.mandatory) return true
  const [row] = await db
    .select({ enabled: notificationPreferences.enabled })
    .from(notificationPreferences)
    .where(and(eq(notificationPreferences.userId, userId), eq(notificationPreferences.kind, kind)))
    .limit(1)
  return row ? row.enabled : known.defaultOn
}

export async function listNotificationPreferences(db: DbOrTx, userId: number) {
  const rows = await db
    .select({ kind: notificationPreferences.kind, enabled: notificationPreferences.enabled })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId))
  const chosen = new Map(rows.map((r) => [r.kind, r.enabled]))
  return NOTIFICATION_KINDS.map((k) => ({
    kind: k.kind,
    enabled: k.mandatory ? true : (chosen.get(k.kind) ?? k.defaultOn),
    mandatory: k.mandatory,
  }))
}

/** Returns false for a mandatory kind (it cannot be switched off). */
export async function setNotificationPreference(
  db: DbOrTx,
  userId: number,
  kind: NotificationKind,
  enabled: boolean,
): Promise<boolean> {
  if (notificationKind(kind)?.mandatory) return enabled
  await db
    .insert(notificationPreferences)
    .values({ userId, kind, enabled })
    .onConflictDoUpdate({
      target: [notificationPreferences.userId, notificationPreferences.kind],
      set: { enabled, updatedAt: new Date() },
    })
  return true
}
