import { and, asc, count, eq, sql } from 'drizzle-orm'
import type { InvitationCode, OrganizationDeepMe, OrgUser } from '../../contract/v1/organizations'
import type { Db } from '../../db/client'
import { classWorks, organizations, orgUsers, users } from '../../db/schema'
import { notFound } from '../errors'
import { iso } from './class-cards'

/**
 * Whether an organisation's name may show on public pages (a member's class and teacher page, a follow list): not
 * while its owner is suspended. The name is the owner's text, and a suspension takes all of it down (0020).
 */
export const organizationShownPublicly = sql`not exists (select 1 from ${users} as org_owner where org_owner.id = ${organizations.ownerId} and org_owner.suspended_at is not null)`

/** The organisation the user belongs to (as owner or member), if any. */
async function membershipOf(db: Db, userId: number) {
  const [row] = await db
    .select({ org: organizations, role: orgUsers.role })
    .from(orgUsers)
    .innerJoin(organizations, eq(organizations.id, orgUsers.organizationId))
    .where(eq(orgUsers.userId, userId))
    .limit(1)
  return row
}

/** The organisation's members as `viewer` sees them (a real name only where OrgUser says). */
async function members(
  db: Db,
  organizationId: number,
  viewer: { userId: number; isOwner: boolean },
): Promise<OrgUser[]> {
  const classCount = sql<number>`(select count(*)::int from ${classWorks} where ${classWorks.teacherId} = ${users.id} and ${classWorks.organizationId} = ${organizationId})`
  const rows = await db
    .select({
      userId: users.id,
      nickname: users.nickname,
      name: users.name,
      verifiedAt: users.teacherVerifiedAt,
      suspendedAt: users.suspendedAt,
      avatarUrl: users.avatarUrl,
      role: orgUsers.role,
      joinedAt: orgUsers.joinedAt,
      classCount,
    })
    .from(orgUsers)
    .innerJoin(users, eq(users.id, orgUsers.userId))
    .where(eq(orgUsers.organizationId, organizationId))
    // The owner first, then members in the order they joined.
    .orderBy(
      sql`case when ${orgUsers.role} = 'owner' then 0 else 1 end`,
      asc(orgUsers.joinedAt),
      asc(users.id),
    )
  return rows.map((r) => ({
    user_id: r.userId,
    nickname: r.nickname,
    // A verified teacher's name is on their public page, unless suspended (the page is gone).
    name:
      viewer.isOwner || r.userId === viewer.userId || (r.verifiedAt !== null && r.suspendedAt === null)
        ? r.name
        : null,
    avatar_url: r.avatarUrl,
    role: r.role as OrgUser['role'],
    joined_at: iso(r.joinedAt),
    class_work_count: Number(r.classCount),
  }))
}

export async function organizationDeepMe(db: Db, userId: number): Promise<OrganizationDeepMe> {
  const m = await membershipOf(db, userId)
  if (!m) throw notFound('所属している団体')
  const [memberList, counts] = await Promise.all([
    members(db, m.org.id, { userId, isOwner: m.role === 'owner' }),
    db
      .select({ isPublished: classWorks.isPublished, n: count() })
      .from(classWorks)
      .where(eq(classWorks.organizationId, m.org.id))
      .groupBy(classWorks.isPublished),
  ])
  const published = Number(counts.find((c) => c.isPublished)?.n ?? 0)
  const total = counts.reduce((sum, c) => sum + Number(c.n), 0)
  const isOwner = m.role === 'owner'
  return {
    id: m.org.id,
    kind: m.org.kind as OrganizationDeepMe['kind'],
    name: m.org.name,
    representative: m.org.representative,
    url: m.org.url,
    description: m.org.description,
    owner_id: m.org.ownerId,
    my_role: m.role as OrganizationDeepMe['my_role'],
    invitation_code: isOwner ? m.org.invitationCode : null,
    members: memberList,
    class_work_count: total,
    published_class_work_count: published,
    created_at: iso(m.org.createdAt),
    updated_at: iso(m.org.updatedAt),
  }
}

/** Members of the caller's organisation; someone outside any organisation sees an empty list. */
export async function orgUserList(db: Db, userId: number): Promise<OrgUser[]> {
  const m = await membershipOf(db, userId)
  return m ? members(db, m.org.id, { userId, isOwner: m.role === 'owner' }) : []
}

/** Only the owner may see the invitation code; to anyone else it does not exist. */
export async function invitationCode(db: Db, userId: number): Promise<InvitationCode> {
  const [row] = await db
    .select({ code: organizations.invitationCode })
    .from(organizations)
    .innerJoin(orgUsers, and(eq(orgUsers.organizationId, organizations.id), eq(orgUsers.userId, userId)))
    .where(and(eq(organizations.ownerId, userId), eq(orgUsers.role, 'owner')))
    .limit(1)
  if (!row) throw notFound('招待コード')
  return { invitation_code: row.code }
}
