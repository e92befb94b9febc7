import '@tanstack/react-start/server-only'
import { type EventBus, getEventBus } from '../db/events'

/**
 * Live updates for signed-in members (ARCHITECTURE.md "Background work, mail, events"): after a write commits,
 * the code that made it tells the members concerned that something changed; every instance's `GET /events`
 * streams (app/server/live-stream.server.ts) pass it on to that member's open pages, which refetch.
 *
 * An event says only *what kind* of thing changed (and, optionally, a few small ids): no content, so a page
 * always reads the new state through its usual, authorized query. Delivery is at most once and nothing is kept:
 * a page that was away gets a `sync` when it comes back and refetches everything.
 */

export type LiveEventType = 'message' | 'notice' | 'announcement' | 'reservation'

export const LIVE_EVENT_TYPES: readonly LiveEventType[] = ['message', 'notice', 'announcement', 'reservation']

/** The event bus channel every instance's stream hub listens on. */
export const MEMBER_EVENTS_CHANNEL = 'member_events'

/** What travels on the bus: users.id values, the type, and the optional data. */
export interface MemberEventPayload {
  u: number[]
  t: LiveEventType
  d?: Record<string, unknown>
}

/** Below the bus's 7,000-byte limit, with room to spare. */
export const MAX_MEMBER_EVENT_BYTES = 6_000

const isType = (value: unknown): value is LiveEventType =>
  typeof value === 'string' && (LIVE_EVENT_TYPES as readonly string[]).includes(value)

const isUserId = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0

/**
 * The bus payloads of one event: the user ids split over as many payloads as needed so that each stays under
 * MAX_MEMBER_EVENT_BYTES. Ids are deduplicated; invalid ones are dropped. Throws when `data` alone is too large.
 */
export function encodeMemberEvents(
  userIds: readonly number[],
  type: LiveEventType,
  data?: Record<string, unknown>,
): string[] {
  if (!isType(type)) throw new TypeError(`Unknown live event type: ${String(type)}`)
  const ids = [...new Set(userIds.filter(isUserId))]
  if (ids.length === 0) return []
  const head = data === undefined ? `{"t":"${type}"` : `{"t":"${type}","d":${JSON.stringify(data)}`
  // `,"u":[` + `]}`: ids are ASCII digits, so characters are bytes from here on.
  const fixed = Buffer.byteLength(head) + 8
  if (fixed + 20 > MAX_MEMBER_EVENT_BYTES) throw new RangeError('Live event data too large')
  const payloads: string[] = []
  let batch: number[] = []
  let size = fixed
  for (const id of ids) {
    const add = String(id).length + (batch.length > 0 ? 1 : 0)
    if (batch.length > 0 && size + add > MAX_MEMBER_EVENT_BYTES) {
      payloads.push(`${head},"u":[${batch.join(',')}]}`)
      batch = []
      size = fixed
    }
    size += String(id).length + (batch.length > 0 ? 1 : 0)
    batch.push(id)
  }
  payloads.push(`${head},"u":[${batch.join(',')}]}`)
  return payloads
}

/** Reads a bus payload; undefined for anything malformed (another version, a stray NOTIFY). */
export function decodeMemberEvent(payload: string): MemberEventPayload | undefined {
  let value: unknown
  try {
    value = JSON.parse(payload)
  } catch {
    return undefined
  }
  if (!value || typeof value !== 'object') return undefined
  const { u, t, d } = value as Record<string, unknown>
  if (!isType(t) || !Array.isArray(u)) return undefined
  const ids = u.filter(isUserId)
  if (ids.length === 0) return undefined
  const data = d && typeof d === 'object' && !Array.isArray(d) ? (d as Record<string, unknown>) : undefined
  return data ? { u: ids, t, d: data } : { u: ids, t }
}

async function publishPayloads(bus: EventBus | Promise<EventBus>, payloads: string[]) {
  if (payloads.length === 0) return
  const target = await bus
  for (const payload of payloads) await target.publish(MEMBER_EVENTS_CHANNEL, payload)
}

/** publishMemberEvent on a given bus (tests, scripts). */
export async function publishMemberEventOn(
  bus: EventBus,
  userIds: number[],
  type: LiveEventType,
  data?: Record<string, unknown>,
): Promise<void> {
  await publishPayloads(bus, encodeMemberEvents(userIds, type, data))
}

/**
 * Tells the members `userIds` (users.id) that something of `type` changed for them; their open pages refetch.
 * Call it after the write has committed (a job handler, or after the transaction resolved): on PostgreSQL it is a
 * NOTIFY on the bus's own connection, not part of any transaction. `data` is passed to the pages as it is: keep
 * it to a few small, non-secret values (e.g. `{ roomId }`). Large user lists are split over several payloads.
 */
export async function publishMemberEvent(
  userIds: number[],
  type: LiveEventType,
  data?: Record<string, unknown>,
): Promise<void> {
  const payloads = encodeMemberEvents(userIds, type, data)
  if (payloads.length > 0) await publishPayloads(getEventBus(), payloads)
}
