import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import type { Ruby } from '../lib/ruby'

/**
 * The whole data model (docs: /work/shared/PRODUCT.md "Entities"). Migrations are generated from this file
 * with `npm run db:generate`; never edit a generated migration by hand.
 * Timestamps are `timestamptz`; money is integer yen.
 */

const id = () => integer('id').primaryKey().generatedAlwaysAsIdentity()
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
const ts = (name: string) => timestamp(name, { withTimezone: true })
/**
 * Furigana of a row's texts, by field name (issue 19, docs/decisions/0028): filled by the ruby job, set back to
 * null by a trigger (migration 0021) whenever one of those texts changes. Null: not read yet.
 */
const ruby = () => jsonb('ruby').$type<Record<string, Ruby>>()

// ── master lists ────────────────────────────────────────────────────────────────────────────────
const master = (name: string) =>
  pgTable(name, {
    id: id(),
    name: text('name').notNull().unique(),
    sortOrder: integer('sort_order').notNull().default(0),
  })

export const categories = master('categories')
export const schoolTypes = master('school_types')
export const professions = master('professions')
export const classStyles = master('class_styles')
export const targetGrades = master('target_grades')
export const videoContentStatuses = master('video_content_statuses')

// ── people ──────────────────────────────────────────────────────────────────────────────────────
export const users = pgTable(
  'users',
  {
    id: id(),
    /** Identity provider issuer and subject: the same sub at two issuers is two people. */
    issuer: text('issuer').notNull(),
    sub: text('sub').notNull(),
    email: text('email'),
    emailVerified: boolean('email_verified').notNull().default(false),
    nickname: text('nickname').notNull(),
    name: text('name').notNull(),
    nameKana: text('name_kana').notNull(),
    avatarUrl: text('avatar_url'),
    introduction: text('introduction').notNull().default(''),
    /** What the member registered as: parent | learner | teacher. */
    role: text('role').notNull(),
    professionId: integer('profession_id').references(() => professions.id),
    schoolTypeId: integer('school_type_id').references(() => schoolTypes.id),
    targetGradeId: integer('target_grade_id').references(() => targetGrades.id),
    isTeacher: boolean('is_teacher').notNull().default(false),
    /** 運営 (operator): granted only from the command line (`npm run operator -- grant EMAIL`), never by the UI or API. */
    isOperator: boolean('is_operator').notNull().default(false),
    /** When an operator approved the teacher's identity (本人確認済み); only then may they publish or found an organisation. */
    teacherVerifiedAt: ts('teacher_verified_at'),
    /** Set by an operator acting on a report: no sign-in, no sessions, no public classes (issue 15). */
    suspendedAt: ts('suspended_at'),
    /** Followers who are not suspended (a teacher's 「フォロワー」), kept like class_works.favorite_count (migration 0040). */
    followerCount: integer('follower_count').notNull().default(0),
    /**
     * The secret of the member's calendar feed (`/calendar/<secret>.ics`, issue 16): made on first use, replaced
     * when they regenerate it. Read-only access to their lesson times, so kept as is to show it again.
     */
    calendarToken: text('calendar_token').unique(),
    /** The member's 「ふりがな」 setting, carried to every device they sign in on (the device remembers it too). */
    furigana: boolean('furigana').notNull().default(false),
    /** Furigana of the introduction (teachers). */
    ruby: ruby(),
    agreedToTermsAt: ts('agreed_to_terms_at').notNull(),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    unique('users_issuer_sub_unique').on(t.issuer, t.sub),
    check('users_role_check', sql`${t.role} in ('parent', 'learner', 'teacher')`),
    index('users_ruby_todo_idx').on(t.id).where(sql`${t.ruby} is null and ${t.isTeacher}`),
    // /admin/suspensions: the few suspended accounts, newest first.
    index('users_suspended_idx').on(t.suspendedAt, t.id).where(sql`${t.suspendedAt} is not null`),
  ],
)

export const learners = pgTable(
  'learners',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    nickname: text('nickname').notNull(),
    schoolTypeId: integer('school_type_id')
      .notNull()
      .references(() => schoolTypes.id),
    targetGradeId: integer('target_grade_id')
      .notNull()
      .references(() => targetGrades.id),
    createdAt: createdAt(),
    /**
     * Removed by the parent, kept because a reservation names the child: receipts, sales lines and past student
     * lists still say who took the lesson. Such a profile is never listed, edited or booked again. One that no
     * reservation names is deleted outright.
     */
    deletedAt: ts('deleted_at'),
  },
  (t) => [index('learners_user_idx').on(t.userId)],
)

export const organizations = pgTable(
  'organizations',
  {
    id: id(),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    representative: text('representative').notNull(),
    url: text('url'),
    description: text('description').notNull().default(''),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    invitationCode: text('invitation_code').notNull().unique(),
    createdAt: createdAt(),
    /** Moved by every save of the organisation's own fields (not its code): a form opened before it is stale. */
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    unique('organizations_owner_unique').on(t.ownerId),
    check('organizations_kind_check', sql`${t.kind} in ('corporation', 'group')`),
  ],
)

export const orgUsers = pgTable(
  'org_users',
  {
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    joinedAt: ts('joined_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.userId] }),
    // A teacher offers classes under at most one organisation.
    unique('org_users_user_unique').on(t.userId),
    check('org_users_role_check', sql`${t.role} in ('owner', 'member')`),
  ],
)

// ── classes ─────────────────────────────────────────────────────────────────────────────────────
export const classWorks = pgTable(
  'class_works',
  {
    id: id(),
    teacherId: integer('teacher_id')
      .notNull()
      .references(() => users.id),
    organizationId: integer('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    description: text('description').notNull(),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id),
    classStyleId: integer('class_style_id')
      .notNull()
      .references(() => classStyles.id),
    price: integer('price').notNull(),
    capacity: integer('capacity').notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    /**
     * 全N回 (issue 16, docs/decisions/0024): 1 for a single lesson; N ≥ 2 makes the class a course, each schedule
     * of it a run of N lessons (class_work_schedule_lessons) booked together at one price with one capacity.
     */
    lessonCount: smallint('lesson_count').notNull().default(1),
    imageUrl: text('image_url'),
    isPublished: boolean('is_published').notNull().default(false),
    /** Furigana of the title and description. */
    ruby: ruby(),
    /**
     * Normalized title + description + teacher nickname + category name (app/lib/search-normalize.ts).
     * Maintained by the services whenever one of those changes.
     */
    searchText: text('search_text').notNull().default(''),
    /** The title folded in SQL (class_search_fold), only to rank title matches first. Generated. */
    searchTitle: text('search_title').notNull().generatedAlwaysAs(sql`class_search_fold(title)`),
    /**
     * Sort keys of the class search, kept by a trigger on class_work_schedules (migration 0004) so that sorting by
     * popularity or next start walks an index instead of aggregating the schedules of every match.
     * seats_sold: purchased seats over the schedules not canceled.
     */
    seatsSold: integer('seats_sold').notNull().default(0),
    /**
     * The earliest start of a schedule not canceled and not yet started, as of the last write or refresh: it goes
     * stale when that start passes, so a search by start first refreshes the rows where it is in the past
     * (refreshNextStarts in app/api/services/class-works.ts).
     */
    nextStartAt: ts('next_start_at'),
    /**
     * The weekday × time-of-day slots (class_work_schedules.slot) of its upcoming live schedules, kept with
     * next_start_at by the same trigger and refresh (migration 0018): it can only lose a slot when a schedule
     * starts, and the earliest one starts first, so it is current whenever next_start_at is. The weekday/time
     * search filters on it (`&&`, GIN) instead of looking into schedules per class (docs/decisions/0022).
     */
    upcomingSlots: smallint('upcoming_slots').array().notNull().default(sql`'{}'`),
    /** The class's target grades (class_work_target_grades), kept by a trigger there: the grade filter reads the row. */
    targetGradeIds: integer('target_grade_ids').array().notNull().default(sql`'{}'`),
    /** Hidden by an operator after a report: out of search, its page answers 410, the teacher cannot republish it. */
    hiddenAt: ts('hidden_at'),
    /**
     * Hidden because its teacher's account was suspended, not for itself: lifting the suspension makes it a draft
     * again (app/api/services/suspensions.ts). A class hidden on a report of its own stays hidden.
     */
    hiddenBySuspension: boolean('hidden_by_suspension').notNull().default(false),
    /** Visible reviews: how many and the sum of their stars, kept by the review services in the review's transaction. */
    ratingCount: integer('rating_count').notNull().default(0),
    ratingSum: integer('rating_sum').notNull().default(0),
    /**
     * Favorites of members who are not suspended: what the cards show. Kept by triggers on favorites and on a
     * member's suspension (migration 0040, docs/decisions/0053), so a card reads a column, not a count per card.
     */
    favoriteCount: integer('favorite_count').notNull().default(0),
    /**
     * Bayesian average for sort=rating (docs/decisions/0021): (C·m + sum) / (C + count) with C = 5 reviews at
     * m = ★3.5, so one ★5 (3.75) does not beat a hundred ★4.8 (4.74).
     */
    /**
     * The average the cards show (one decimal, half up: app/lib/rating.ts) in half stars, rounded down (★4.5–4.9 →
     * 9), null without reviews: what rating_min compares, as an indexed column, so that a rare "★4.5以上" is found
     * from its index next to the keyword's. Rounded like the card first (migration 0025): 79 over 20 reviews shows
     * ★4.0 and must be found by ★4以上, which the plain average (3.95) rounded down to halves missed.
     */
    ratingHalves: smallint('rating_halves').generatedAlwaysAs(
      sql`case when rating_count > 0 then ((rating_sum * 20 + rating_count) / (rating_count * 2) / 5)::smallint end`,
    ),
    ratingScore: doublePrecision('rating_score')
      .notNull()
      .generatedAlwaysAs(sql`(17.5 + rating_sum) / (5.0 + rating_count)`),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // A teacher's classes, and their public page's list (newest first, one page at a time).
    index('class_works_teacher_published_idx').on(t.teacherId, t.isPublished, t.createdAt, t.id),
    index('class_works_organization_idx').on(t.organizationId),
    // class_works_category_filter_idx (category_id, price) INCLUDE (…) is created in migration 0004's SQL: drizzle
    // cannot declare INCLUDE columns. It answers a category filter from the index alone.
    // Search (app/api/services/class-works.ts): keyword, filters and sorts. One index per sort, ending in the id
    // tie-breaker, so a page of a broad search walks the index in order and stops after 20 matches.
    index('class_works_published_created_idx').on(t.isPublished, t.createdAt, t.id),
    // Unigrams and bigrams of search_text (SQL function class_search_bigrams, migration 0002): an expression index,
    // so keyword terms of any length — 陶芸, 将棋 — are served by an index without widening the rows. fastupdate
    // off: no pending list (PGlite never vacuums it away), so the planner keeps choosing it; class writes are rare.
    index('class_works_search_bigrams_idx')
      .using('gin', sql`class_search_bigrams(${t.searchText})`)
      .with({ fastupdate: false }),
    // The same over the folded title: tells the planner how rare title matches are (the first relevance tier).
    index('class_works_search_title_bigrams_idx')
      .using('gin', sql`class_search_bigrams(${t.searchTitle})`)
      .with({ fastupdate: false }),
    index('class_works_style_idx').on(t.classStyleId),
    index('class_works_upcoming_slots_idx').using('gin', t.upcomingSlots).with({ fastupdate: false }),
    // A grade filter without a category (the category index carries the grades only behind a category).
    index('class_works_target_grades_idx').using('gin', t.targetGradeIds).with({ fastupdate: false }),
    // price desc, id desc (read backwards) and price asc, id desc.
    index('class_works_published_price_idx').on(t.isPublished, t.price, t.id),
    index('class_works_published_price_id_desc_idx').on(t.isPublished, t.price, t.id.desc().nullsFirst()),
    index('class_works_published_seats_idx').on(t.isPublished, t.seatsSold, t.id),
    index('class_works_published_rating_idx').on(t.isPublished, t.ratingScore, t.id),
    index('class_works_rating_halves_idx').on(t.ratingHalves).where(sql`${t.ratingHalves} is not null`),
    // next_start_at asc nulls last, id desc; also finds the stale next starts (next_start_at < now).
    index('class_works_next_start_idx').on(t.nextStartAt.asc().nullsLast(), t.id.desc().nullsFirst()),
    index('class_works_ruby_todo_idx').on(t.id).where(sql`${t.ruby} is null and ${t.isPublished}`),
    // Whether an uploaded class image is still shown by some class (app/api/services/class-images.ts). Not
    // partial: `image_url = $1` does not prove a LIKE predicate, so the planner could not use such an index.
    index('class_works_image_url_idx').on(t.imageUrl),
    check('class_works_price_check', sql`${t.price} >= 0`),
    check('class_works_capacity_check', sql`${t.capacity} > 0`),
    check('class_works_duration_check', sql`${t.durationMinutes} > 0`),
    check('class_works_lesson_count_check', sql`${t.lessonCount} between 1 and 20`),
  ],
)

/**
 * The grades a card shows, [{"id", "name"}] in master order, one row per class that has any: kept by the trigger on
 * class_work_target_grades (and one on target_grades), so a card list reads them with a primary-key join instead
 * of aggregating JSON per card on every read (migration 0022, docs/decisions/0026). Its own table, so that filling
 * it for a large catalogue does not rewrite every class row.
 */
export const classCardGrades = pgTable('class_card_grades', {
  classWorkId: integer('class_work_id')
    .primaryKey()
    .references(() => classWorks.id, { onDelete: 'cascade' }),
  grades: json('grades').$type<{ id: number; name: string }[]>().notNull(),
})

export const classWorkTargetGrades = pgTable(
  'class_work_target_grades',
  {
    classWorkId: integer('class_work_id')
      .notNull()
      .references(() => classWorks.id, { onDelete: 'cascade' }),
    targetGradeId: integer('target_grade_id')
      .notNull()
      .references(() => targetGrades.id),
  },
  (t) => [
    primaryKey({ columns: [t.classWorkId, t.targetGradeId] }),
    index('class_work_target_grades_grade_idx').on(t.targetGradeId),
  ],
)

export const classWorkSchedules = pgTable(
  'class_work_schedules',
  {
    id: id(),
    classWorkId: integer('class_work_id')
      .notNull()
      .references(() => classWorks.id, { onDelete: 'cascade' }),
    startedAt: ts('started_at').notNull(),
    endedAt: ts('ended_at').notNull(),
    capacity: integer('capacity').notNull(),
    purchasedCount: integer('purchased_count').notNull().default(0),
    /** Seats held for waitlist offers (issue 16): nobody else can take them while the offer runs. */
    heldCount: integer('held_count').notNull().default(0),
    isCanceled: boolean('is_canceled').notNull().default(false),
    /**
     * How often its time was changed, and when last: a calendar feed's event carries them as SEQUENCE and DTSTAMP
     * (RFC 5545 §3.8.7.4), so that calendars take the new time instead of keeping the one they had.
     */
    revision: integer('revision').notNull().default(0),
    movedAt: ts('moved_at'),
    meetingUrl: text('meeting_url'),
    /**
     * When the lesson falls in a Tokyo week (issue 16, search by when): weekday (Mon = 0 … Sun = 6) × 3 + part of
     * the day (morning before 12:00, afternoon until 17:00, evening after). Generated, so it is never stale.
     */
    slot: smallint('slot')
      .notNull()
      .generatedAlwaysAs(
        sql`((extract(isodow from (started_at at time zone 'Asia/Tokyo'))::int - 1) * 3 + case when extract(hour from (started_at at time zone 'Asia/Tokyo')) < 12 then 0 when extract(hour from (started_at at time zone 'Asia/Tokyo')) < 17 then 1 else 2 end)::smallint`,
      ),
    createdAt: createdAt(),
  },
  (t) => [
    index('class_work_schedules_class_start_idx').on(t.classWorkId, t.startedAt),
    index('class_work_schedules_start_idx').on(t.startedAt),
    // Search: the next start, the date range and popularity of a class, from this index alone (not canceled).
    index('class_work_schedules_open_class_start_idx')
      .on(t.classWorkId, t.startedAt, t.purchasedCount)
      .where(sql`${t.isCanceled} = false`),
    check('class_work_schedules_period_check', sql`${t.endedAt} > ${t.startedAt}`),
    // Seats never oversell: the counter is bumped in the purchase's transaction and checked here too.
    check(
      'class_work_schedules_seats_check',
      sql`${t.purchasedCount} >= 0 and ${t.purchasedCount} <= ${t.capacity}`,
    ),
    check(
      'class_work_schedules_held_check',
      sql`${t.heldCount} >= 0 and ${t.purchasedCount} + ${t.heldCount} <= ${t.capacity}`,
    ),
  ],
)

/**
 * The lessons of a course run (全N回, docs/decisions/0024): a schedule of a class with lesson_count N ≥ 2 has N rows
 * here, and its own started_at/ended_at span them (the first lesson's start, the last one's end), so that booking,
 * capacity, cancellation, waitlist and sales keep working on the schedule as one purchase. A schedule of a single
 * lesson has no rows: it is its own lesson.
 */
export const classWorkScheduleLessons = pgTable(
  'class_work_schedule_lessons',
  {
    scheduleId: integer('schedule_id')
      .notNull()
      .references(() => classWorkSchedules.id, { onDelete: 'cascade' }),
    /** 1 … N, in time order. */
    position: smallint('position').notNull(),
    startedAt: ts('started_at').notNull(),
    endedAt: ts('ended_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.scheduleId, t.position] }),
    // Reminders sweep lessons by their start.
    index('class_work_schedule_lessons_start_idx').on(t.startedAt),
    check('class_work_schedule_lessons_period_check', sql`${t.endedAt} > ${t.startedAt}`),
    check('class_work_schedule_lessons_position_check', sql`${t.position} between 1 and 20`),
  ],
)

export const purchases = pgTable(
  'purchases',
  {
    id: id(),
    scheduleId: integer('schedule_id')
      .notNull()
      .references(() => classWorkSchedules.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    learnerId: integer('learner_id').references(() => learners.id, { onDelete: 'set null' }),
    /**
     * The organisation the class belonged to when the seat was reserved: its sales and the teacher's receipt
     * follow this, so a teacher joining or leaving later moves neither past months nor printed receipts.
     */
    organizationId: integer('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
    price: integer('price').notNull(),
    commission: integer('commission').notNull(),
    /**
     * pending (a paid seat held while the member pays, until hold_expires_at; issue 17) → reserved (paid, or free)
     * → canceled_by_user | canceled_by_teacher (refunded); or pending → expired (never paid: the seat went back).
     * The schedule's purchased_count counts pending and reserved seats.
     */
    status: text('status').notNull().default('reserved'),
    holdExpiresAt: ts('hold_expires_at'),
    createdAt: createdAt(),
    canceledAt: ts('canceled_at'),
  },
  (t) => [
    index('purchases_user_idx').on(t.userId, t.createdAt),
    index('purchases_schedule_idx').on(t.scheduleId),
    index('purchases_organization_idx').on(t.organizationId, t.createdAt),
    // A child's profile deleted for good sets its bookings' learner_id to null: found here, not by a table scan.
    index('purchases_learner_idx').on(t.learnerId).where(sql`${t.learnerId} is not null`),
    // One seat per person (member or one of their learners) per schedule, held or reserved.
    uniqueIndex('purchases_seat_unique')
      .on(t.scheduleId, t.userId, sql`coalesce(${t.learnerId}, 0)`)
      .where(sql`${t.status} in ('reserved', 'pending')`),
    check(
      'purchases_status_check',
      sql`${t.status} in ('pending', 'reserved', 'canceled_by_user', 'canceled_by_teacher', 'expired')`,
    ),
    check('purchases_hold_check', sql`(${t.status} = 'pending') = (${t.holdExpiresAt} is not null)`),
    check('purchases_money_check', sql`${t.price} >= 0 and ${t.commission} >= 0`),
  ],
)

// ── announcements and notices ───────────────────────────────────────────────────────────────────
export const classAnnouncements = pgTable(
  'class_announcements',
  {
    id: id(),
    classWorkId: integer('class_work_id')
      .notNull()
      .references(() => classWorks.id, { onDelete: 'cascade' }),
    /**
     * Set when it concerns one date only (the 【休講】 notice of a cancelled lesson): only that date's members see
     * it. Null: every member of the class with a lesson to come.
     */
    scheduleId: integer('schedule_id').references(() => classWorkSchedules.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** Furigana of the title and body. */
    ruby: ruby(),
    createdAt: createdAt(),
  },
  (t) => [
    index('class_announcements_class_created_idx').on(t.classWorkId, t.createdAt),
    // A date's deletion (a class deleted) finds its notices without reading every announcement.
    index('class_announcements_schedule_idx').on(t.scheduleId).where(sql`${t.scheduleId} is not null`),
    index('class_announcements_ruby_todo_idx').on(t.id).where(sql`${t.ruby} is null`),
  ],
)

export const classAnnouncementReads = pgTable(
  'class_announcement_reads',
  {
    announcementId: integer('announcement_id')
      .notNull()
      .references(() => classAnnouncements.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    readAt: ts('read_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.announcementId, t.userId] })],
)

export const notices = pgTable(
  'notices',
  {
    id: id(),
    title: text('title').notNull(),
    /** Plain text (demo content) or, for notices written at /admin/notices, the operator's small Markdown. */
    body: text('body').notNull(),
    /** The Markdown rendered and sanitised once, when written (null: show `body` as plain text). */
    bodyHtml: text('body_html'),
    publishedAt: ts('published_at').notNull(),
    /** Withdrawn by an operator: gone from every member's list. */
    withdrawnAt: ts('withdrawn_at'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('notices_published_idx').on(t.publishedAt)],
)

export const noticeReads = pgTable(
  'notice_reads',
  {
    noticeId: integer('notice_id')
      .notNull()
      .references(() => notices.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    readAt: ts('read_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.noticeId, t.userId] })],
)

// ── messages ────────────────────────────────────────────────────────────────────────────────────
export const rooms = pgTable(
  'rooms',
  {
    id: id(),
    /** A room is between a teacher and a member (a parent or learner account); never a learner profile. */
    teacherId: integer('teacher_id')
      .notNull()
      .references(() => users.id),
    memberId: integer('member_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    lastMessageAt: ts('last_message_at'),
  },
  (t) => [
    unique('rooms_pair_unique').on(t.teacherId, t.memberId),
    index('rooms_member_idx').on(t.memberId),
    check('rooms_two_people_check', sql`${t.teacherId} <> ${t.memberId}`),
  ],
)

export const roomMembers = pgTable(
  'room_members',
  {
    roomId: integer('room_id')
      .notNull()
      .references(() => rooms.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Messages after this moment (from the other member) count as unread. */
    lastReadAt: ts('last_read_at'),
  },
  (t) => [primaryKey({ columns: [t.roomId, t.userId] }), index('room_members_user_idx').on(t.userId)],
)

export const messages = pgTable(
  'messages',
  {
    id: id(),
    roomId: integer('room_id')
      .notNull()
      .references(() => rooms.id, { onDelete: 'cascade' }),
    senderId: integer('sender_id')
      .notNull()
      .references(() => users.id),
    body: text('body').notNull(),
    /** Set by the API (never the client) when the body looks like contact details (app/lib/contact-detector.ts). */
    containsContactInfo: boolean('contains_contact_info').notNull().default(false),
    /**
     * visible, or held for an operator (a flagged message sent after the warning: only its sender sees it, as
     * 確認中), or deleted by an operator (only its sender sees that it was). Issue 15.
     */
    status: text('status').notNull().default('visible'),
    moderatedAt: ts('moderated_at'),
    moderatedBy: integer('moderated_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('messages_room_created_idx').on(t.roomId, t.createdAt),
    index('messages_held_idx').on(t.createdAt).where(sql`${t.status} = 'held'`),
    check('messages_status_check', sql`${t.status} in ('visible', 'held', 'deleted')`),
  ],
)

// ── follows, favorites ──────────────────────────────────────────────────────────────────────────
export const follows = pgTable(
  'follows',
  {
    followerId: integer('follower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    teacherId: integer('teacher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.teacherId] }),
    index('follows_teacher_idx').on(t.teacherId),
    check('follows_not_self_check', sql`${t.followerId} <> ${t.teacherId}`),
  ],
)

export const favorites = pgTable(
  'favorites',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    classWorkId: integer('class_work_id')
      .notNull()
      .references(() => classWorks.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.classWorkId] }),
    index('favorites_class_work_idx').on(t.classWorkId),
  ],
)

// ── magazine ────────────────────────────────────────────────────────────────────────────────────
export const magazineArticles = pgTable(
  'magazine_articles',
  {
    id: id(),
    title: text('title').notNull(),
    lead: text('lead').notNull(),
    /** Sanitized simple HTML (p, h2, h3, ul, ol, li, strong, em, a, blockquote). */
    body: text('body').notNull(),
    imageUrl: text('image_url'),
    category: text('category').notNull(),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    publishedAt: ts('published_at').notNull(),
    /** Normalized title + lead + body text, for the magazine keyword search. */
    searchText: text('search_text').notNull().default(''),
  },
  (t) => [
    index('magazine_articles_published_idx').on(t.publishedAt),
    index('magazine_articles_category_idx').on(t.category, t.publishedAt),
    index('magazine_articles_tags_idx').using('gin', t.tags),
  ],
)

// ── platform: sessions, rate limits, idempotency, uploads (issue 13; docs/decisions/0014) ───────
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' })

/**
 * Server-side sessions. The cookie carries only an opaque random id; the row is keyed by its SHA-256 so a
 * leaked table does not hand out live cookies. Tokens are encrypted at rest (`tokens`, a JWE).
 */
export const sessions = pgTable(
  'sessions',
  {
    /** base64url SHA-256 of the cookie's session id. */
    id: text('id').primaryKey(),
    issuer: text('issuer').notNull(),
    sub: text('sub').notNull(),
    /** ID-token claims the app reads (sub, email, email_verified, name, nickname, picture). Not secret. */
    claims: jsonb('claims').notNull(),
    /** Access, refresh and ID token, encrypted with a key derived from SESSION_SECRET. */
    tokens: text('tokens').notNull(),
    accessTokenExpiresAt: ts('access_token_expires_at').notNull(),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: createdAt(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    /** The 1-day session check (spec §9): moved forward on every login or renewal. */
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('sessions_subject_idx').on(t.issuer, t.sub), index('sessions_expires_idx').on(t.expiresAt)],
)

/**
 * When a member last logged their other devices out (docs/decisions/0037): a browser with no live session of theirs
 * signs in again only with an authentication after that moment, not through the provider's single sign-on.
 */
export const signInRevocations = pgTable(
  'sign_in_revocations',
  {
    issuer: text('issuer').notNull(),
    sub: text('sub').notNull(),
    revokedAt: ts('revoked_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.sub] })],
)

/** Rate-limit counters shared by every instance (rate-limiter-flexible, app/server/rate-limit). */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    points: integer('points').notNull(),
    /** `expire`: the property name rate-limiter-flexible's Drizzle store reads. */
    expire: ts('expires_at'),
  },
  (t) => [index('rate_limits_expires_idx').on(t.expire)],
)

/** The first answer to a write, replayed for a repeat with the same key within 24 h. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** Whose key: the caller's identity (issuer + sub), so two users cannot collide or read each other's. */
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    /** Method, path and a hash of the body: the same key with another request is refused. */
    fingerprint: text('fingerprint').notNull(),
    /** Null while the first request is still running. */
    status: integer('status'),
    response: text('response'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
)

/**
 * Who uploaded each class image (`classes/<32 hex>.webp`, the path under /uploads/): only its uploader may put it
 * on a class, and an image no class shows any more is deleted with its row (docs/decisions/0035).
 */
export const classImages = pgTable(
  'class_images',
  {
    path: text('path').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [index('class_images_owner_idx').on(t.ownerId), index('class_images_created_idx').on(t.createdAt)],
)

/**
 * Who uploaded each stored avatar (`avatars/<hex>.webp`): only its uploader may show it, and it is deleted when
 * they no longer do (docs/decisions/0038).
 */
export const avatarImages = pgTable(
  'avatar_images',
  {
    path: text('path').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [index('avatar_images_owner_idx').on(t.ownerId), index('avatar_images_created_idx').on(t.createdAt)],
)

/** Uploaded images when no S3-compatible storage is configured: in the database, never on one instance's disk. */
export const uploads = pgTable('uploads', {
  /** The path under /uploads/, e.g. `classes/<32 hex>.webp`. */
  path: text('path').primaryKey(),
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  createdAt: createdAt(),
})

// ── notifications: jobs, mail, preferences (issue 14; docs/decisions/0017) ──────────────────────

/**
 * Durable jobs (app/jobs). Written in the same transaction as the change that causes them (outbox); taken by any
 * instance's runner with `FOR UPDATE SKIP LOCKED` under a lease, so one job runs on one worker at a time. Done jobs
 * are kept a week: their `dedupe_key` keeps a reminder or a mail from being queued twice.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: id(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull(),
    /** Unique while the row exists: a second enqueue with the same key is a no-op. */
    dedupeKey: text('dedupe_key').unique(),
    runAt: ts('run_at').notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(8),
    /** A worker holds the job until then; a worker killed mid-job lets it go when the lease runs out. */
    lockedUntil: ts('locked_until'),
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    /** Set when the job succeeded, or failed for the last time (then `failed` is true). */
    finishedAt: ts('finished_at'),
    failed: boolean('failed').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('jobs_due_idx').on(t.runAt).where(sql`${t.finishedAt} is null`),
    index('jobs_finished_idx').on(t.finishedAt),
  ],
)

/**
 * Every mail the app sent or stored. Without SMTP_URL this is the mailbox shown at /test/mailbox; with it, a log
 * of what was handed to the SMTP server. `message_id` is derived from the job, so a job run twice stores once.
 */
export const mails = pgTable(
  'mails',
  {
    id: id(),
    messageId: text('message_id').notNull().unique(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    headers: jsonb('headers').notNull().default({}),
    /** 'stored' (the database mailbox) or 'smtp' (accepted by the SMTP server). */
    transport: text('transport').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('mails_to_idx').on(t.toAddress, t.createdAt), index('mails_created_idx').on(t.createdAt)],
)

/** A member's choice per kind of notification; no row means the kind's default (on). */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    enabled: boolean('enabled').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
)

/** The last time a throttled notification went out (e.g. one message mail per room and recipient per 10 minutes). */
export const notificationThrottles = pgTable('notification_throttles', {
  key: text('key').primaryKey(),
  sentAt: ts('sent_at').notNull(),
})

// ── trust and safety (issue 15; docs/decisions/0019) ───────────────────────────────────────────

/**
 * The audit log: every operator action and security event, appended and never changed. A trigger
 * (migration 0007) refuses UPDATE and DELETE, so not even a bug in the app can rewrite history.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    at: ts('at').notNull().defaultNow(),
    /** users.id of who did it (null: the command line, the system, or someone not signed in). */
    actorId: integer('actor_id'),
    /** How the actor is shown: a nickname and e-mail, 'cli', 'system', or the e-mail tried at a failed sign-in. */
    actorLabel: text('actor_label').notNull(),
    /** e.g. sign_in, sign_in_failed, logout, logout_others, role_grant, role_revoke, notice_create, notice_withdraw. */
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    address: text('address'),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_action_at_idx').on(t.action, t.at),
    index('audit_log_actor_at_idx').on(t.actorId, t.at),
  ],
)

/**
 * 本人確認: what a member who turned on teaching submitted, and the operator's decision. The two images live in the
 * upload store under `verifications/` (never served by /uploads), are read only through the operator's audited
 * route, and are deleted 30 days after the decision (job `verifications.purge`), when the paths become null.
 */
export const teacherVerifications = pgTable(
  'teacher_verifications',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** pending → approved | rejected; a rejected member may submit again (a new row). */
    status: text('status').notNull().default('pending'),
    legalName: text('legal_name').notNull(),
    legalNameKana: text('legal_name_kana').notNull(),
    /** YYYY-MM-DD. */
    birthDate: text('birth_date').notNull(),
    career: text('career').notNull(),
    facePath: text('face_path'),
    documentPath: text('document_path'),
    submittedAt: ts('submitted_at').notNull().defaultNow(),
    decidedAt: ts('decided_at'),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    /** The operator's reason, shown to the member on a rejection. */
    reason: text('reason'),
    documentsDeletedAt: ts('documents_deleted_at'),
  },
  (t) => [
    index('teacher_verifications_user_idx').on(t.userId, t.submittedAt),
    index('teacher_verifications_status_idx').on(t.status, t.submittedAt),
    // The purge job's scan: decided, documents still kept.
    index('teacher_verifications_purge_idx').on(t.decidedAt).where(sql`${t.documentsDeletedAt} is null`),
    uniqueIndex('teacher_verifications_one_pending').on(t.userId).where(sql`${t.status} = 'pending'`),
    check('teacher_verifications_status_check', sql`${t.status} in ('pending', 'approved', 'rejected')`),
  ],
)

/**
 * 通報: a member's report of a class, a teacher, a message or a review. `target_user_id` is whose content it is,
 * so that an operator can suspend that account. One open report per reporter and target.
 */
export const reports = pgTable(
  'reports',
  {
    id: id(),
    reporterId: integer('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    targetType: text('target_type').notNull(),
    targetId: integer('target_id').notNull(),
    targetUserId: integer('target_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    detail: text('detail').notNull().default(''),
    /** open → dismissed | hidden (the content) | suspended (the account). */
    status: text('status').notNull().default('open'),
    createdAt: createdAt(),
    resolvedAt: ts('resolved_at'),
    resolvedBy: integer('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    note: text('note'),
  },
  (t) => [
    index('reports_status_created_idx').on(t.status, t.createdAt),
    index('reports_kind_status_created_idx').on(t.targetType, t.status, t.createdAt),
    index('reports_target_user_idx').on(t.targetUserId),
    uniqueIndex('reports_one_open_per_reporter')
      .on(t.reporterId, t.targetType, t.targetId)
      .where(sql`${t.status} = 'open'`),
    check('reports_target_type_check', sql`${t.targetType} in ('class', 'teacher', 'message', 'review')`),
    check('reports_status_check', sql`${t.status} in ('open', 'dismissed', 'hidden', 'suspended')`),
  ],
)

// ── reviews (issue 16; docs/decisions/0021) ──────────────────────────────────────────────────────

/**
 * One review per attended, ended reservation: ★1–5 and a comment; the class's teacher replies once. Hidden by an
 * operator after a report (then it no longer counts in the class's rating).
 */
export const reviews = pgTable(
  'reviews',
  {
    id: id(),
    purchaseId: integer('purchase_id')
      .notNull()
      .unique()
      .references(() => purchases.id, { onDelete: 'cascade' }),
    classWorkId: integer('class_work_id')
      .notNull()
      .references(() => classWorks.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rating: integer('rating').notNull(),
    comment: text('comment').notNull(),
    reply: text('reply'),
    repliedAt: ts('replied_at'),
    /** visible | hidden (by an operator). */
    status: text('status').notNull().default('visible'),
    /**
     * Hidden because its author's account was suspended, not on a report of its own: lifting the suspension shows
     * it again (the reviews of class_works.hidden_by_suspension's kind).
     */
    hiddenBySuspension: boolean('hidden_by_suspension').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('reviews_class_created_idx').on(t.classWorkId, t.createdAt.desc(), t.id.desc()),
    index('reviews_user_idx').on(t.userId),
    check('reviews_rating_check', sql`${t.rating} between 1 and 5`),
    check('reviews_status_check', sql`${t.status} in ('visible', 'hidden')`),
  ],
)

/**
 * リクエスト開催 (issue 16): a member asks for a new date of a class that has none coming, with the weekdays and
 * times that suit them. The teacher sees the open requests; when a schedule is added, everyone who asked gets a
 * mail and the request is closed (notified_at). One open request per member and class.
 */
export const classRequests = pgTable(
  'class_requests',
  {
    id: id(),
    classWorkId: integer('class_work_id')
      .notNull()
      .references(() => classWorks.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** mon … sun. */
    weekdays: text('weekdays').array().notNull(),
    /** morning | afternoon | evening (Asia/Tokyo). */
    times: text('times').array().notNull(),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
    notifiedAt: ts('notified_at'),
  },
  (t) => [
    index('class_requests_class_open_idx').on(t.classWorkId, t.createdAt).where(sql`${t.notifiedAt} is null`),
    uniqueIndex('class_requests_one_open').on(t.classWorkId, t.userId).where(sql`${t.notifiedAt} is null`),
  ],
)

/**
 * キャンセル待ち (issue 16): members waiting for a seat of a full schedule, first come first served. When a seat
 * frees, the first waiting entry is offered it for 12 hours: the seat is held (class_work_schedules.held_count)
 * so nobody else takes it; an unanswered offer expires and passes to the next. Locked after the schedule
 * (lock order class → schedule → purchase → waitlist, docs/decisions/0015).
 */
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: id(),
    scheduleId: integer('schedule_id')
      .notNull()
      .references(() => classWorkSchedules.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    learnerId: integer('learner_id').references(() => learners.id, { onDelete: 'set null' }),
    /** waiting → offered → booked | expired; or left (by the member) | canceled (the schedule was). */
    status: text('status').notNull().default('waiting'),
    offeredAt: ts('offered_at'),
    offerExpiresAt: ts('offer_expires_at'),
    /**
     * The reservation this offer was booked with: the one whose unpaid hold, ending on its own, gives the seat back
     * to this offer (releaseHold). No foreign key: a pointer read only by that purchase's own transactions.
     */
    bookedPurchaseId: integer('booked_purchase_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('waitlist_schedule_status_idx').on(t.scheduleId, t.status, t.createdAt, t.id),
    index('waitlist_user_idx').on(t.userId, t.status),
    index('waitlist_learner_idx').on(t.learnerId).where(sql`${t.learnerId} is not null`),
    index('waitlist_offer_expiry_idx').on(t.offerExpiresAt).where(sql`${t.status} = 'offered'`),
    // The hold's end and its late payment find the offer they were booked with by this (releaseHold, settlePayment).
    index('waitlist_booked_purchase_idx')
      .on(t.bookedPurchaseId)
      .where(sql`${t.bookedPurchaseId} is not null`),
    uniqueIndex('waitlist_one_live_per_member')
      .on(t.scheduleId, t.userId)
      .where(sql`${t.status} in ('waiting', 'offered')`),
    check(
      'waitlist_status_check',
      sql`${t.status} in ('waiting', 'offered', 'booked', 'expired', 'left', 'canceled')`,
    ),
  ],
)

// ── payments (issue 17; docs/decisions/0025) ─────────────────────────────────────────────────────

/**
 * The payment of a paid purchase: one per purchase, created when the seat is held and settled by the provider
 * (the embedded test provider, or Stripe). `amount` includes 10 % consumption tax (`tax_amount`). Locked after its
 * purchase (lock order class → schedule → purchase → payment).
 */
export const payments = pgTable(
  'payments',
  {
    id: id(),
    purchaseId: integer('purchase_id')
      .notNull()
      .unique()
      .references(() => purchases.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** embedded | stripe */
    provider: text('provider').notNull(),
    /** The provider's payment (a PaymentIntent id), once it was created there. */
    providerRef: text('provider_ref').unique(),
    amount: integer('amount').notNull(),
    taxAmount: integer('tax_amount').notNull(),
    /** requires_payment → succeeded | canceled (the hold ended unpaid). */
    status: text('status').notNull().default('requires_payment'),
    /** The last refusal (card_declined, insufficient_funds…), shown on the checkout page. */
    failureCode: text('failure_code'),
    failureMessage: text('failure_message'),
    attempts: integer('attempts').notNull().default(0),
    lastAttemptAt: ts('last_attempt_at'),
    succeededAt: ts('succeeded_at'),
    /** 宛名 of the receipt (領収書): the member sets it once. */
    receiptName: text('receipt_name'),
    /**
     * What the receipt and the history line name, as it stood when the payment went through: the class's title,
     * the lesson's start, the number of lessons, the child's and the member's nicknames. Written by the database
     * (trigger payments_receipt_item, docs/decisions/0057) on whatever path a payment succeeds, so a receipt is not
     * rewritten when the teacher renames the class or moves the lesson later.
     */
    receiptTitle: text('receipt_title'),
    receiptStartedAt: ts('receipt_started_at'),
    receiptLessonCount: integer('receipt_lesson_count'),
    receiptLearner: text('receipt_learner'),
    receiptMember: text('receipt_member'),
    /**
     * Who issued the receipt, as it stood when the payment went through: the platform's name and its
     * 適格請求書発行事業者登録番号 (null: not registered then). Written by the payment service with the status
     * (settlePayment), since the number comes from configuration the database cannot read. A payment recorded
     * before migration 0043 or outside the service has none until the app next opens its database and stamps it
     * (stampReceiptIssuers); until then its receipt shows what is configured.
     */
    receiptIssuerName: text('receipt_issuer_name'),
    receiptRegistrationNumber: text('receipt_registration_number'),
    createdAt: createdAt(),
  },
  (t) => [
    index('payments_user_created_idx').on(t.userId, t.createdAt),
    index('payments_succeeded_idx').on(t.succeededAt),
    // The reconciliation sweep: attempts whose outcome at the provider is not known here yet.
    index('payments_unsettled_idx').on(t.lastAttemptAt).where(sql`${t.status} <> 'succeeded'`),
    check('payments_status_check', sql`${t.status} in ('requires_payment', 'succeeded', 'canceled')`),
    check('payments_provider_check', sql`${t.provider} in ('embedded', 'stripe')`),
    check('payments_amount_check', sql`${t.amount} > 0 and ${t.taxAmount} >= 0`),
    check(
      'payments_receipt_item_check',
      sql`${t.status} <> 'succeeded' or (${t.receiptTitle} is not null and ${t.receiptStartedAt} is not null and ${t.receiptLessonCount} is not null and ${t.receiptMember} is not null)`,
    ),
    check(
      'payments_receipt_registration_check',
      sql`${t.receiptRegistrationNumber} is null or (${t.receiptRegistrationNumber} ~ '^T[0-9]{13}$' and ${t.receiptIssuerName} is not null)`,
    ),
  ],
)

/**
 * A refund: always the whole payment, at most one per payment (the unique key is what makes every cancellation
 * path refund exactly once). Written in the cancellation's transaction as pending; a job asks the provider with an
 * idempotency key derived from this row, so a crash between the provider's refund and this record is retried
 * without refunding twice.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: id(),
    paymentId: integer('payment_id')
      .notNull()
      .unique()
      .references(() => payments.id),
    purchaseId: integer('purchase_id')
      .notNull()
      .references(() => purchases.id),
    amount: integer('amount').notNull(),
    /** member_cancel | teacher_cancel | operator | no_seat (paid after the hold ended, no seat left) | legacy */
    reason: text('reason').notNull(),
    /** pending → succeeded */
    status: text('status').notNull().default('pending'),
    providerRef: text('provider_ref'),
    /**
     * Refunds the provider refused (`failed`) so far. Each is asked for under its own idempotency key: the same
     * key would get the refused refund back for a day (Stripe keeps keys 24 h).
     */
    providerAttempt: integer('provider_attempt').notNull().default(0),
    lastError: text('last_error'),
    createdAt: createdAt(),
    succeededAt: ts('succeeded_at'),
  },
  (t) => [
    index('refunds_purchase_idx').on(t.purchaseId),
    index('refunds_succeeded_idx').on(t.succeededAt),
    check('refunds_status_check', sql`${t.status} in ('pending', 'succeeded')`),
    check('refunds_amount_check', sql`${t.amount} > 0`),
  ],
)

/** Webhook events already handled, by provider and event id: a replayed event has no second effect. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    receivedAt: ts('received_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
)

/**
 * The embedded test provider's own books (what a card company keeps on its side): its payments and the refunds it
 * made, keyed by the caller's idempotency key. Only app/payments/embedded.server.ts touches these.
 */
export const embeddedPayments = pgTable('embedded_payments', {
  ref: text('ref').primaryKey(),
  amount: integer('amount').notNull(),
  /** requires_payment → succeeded | canceled */
  status: text('status').notNull(),
  description: text('description').notNull(),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  /** The last four digits of the card that paid. */
  cardLast4: text('card_last4'),
  createdAt: createdAt(),
  succeededAt: ts('succeeded_at'),
})

export const embeddedRefunds = pgTable('embedded_refunds', {
  idempotencyKey: text('idempotency_key').primaryKey(),
  ref: text('ref').notNull().unique(),
  paymentRef: text('payment_ref')
    .notNull()
    .references(() => embeddedPayments.ref),
  amount: integer('amount').notNull(),
  createdAt: createdAt(),
})

/**
 * Where a teacher's payouts go (振込先): the details encrypted (AES-256-GCM, a key derived from SESSION_SECRET),
 * with only what the masked form shows kept in clear.
 */
export const teacherBankAccounts = pgTable('teacher_bank_accounts', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  bankName: text('bank_name').notNull(),
  branchName: text('branch_name').notNull(),
  /** futsu (普通) | toza (当座) */
  accountType: text('account_type').notNull(),
  numberLast4: text('number_last4').notNull(),
  /** The whole account (number and holder), encrypted. */
  encrypted: text('encrypted').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
})
