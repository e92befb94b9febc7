import { randomInt } from 'node:crypto'
import { and, count, eq } from 'drizzle-orm'
import type {
  JoinOrganizationBody,
  OrganizationInput,
  OrganizationPatch,
} from '../../contract/v1/org-management'
import type { InvitationCode, OrgUser } from '../../contract/v1/organizations'
import type { Db, Tx } from '../../db/client'
import { classWorks, organizations, orgUsers, users } from '../../db/schema'
import { transaction } from '../../db/transaction'
import { enqueue } from '../../jobs/queue.server'
import { nextEditVersion } from '../../lib/edit-version'
import { MAX_ORG_MEMBERS } from '../../lib/page-sizes'
import type { UserRow } from '../auth'
import { ApiError, notFound, refuseContactInfoIn } from '../errors'
import { refuseIfSuspended } from './account-state'
import { lockClassesOfTeacher, requireTeacher } from './class-management'
import { orgUserList } from './organizations'
import { requireVerifiedTeacher } from './verifications'

/**
 * Organisation management (issue #7). The owner's organisation is "me"; a member or an outsider asking for an
 * owner's operation gets 404. A member's classes carry the organisation while they belong to it.
 */

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'

/** A new invitation code like `K7QX-M2PA-9RTD` (no 0/O, 1/I): ~60 bits. */
export function newInvitationCode(): string {
  const group = () => Array.from({ length: 4 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('')
  return `${group()}-${group()}-${group()}`
}

const alreadyInOrganization = () => new ApiError(409, 'already_in_organization', 'すでに団体に所属しています')

async function membership(tx: Db | Tx, userId: number) {
  const [m] = await tx
    .select({ organizationId: orgUsers.organizationId, role: orgUsers.role })
    .from(orgUsers)
    .where(eq(orgUsers.userId, userId))
    .limit(1)
  return m
}

/**
 * The organisation the caller owns, locked FOR NO KEY UPDATE (its row is never deleted): organisation changes queue
 * behind one another, while a booking's purchase, whose foreign key takes FOR KEY SHARE on the organisation, does
 * not wait for them. With FOR UPDATE a booking holding its class deadlocked with a removal holding the
 * organisation and waiting for that class (0015).
 */
async function lockOwnedOrganization(
  tx: Tx,
  userId: number,
  strength: 'no key update' | 'update' = 'no key update',
) {
  const [org] = await tx.select().from(organizations).where(eq(organizations.ownerId, userId)).for(strength)
  if (!org) throw notFound('団体')
  return org
}

/**
 * An organisation's name is shown with its classes on public pages (the class page, cards, teacher pages): no contact
 * details in it (422 `contact_info`), as for a class's own text. Its website has a field of its own, seen only by
 * its members.
 */
function refuseContactInName(name: string | undefined) {
  refuseContactInfoIn({ name: { label: '団体名', text: name } })
}

/** POST /v1/organizations: the caller (not yet in an organisation) creates one and becomes its owner. */
export async function createOrganization(db: Db, user: UserRow, input: OrganizationInput, now: Date) {
  // Only a verified teacher founds an organisation (issue 15): a parent who never taught cannot.
  requireVerifiedTeacher(user, 'organization')
  refuseContactInName(input.name)
  await transaction(db, async (tx) => {
    // The founder's row first: a double-sent form, or a join at the same moment, waits here and then sees the
    // membership (409 already_in_organization, not a unique-key conflict); a suspension since sign-in refuses.
    await lockOwnRow(tx, user.id)
    if (await membership(tx, user.id)) throw alreadyInOrganization()
    const [org] = await tx
      .insert(organizations)
      .values({
        kind: input.kind,
        name: input.name,
        representative: input.representative,
        url: input.url ?? null,
        description: input.description ?? '',
        ownerId: user.id,
        invitationCode: newInvitationCode(),
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: organizations.id })
    await tx
      .insert(orgUsers)
      .values({ organizationId: org!.id, userId: user.id, role: 'owner', joinedAt: now })
    // As a join does: a class created meanwhile is seen by the update below, or takes the new membership.
    await lockClassesOfTeacher(tx, user.id)
    await tx.update(classWorks).set({ organizationId: org!.id }).where(eq(classWorks.teacherId, user.id))
  })
}

/** PATCH /v1/organizations/me (owner only). */
export async function updateOrganization(db: Db, user: UserRow, patch: OrganizationPatch, now: Date) {
  await db.transaction(async (tx) => {
    const org = await lockOwnedOrganization(tx, user.id)
    // A form opened before another tab's save sends every field as it read them: saved, it would put back what the
    // other tab changed (as for a class, 0044).
    if (
      patch.expected_updated_at !== undefined &&
      Date.parse(patch.expected_updated_at) !== org.updatedAt.getTime()
    )
      throw new ApiError(
        409,
        'organization_changed',
        'この団体の情報は、この画面を開いたあとにほかの画面で変更されました。ページを読み込み直してから保存してください',
      )
    // Only a changed name: one saved before this rule must not block an edit of another field.
    refuseContactInName(patch.name !== org.name ? patch.name : undefined)
    await tx
      .update(organizations)
      .set({
        kind: patch.kind ?? org.kind,
        name: patch.name ?? org.name,
        representative: patch.representative ?? org.representative,
        url: patch.url === undefined ? org.url : patch.url,
        description: patch.description ?? org.description,
        updatedAt: nextEditVersion(now, org.updatedAt),
      })
      .where(eq(organizations.id, org.id))
  })
}

/** POST /v1/org_users/invitation_code/regenerate: the old code stops working at once. */
export async function regenerateInvitationCode(db: Db, user: UserRow): Promise<InvitationCode> {
  return db.transaction(async (tx) => {
    // FOR UPDATE on purpose: the invitation code is a unique key, so its UPDATE takes that strength anyway (0015:
    // a lock is never upgraded). Bookings of the organisation's classes wait for this short transaction.
    const org = await lockOwnedOrganization(tx, user.id, 'update')
    const code = newInvitationCode()
    await tx.update(organizations).set({ invitationCode: code }).where(eq(organizations.id, org.id))
    return { invitation_code: code }
  })
}

/** POST /v1/org_users/join: a teacher outside any organisation joins with the current invitation code. */
export async function joinOrganization(db: Db, user: UserRow, body: JoinOrganizationBody, now: Date) {
  requireTeacher(user)
  await transaction(db, async (tx) => {
    if (await membership(tx, user.id)) throw alreadyInOrganization()
    const [org] = await tx
      .select({ id: organizations.id, ownerSuspendedAt: users.suspendedAt })
      .from(organizations)
      .innerJoin(users, eq(users.id, organizations.ownerId))
      .where(eq(organizations.invitationCode, body.invitation_code))
      .for('no key update', { of: organizations })
    // An organisation whose owner was suspended takes nobody in: its code may have been shared already.
    if (!org || org.ownerSuspendedAt) throw invalidInvitationCode()
    // Counted under the organisation's lock, which every join takes: two joins at once cannot both take the last place.
    const members = await memberCountOf(tx, org.id)
    if (members >= MAX_ORG_MEMBERS)
      throw new ApiError(
        409,
        'organization_full',
        `この団体のメンバーは${MAX_ORG_MEMBERS}人に達しているため、参加できません。団体のオーナーにお問い合わせください`,
      )
    // Organisation → user → classes (0015); the membership read again under the user's lock (a create or another
    // join of the same teacher at the same moment).
    await lockOwnRow(tx, user.id)
    if (await membership(tx, user.id)) throw alreadyInOrganization()
    await tx
      .insert(orgUsers)
      .values({ organizationId: org.id, userId: user.id, role: 'member', joinedAt: now })
    await queueMemberMail(tx, org.id, user.id, 'joined', members + 1)
    await lockClassesOfTeacher(tx, user.id)
    await tx.update(classWorks).set({ organizationId: org.id }).where(eq(classWorks.teacherId, user.id))
  })
}

/** The organisation's teachers, the owner included, as this transaction sees them. */
async function memberCountOf(tx: Tx, organizationId: number): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(orgUsers)
    .where(eq(orgUsers.organizationId, organizationId))
  return Number(row?.n ?? 0)
}

/**
 * The mail of a membership change (notify.org_member), queued in the change's transaction (outbox) with the member
 * count right after it: to the owner for a join or a leave, to the teacher for a removal or a hand-over.
 */
function queueMemberMail(
  tx: Tx,
  organizationId: number,
  userId: number,
  change: 'joined' | 'left' | 'removed' | 'owner',
  memberCount: number,
) {
  return enqueue(tx, 'notify.org_member', { organizationId, userId, change, memberCount })
}

const invalidInvitationCode = () =>
  new ApiError(404, 'invalid_invitation_code', '招待コードが正しくありません')

/**
 * The member's user row, before their classes change organisation: creating a class reads the membership under a
 * share lock on that row, so a class created meanwhile is either seen by the class update that follows or
 * created after this commits, with the new membership (organisation → user → classes, as 0015 orders them).
 */
async function lockTeacherRow(tx: Tx, userId: number) {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update')
}

/** lockTeacherRow for the caller's own join or founding: a suspension committed since sign-in refuses it (403). */
async function lockOwnRow(tx: Tx, userId: number) {
  await lockTeacherRow(tx, userId)
  await refuseIfSuspended(tx, userId)
}

/** The member the owner may remove: 404 for anyone outside the organisation, 422 for the owner. */
async function requireRemovable(tx: Db | Tx, organizationId: number, memberId: number) {
  const [target] = await tx
    .select({ role: orgUsers.role })
    .from(orgUsers)
    .where(and(eq(orgUsers.organizationId, organizationId), eq(orgUsers.userId, memberId)))
  if (!target) throw notFound('メンバー')
  if (target.role === 'owner')
    throw new ApiError(422, 'cannot_remove_owner', '団体のオーナーは削除できません')
}

/**
 * DELETE /v1/org_users/{user_id}: the owner removes a member (never the owner); their classes leave too, and the
 * teacher is mailed (notify.org_member, change 'removed'). The invitation code is made new in the same transaction:
 * the removed teacher knows the old one and would otherwise join again at once, and a removal refused or cut off
 * changes neither. The code is a unique key, so its update takes FOR UPDATE on the organisation; taken last, as the
 * hand-over's owner_id is: a member creating a class holds their user row and then a key-share lock on the
 * organisation, and FOR UPDATE before the member's row and classes would deadlock with them (0015).
 */
export async function removeMember(db: Db, user: UserRow, memberId: number): Promise<OrgUser[]> {
  const [owned] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.ownerId, user.id))
  if (!owned) throw notFound('団体')
  await requireRemovable(db, owned.id, memberId)
  await transaction(db, async (tx) => {
    const org = await lockOwnedOrganization(tx, user.id)
    await requireRemovable(tx, org.id, memberId)
    await tx.delete(orgUsers).where(and(eq(orgUsers.organizationId, org.id), eq(orgUsers.userId, memberId)))
    // The removed teacher is told (their classes' cards change); the owner, who did it, is not.
    await queueMemberMail(tx, org.id, memberId, 'removed', await memberCountOf(tx, org.id))
    await lockTeacherRow(tx, memberId)
    await lockClassesOfTeacher(tx, memberId)
    await tx
      .update(classWorks)
      .set({ organizationId: null })
      .where(and(eq(classWorks.teacherId, memberId), eq(classWorks.organizationId, org.id)))
    await tx
      .update(organizations)
      .set({ invitationCode: newInvitationCode() })
      .where(eq(organizations.id, org.id))
  })
  return orgUserList(db, user.id)
}

/**
 * POST /v1/org_users/leave: a member leaves their organisation; their classes leave with them, as on a removal.
 * The owner cannot (422 `owner_cannot_leave`): the organisation would have nobody to manage it. The code stays: the
 * member leaving chose to, and the owner may regenerate it. Organisation → user → classes (0015), the membership
 * read again under those locks: an owner removing them at the same moment makes this a 404, not a second delete.
 */
export async function leaveOrganization(db: Db, user: UserRow): Promise<void> {
  await transaction(db, async (tx) => {
    const first = await membership(tx, user.id)
    if (!first) throw notFound('団体')
    await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, first.organizationId))
      .for('no key update')
    await lockTeacherRow(tx, user.id)
    const m = await membership(tx, user.id)
    if (!m) throw notFound('団体')
    if (m.role === 'owner')
      throw new ApiError(
        422,
        'owner_cannot_leave',
        '団体のオーナーは団体を抜けられません。先にほかのメンバーにオーナーを譲ってください',
      )
    await tx
      .delete(orgUsers)
      .where(and(eq(orgUsers.organizationId, m.organizationId), eq(orgUsers.userId, user.id)))
    // The count as it stands after this leave (the organisation's lock keeps joins out meanwhile).
    await queueMemberMail(tx, m.organizationId, user.id, 'left', await memberCountOf(tx, m.organizationId))
    await lockClassesOfTeacher(tx, user.id)
    await tx
      .update(classWorks)
      .set({ organizationId: null })
      .where(and(eq(classWorks.teacherId, user.id), eq(classWorks.organizationId, m.organizationId)))
  })
}

/**
 * POST /v1/org_users/{user_id}/transfer_ownership: the owner hands the organisation to one of its members, who must
 * be a verified teacher (only they may found one) and not suspended; the owner stays on as a member and may then
 * leave. Classes, sales and the invitation code stay with the organisation. The new owner is mailed.
 * Organisation → users (0015, the two users by id), the membership read under them: a join, leave or removal waits.
 * Not FOR UPDATE at first, though `owner_id` is a unique key and its update takes that lock in the end: a member
 * creating a class holds their user row and then a key-share lock on the organisation (the class's foreign key), so
 * FOR UPDATE before the user rows would deadlock with them; by the update, such a creator has its user lock behind it.
 */
export async function transferOwnership(db: Db, user: UserRow, memberId: number): Promise<void> {
  await transaction(db, async (tx) => {
    const org = await lockOwnedOrganization(tx, user.id)
    // The caller's own row with the suspension check (a suspension committed since sign-in refuses it: 403), the
    // heir's so that a suspension or a leave of theirs at the same moment is seen below.
    for (const id of [...new Set([user.id, memberId])].sort((a, b) => a - b))
      await (id === user.id ? lockOwnRow(tx, id) : lockTeacherRow(tx, id))
    const [target] = await tx
      .select({
        role: orgUsers.role,
        verifiedAt: users.teacherVerifiedAt,
        suspendedAt: users.suspendedAt,
      })
      .from(orgUsers)
      .innerJoin(users, eq(users.id, orgUsers.userId))
      .where(and(eq(orgUsers.organizationId, org.id), eq(orgUsers.userId, memberId)))
    if (!target) throw notFound('メンバー')
    if (target.role === 'owner') throw new ApiError(422, 'already_owner', 'すでにこの団体のオーナーです')
    if (target.suspendedAt)
      throw new ApiError(422, 'member_suspended', '利用を停止されている先生にはオーナーを譲れません')
    if (!target.verifiedAt)
      throw new ApiError(
        422,
        'member_not_verified',
        '本人確認が済んでいない先生にはオーナーを譲れません。先に本人確認を申請してもらってください',
      )
    await tx
      .update(orgUsers)
      .set({ role: 'member' })
      .where(and(eq(orgUsers.organizationId, org.id), eq(orgUsers.userId, user.id)))
    await tx
      .update(orgUsers)
      .set({ role: 'owner' })
      .where(and(eq(orgUsers.organizationId, org.id), eq(orgUsers.userId, memberId)))
    await tx.update(organizations).set({ ownerId: memberId }).where(eq(organizations.id, org.id))
    await queueMemberMail(tx, org.id, memberId, 'owner', await memberCountOf(tx, org.id))
  })
}
