import '@tanstack/react-start/server-only'
import { LRUCache } from 'lru-cache'
import { z } from 'zod'
import {
  changesSearchResults,
  SEARCH_INVALIDATE_CHANNEL,
  searchInvalidationListener,
} from '../../api/search-invalidation'
import {
  AdminNotice,
  AdminNoticeList,
  AuditPage,
  type CreateNoticeBody,
  HeldMessageList,
  ModerationResult,
} from '../../contract/v1/admin'
import { ClassAnnouncement, ClassAnnouncementList, ReadResult } from '../../contract/v1/announcements'
import { CalendarFeed, CalendarSubscription } from '../../contract/v1/calendar'
import {
  AnnouncementCreated,
  type AnnouncementInput,
  type ClassWorkInput,
  type ClassWorkPatch,
  Deleted,
  ScheduleCancelResult,
  type ScheduleInput,
  type SchedulePatch,
  TeacherClassWork,
  TeacherSchedule,
} from '../../contract/v1/class-management'
import {
  ClassWorkCardList,
  ClassWorkDetail,
  type ClassWorkSearchBody,
  ClassWorkSearchResult,
  CloseToStartList,
  MyClassWorkList,
  StudentList,
} from '../../contract/v1/class-works'
import { ErrorBody } from '../../contract/v1/common'
import { FavoriteList, FavoriteState, FollowState } from '../../contract/v1/follows'
import { type FuriganaIds, FuriganaMap } from '../../contract/v1/furigana'
import {
  Article,
  ArticlePage,
  MagazineFacets,
  type MagazineQuery,
  RelatedArticles,
} from '../../contract/v1/magazine'
import { type MasterKind, MasterList } from '../../contract/v1/master'
import { Notice, NoticeList } from '../../contract/v1/notices'
import {
  NotificationSettingList,
  UnsubscribeState,
  type UpdateNotificationSettingBody,
} from '../../contract/v1/notifications'
import type {
  JoinOrganizationBody,
  OrganizationInput,
  OrganizationPatch,
} from '../../contract/v1/org-management'
import { InvitationCode, OrganizationDeepMe, OrgUserList } from '../../contract/v1/organizations'
import {
  BankAccount,
  type BankAccountInput,
  Checkout,
  type ConfirmPaymentBody,
  PaymentHistory,
  PaymentReceipt,
  PayoutStatement,
  type ReceiptNameBody,
} from '../../contract/v1/payments'
import {
  type CreatePurchaseBody,
  Purchase,
  PurchaseList,
  type PurchaseScope,
} from '../../contract/v1/purchases'
import {
  ClassRequestList,
  ClassRequestReceipt,
  type CreateClassRequestBody,
  MyClassRequest,
} from '../../contract/v1/requests'
import {
  CreatedReview,
  type CreateReviewBody,
  type ReplyReviewBody,
  ReviewPage,
  ReviewReply,
} from '../../contract/v1/reviews'
import {
  DestinationList,
  Message,
  MessageList,
  Room,
  RoomList,
  RoomReadResult,
  UnreadMessageCount,
} from '../../contract/v1/rooms'
import { CustomerList, OrganizationSales, Receipt, SalesReport } from '../../contract/v1/sales'
import { SitemapEntries } from '../../contract/v1/sitemap'
import { TeacherProfile } from '../../contract/v1/teachers'
import {
  AdminReportList,
  type AdminReportQuery,
  AdminSuspensionList,
  AdminVerification,
  AdminVerificationList,
  type CreateReportBody,
  type DecideVerificationBody,
  type LiftSuspensionBody,
  LiftSuspensionResult,
  MyVerification,
  ReportReceipt,
  type ResolveReportBody,
  ResolveReportResult,
  type SubmitVerificationBody,
  VerificationDocument,
} from '../../contract/v1/trust'
import {
  type CreateLearnerBody,
  DeepMe,
  FollowingList,
  FuriganaSetting,
  Learner,
  type RegisterUserBody,
  type UpdateLearnerBody,
  type UpdateUserBody,
  User,
} from '../../contract/v1/users'
import { type JoinWaitlistBody, WaitlistEntryList, WaitlistReceipt } from '../../contract/v1/waitlist'
import { type EventBus, getEventBus } from '../../db/events'
import { withoutSecretPaths } from '../../db/log-safe'
import { readCached, readLive, untracked } from '../../db/page-reads'
import { ApiError } from './errors'
import type { ApiRequest, ApiResponse, ApiTransport } from './transport'

/** An authenticated call: skipped (undefined) without a token (spec §6), throws ApiError on an error status. */
export interface AuthedCall<A extends unknown[], R> {
  (token: string, ...args: A): Promise<R>
  (token: string | undefined | null, ...args: A): Promise<R | undefined>
}

/** The me call never throws on an error status (spec §7): 200 with the user, 404 unregistered, others. */
export interface MeResult {
  status: number
  data?: User
  code?: string
  message?: string
}

export interface ApiClientOptions {
  /** Where failures are reported (public calls log and return nothing, spec §8). */
  logger?: Pick<Console, 'error' | 'warn'>
  /** How long an identical class search is answered from memory (default SEARCH_RESULTS_TTL_MS); 0: never. */
  searchResultsTtlMs?: number
  /** How long other identical public reads are (default PUBLIC_RESULTS_TTL_MS); 0: never. */
  publicResultsTtlMs?: number
  /**
   * The bus that tells every instance to empty its search cache (default: the app's, app/db/events.ts).
   * null: this process only (a client whose API has no other instances).
   */
  events?: (() => Promise<EventBus>) | null
}

function errorOf(res: ApiResponse): { code: string; message: string; issues?: unknown } {
  const parsed = ErrorBody.safeParse(res.data)
  return parsed.success
    ? parsed.data
    : {
        code: `http_${res.status}`,
        message: res.status >= 500 ? 'サーバーで問題が発生しました。' : 'エラーが発生しました。',
      }
}

/** How long an identical class search is answered from memory (see searchClassWorks). */
export const SEARCH_RESULTS_TTL_MS = 10_000

/** How long other public reads (class and teacher pages, lists, the magazine) are answered from memory. */
export const PUBLIC_RESULTS_TTL_MS = 60_000

/** The earliest start of the next lessons in these cards: when such a list stops being right by itself. */
function firstStart(cards: { next_schedule: { started_at: string } | null }[]): number | undefined {
  let first: number | undefined
  for (const c of cards) {
    const at = c.next_schedule ? Date.parse(c.next_schedule.started_at) : Number.NaN
    if (!Number.isNaN(at) && (first === undefined || at < first)) first = at
  }
  return first
}

/**
 * Whether the cache still holds this very result under its key (a page's read, page-reads.ts). Held weakly: a kept
 * page must not keep a result alive that its cache has let go (thousands of distinct searches).
 */
function stillCached(cache: LRUCache<string, Promise<unknown>>, key: string, result: Promise<unknown>) {
  const held = new WeakRef(result)
  return () => {
    const value = held.deref()
    return value !== undefined && cache.get(key) === value
  }
}

/** How long a master list is reused (see getMaster). */
export const MASTER_TTL_MS = 5 * 60_000

export function createApiClient(getTransport: () => ApiTransport, options: ApiClientOptions = {}) {
  const log = options.logger ?? console
  const send = (request: ApiRequest) => {
    // A call no cache answers: the page of the request that makes it is rendered again next time (page-reads.ts).
    readLive()
    return getTransport()(request)
  }

  /** Parses a success body with the contract; a mismatch is the API's fault: logged, then a 502. */
  function parse<S extends z.ZodType>(schema: S, res: ApiResponse, request: ApiRequest): z.output<S> {
    const parsed = schema.safeParse(res.data)
    if (parsed.success) return parsed.data
    log.error(
      `[api-client] ${request.method} ${withoutSecretPaths(request.path)}: response does not match the contract`,
      parsed.error.issues,
    )
    throw new ApiError(502, 'invalid_response', 'サーバーからの応答が正しくありません', {
      issues: parsed.error.issues,
    })
  }

  // Public reads — the class search, the home page's lists, class and teacher pages, the magazine — are the most
  // requested calls, and a few of each make most of them (docs/decisions/0013, 0026). Identical reads are answered
  // from memory and concurrent ones share one API call. Any write that can change what they show (a reservation,
  // a seat freed by a job, a class or profile edit, a review) empties the cache on every instance: this client
  // clears its own at once and publishes `search_invalidate` (so does the API for every write, whoever sends it,
  // and so do the jobs that move seats); every instance clears on receipt. The cache is used only while
  // subscribed: without the bus, reads go to the API. Entries also expire — searches after
  // SEARCH_RESULTS_TTL_MS, the rest after PUBLIC_RESULTS_TTL_MS or when the first lesson they list starts,
  // whichever comes first, so a list never shows a lesson as upcoming past its start. The calls carry no token:
  // every caller gets the same result. Failures are not kept. Cached results are shared: treat them as read-only.
  const searchTtlMs = options.searchResultsTtlMs ?? SEARCH_RESULTS_TTL_MS
  const publicTtlMs = options.publicResultsTtlMs ?? PUBLIC_RESULTS_TTL_MS
  const publicCache =
    searchTtlMs > 0 || publicTtlMs > 0
      ? new LRUCache<string, Promise<unknown>>({ max: 500, ttl: Math.max(searchTtlMs, publicTtlMs, 1) })
      : undefined
  const events = options.events === undefined ? getEventBus : options.events

  // Whether invalidations can reach this cache: always without a bus (events null), else while subscribed.
  const bus = events
    ? searchInvalidationListener(events, () => publicCache?.clear(), {
        onFailed: (err) =>
          log.warn(
            '[api-client] search cache off: no invalidation bus:',
            err instanceof Error ? err.message : err,
          ),
        // Outside the request that happens to ask first: the subscription outlives it (page-reads.ts).
        run: untracked,
      })
    : undefined
  const listening = () => !bus || bus.listening()
  const ensureListening = () => (bus ? bus.ensure() : Promise.resolve(true))

  function searchInvalidated(path: string) {
    publicCache?.clear()
    if (!events) return
    void events()
      .then((bus) => bus.publish(SEARCH_INVALIDATE_CHANNEL, path.slice(0, 200)))
      .catch((err) => {
        log.warn(
          '[api-client] could not publish search_invalidate:',
          err instanceof Error ? err.message : err,
        )
      })
  }

  /**
   * A public read through the shared cache: `ttlMs` at most, less when `expiresAt` (read from the result) is
   * sooner. Off (straight to the API) when the TTL is 0 or no invalidation can reach this instance.
   */
  function cachedPublic<T>(
    key: string,
    ttlMs: number,
    call: () => Promise<T | undefined>,
    expiresAt?: (value: T) => number | undefined,
  ): Promise<T | undefined> {
    if (!publicCache || ttlMs <= 0) return call()
    if (!listening()) return ensureListening().then((ok) => (ok && listening() ? fromCache() : call()))
    return fromCache()

    function fromCache(): Promise<T | undefined> {
      const cache = publicCache!
      const hit = cache.get(key) as Promise<T | undefined> | undefined
      if (hit) {
        readCached(stillCached(cache, key, hit))
        return hit
      }
      // The call is the entry's, not this request's: the request records the entry (page-reads.ts).
      const result = untracked(call)
      cache.set(key, result, { ttl: ttlMs })
      readCached(stillCached(cache, key, result))
      void result.then(
        (value) => {
          if (cache.get(key) !== result) return
          if (value === undefined) return void cache.delete(key)
          const until = expiresAt?.(value)
          if (until !== undefined) {
            const left = until - Date.now()
            if (left <= 0) cache.delete(key)
            else if (left < ttlMs) cache.set(key, result, { ttl: left })
          }
        },
        () => {
          if (cache.get(key) === result) cache.delete(key)
        },
      )
      return result
    }
  }

  function searchClassWorks(body: ClassWorkSearchBody): Promise<ClassWorkSearchResult | undefined> {
    const key = `search ${JSON.stringify(
      Object.entries(body)
        .filter(([, value]) => value !== undefined)
        .sort(([a], [b]) => a.localeCompare(b)),
    )}`
    return cachedPublic(
      key,
      searchTtlMs,
      () =>
        publicCall(ClassWorkSearchResult, () => ({ method: 'POST', path: '/v1/class_works/search', body })),
      (r) => firstStart(r.items),
    )
  }

  /** A public GET through the cache (class pages, teacher pages, lists, the magazine). */
  function publicGet<S extends z.ZodType>(
    schema: S,
    build: () => ApiRequest,
    expiresAt?: (value: z.output<S>) => number | undefined,
  ): Promise<z.output<S> | undefined> {
    let request: ApiRequest
    try {
      request = build()
    } catch {
      return publicCall(schema, build) // a bad argument: publicCall logs it and answers nothing
    }
    return cachedPublic(
      `get ${request.path} ${JSON.stringify(request.query ?? {})}`,
      publicTtlMs,
      () => publicCall(schema, () => request),
      expiresAt,
    )
  }

  async function authed<S extends z.ZodType>(schema: S, request: ApiRequest): Promise<z.output<S>> {
    let res: ApiResponse
    try {
      res = await send(request)
    } finally {
      // Also when the call failed: the API may have written before the answer was lost.
      if (changesSearchResults(request.method, request.path)) searchInvalidated(request.path)
    }
    if (res.status >= 400) {
      const e = errorOf(res)
      log.warn(`[api-client] ${request.method} ${withoutSecretPaths(request.path)} → ${res.status} ${e.code}`)
      throw new ApiError(res.status, e.code, e.message, { issues: e.issues, retryAfterS: res.retryAfterS })
    }
    return parse(schema, res, request)
  }

  function authedCall<A extends unknown[], S extends z.ZodType>(
    schema: S,
    build: (...args: A) => Omit<ApiRequest, 'token'>,
  ): AuthedCall<A, z.output<S>> {
    return (async (token: string | undefined | null, ...args: A) => {
      if (!token) return undefined
      return authed(schema, { ...build(...args), token })
    }) as AuthedCall<A, z.output<S>>
  }

  /**
   * Public calls log and return undefined when the API refuses (4xx; a 404 is expected and not logged) or answers
   * outside the contract (spec §8). When the API or its database is away (5xx, no answer), they throw: a page
   * must then say "unavailable" (503), not "not found".
   */
  async function publicCall<S extends z.ZodType>(
    schema: S,
    build: () => ApiRequest,
  ): Promise<z.output<S> | undefined> {
    let request: ApiRequest | undefined
    try {
      request = build()
      const res = await send(request)
      if (res.status >= 500) {
        const e = errorOf(res)
        log.error(
          `[api-client] ${request.method} ${withoutSecretPaths(request.path)} → ${res.status} ${e.code}`,
        )
        throw new ApiError(res.status === 503 ? 503 : 502, e.code, e.message)
      }
      // Taken down by an operator (a hidden class, a suspended teacher): the page says so with 410.
      if (res.status === 410) {
        const e = errorOf(res)
        throw new ApiError(410, e.code, e.message)
      }
      if (res.status >= 400) {
        if (res.status !== 404)
          log.error(
            `[api-client] ${request.method} ${withoutSecretPaths(request.path)} → ${res.status} ${errorOf(res).code}`,
          )
        return undefined
      }
      return parse(schema, res, request)
    } catch (err) {
      if (
        err instanceof ApiError &&
        (err.status >= 500 || err.status === 410) &&
        err.code !== 'invalid_response'
      )
        throw err
      // A bad id never reaches the API (nothing to find); a contract mismatch was logged by parse().
      if (request && !(err instanceof ApiError && err.code === 'invalid_response')) {
        log.error(
          `[api-client] ${request.method} ${withoutSecretPaths(request.path)} failed:`,
          err instanceof Error ? err.message : err,
        )
      }
      return undefined
    }
  }

  async function getMe(token: string): Promise<MeResult>
  async function getMe(token: string | undefined | null): Promise<MeResult | undefined>
  async function getMe(token: string | undefined | null): Promise<MeResult | undefined> {
    if (!token) return undefined
    const request: ApiRequest = { method: 'GET', path: '/v1/users/me', token }
    try {
      const res = await send(request)
      if (res.status !== 200) return { status: res.status, ...errorOf(res) }
      return { status: 200, data: parse(User, res, request) }
    } catch (err) {
      if (err instanceof ApiError) return { status: err.status, code: err.code, message: err.message }
      log.error('[api-client] GET /v1/users/me failed:', err)
      return { status: 503, code: 'upstream_unavailable', message: 'サーバーに接続できませんでした' }
    }
  }

  const get = (path: string, query?: ApiRequest['query']): ApiRequest => ({ method: 'GET', path, query })

  // Master lists change only with a deploy, yet almost every page names ids with them: keep each one for a few
  // minutes instead of asking the API on every render. Failures are not cached.
  const masterCache = new Map<MasterKind, { at: number; value: Promise<MasterList | undefined> }>()
  function getMaster(kind: MasterKind): Promise<MasterList | undefined> {
    const fresh = (entry: { at: number }) => Date.now() - entry.at < MASTER_TTL_MS
    const hit = masterCache.get(kind)
    if (hit && fresh(hit)) {
      readCached(() => masterCache.get(kind) === hit && fresh(hit))
      return hit.value
    }
    const value = untracked(() => publicCall(MasterList, () => get(`/v1/master/${kind}`)))
    const entry = { at: Date.now(), value }
    masterCache.set(kind, entry)
    readCached(() => masterCache.get(kind) === entry && fresh(entry))
    void value.then(
      (v) => {
        if (v === undefined) masterCache.delete(kind)
      },
      () => masterCache.delete(kind),
    )
    return value
  }
  const id = (value: number) => {
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new ApiError(400, 'invalid_request', '入力内容に誤りがあります')
    return value
  }
  const roomsWhere = authedCall(RoomList, (which: { roomId?: number; partnerId?: number }) =>
    get('/v1/rooms', {
      room_id: which.roomId === undefined ? undefined : id(which.roomId),
      partner_id: which.partnerId === undefined ? undefined : id(which.partnerId),
    }),
  )

  return {
    // ── authenticated ──
    getMe,
    getDeepMe: authedCall(DeepMe, () => get('/v1/users/deep_me')),
    listFollowings: authedCall(FollowingList, () => get('/v1/users/followings')),
    getOrganizationDeepMe: authedCall(OrganizationDeepMe, () => get('/v1/organizations/deep_me')),
    listOrgUsers: authedCall(OrgUserList, () => get('/v1/org_users')),
    getInvitationCode: authedCall(InvitationCode, () => get('/v1/org_users/invitation_code')),
    listClassAnnouncements: authedCall(ClassAnnouncementList, () => get('/v1/class_announcements')),
    listRooms: authedCall(RoomList, () => get('/v1/rooms')),
    /** One of the caller's rooms, by id or by partner, wherever it stands in their list; undefined when none. */
    findRoom: async (token: string, which: { roomId?: number; partnerId?: number }) => {
      const list = await roomsWhere(token, which)
      // The room asked for, not simply the first: an API that ignored the filter would answer the whole list.
      return list.find((r) => r.id === which.roomId || r.partner.id === which.partnerId)
    },
    unreadMessageCount: authedCall(UnreadMessageCount, () => get('/v1/rooms/unread_count')),
    listRoomMessages: authedCall(MessageList, (roomId: number, before?: number) =>
      get(`/v1/rooms/${id(roomId)}/messages`, { before: before === undefined ? undefined : id(before) }),
    ),
    listDestinations: authedCall(
      DestinationList,
      (candidate: 'teachers' | 'students', partnerId?: number, nickname?: string) =>
        get('/v1/destinations', {
          candidate,
          partner_id: partnerId === undefined ? undefined : id(partnerId),
          q: nickname,
        }),
    ),
    listMyClassWorks: authedCall(MyClassWorkList, (filter: { isPublished?: boolean } = {}) =>
      get('/v1/teachers/my_class_works', { is_published: filter.isPublished }),
    ),
    listScheduleStudents: authedCall(StudentList, (scheduleId: number) =>
      get(`/v1/teachers/my_class_work_schedules/${id(scheduleId)}/students`),
    ),
    getFollowState: authedCall(FollowState, (teacherId: number) =>
      get(`/v1/users/followings/${id(teacherId)}`),
    ),
    followTeacher: authedCall(FollowState, (teacherId: number) => ({
      method: 'POST',
      path: `/v1/users/followings/${id(teacherId)}`,
    })),
    unfollowTeacher: authedCall(FollowState, (teacherId: number) => ({
      method: 'DELETE',
      path: `/v1/users/followings/${id(teacherId)}`,
    })),
    listFavorites: authedCall(FavoriteList, () => get('/v1/users/favorites')),
    adminListNotices: authedCall(AdminNoticeList, (page: number) => get('/v1/admin/notices', { page })),
    adminCreateNotice: authedCall(AdminNotice, (body: CreateNoticeBody, clientAddress?: string) => ({
      method: 'POST',
      path: '/v1/admin/notices',
      body,
      clientAddress,
    })),
    adminWithdrawNotice: authedCall(AdminNotice, (noticeId: number, clientAddress?: string) => ({
      method: 'POST',
      path: `/v1/admin/notices/${id(noticeId)}/withdraw`,
      clientAddress,
    })),
    adminAudit: authedCall(
      AuditPage,
      (query: { action?: string; actor_id?: number; from?: string; to?: string; page?: number }) =>
        get('/v1/admin/audit', query),
    ),
    /** Public, with the member's token when there is one (it adds can_reply / can_report). */
    getClassReviews: (token: string | undefined, classWorkId: number, page: number) => {
      const request = { ...get(`/v1/class_works/${id(classWorkId)}/reviews`, { page }), token }
      // A visitor's page of reviews is the same for every visitor: through the cache of public reads.
      return token
        ? authed(ReviewPage, request)
        : (cachedPublic(`get ${request.path} ${page}`, publicTtlMs, () =>
            authed(ReviewPage, request),
          ) as Promise<z.output<typeof ReviewPage>>)
    },
    createReview: authedCall(CreatedReview, (purchaseId: number, body: CreateReviewBody) => ({
      method: 'POST',
      path: `/v1/purchases/${id(purchaseId)}/review`,
      body,
    })),
    replyReview: authedCall(ReviewReply, (reviewId: number, body: ReplyReviewBody) => ({
      method: 'POST',
      path: `/v1/teachers/reviews/${id(reviewId)}/reply`,
      body,
    })),
    getCalendarSubscription: authedCall(CalendarSubscription, () => get('/v1/users/calendar')),
    regenerateCalendar: authedCall(CalendarSubscription, () => ({
      method: 'POST',
      path: '/v1/users/calendar/regenerate',
    })),
    /** The feed by its secret; undefined when there is no such feed. */
    getCalendarFeed: (token: string) =>
      publicCall(CalendarFeed, () => get(`/v1/calendar_feeds/${encodeURIComponent(token)}`)),
    requestClass: authedCall(ClassRequestReceipt, (classWorkId: number, body: CreateClassRequestBody) => ({
      method: 'POST',
      path: `/v1/class_works/${id(classWorkId)}/requests`,
      body,
    })),
    getMyClassRequest: authedCall(MyClassRequest, (classWorkId: number) =>
      get(`/v1/class_works/${id(classWorkId)}/requests/mine`),
    ),
    listClassRequests: authedCall(ClassRequestList, (classWorkId: number) =>
      get(`/v1/teachers/class_works/${id(classWorkId)}/requests`),
    ),
    joinWaitlist: authedCall(WaitlistReceipt, (scheduleId: number, body: JoinWaitlistBody) => ({
      method: 'POST',
      path: `/v1/class_work_schedules/${id(scheduleId)}/waitlist`,
      body,
    })),
    listWaitlist: authedCall(WaitlistEntryList, () => get('/v1/waitlist')),
    leaveWaitlist: authedCall(WaitlistEntryList, (entryId: number) => ({
      method: 'DELETE',
      path: `/v1/waitlist/${id(entryId)}`,
    })),
    getMyVerification: authedCall(MyVerification, () => get('/v1/users/teacher_verification')),
    submitVerification: authedCall(MyVerification, (body: SubmitVerificationBody) => ({
      method: 'POST',
      path: '/v1/users/teacher_verification',
      body,
    })),
    createReport: authedCall(ReportReceipt, (body: CreateReportBody) => ({
      method: 'POST',
      path: '/v1/reports',
      body,
    })),
    adminListVerifications: authedCall(
      AdminVerificationList,
      (status: 'pending' | 'approved' | 'rejected', page: number = 1) =>
        get('/v1/admin/verifications', { status, page: page > 1 ? page : undefined }),
    ),
    adminVerificationDocument: authedCall(
      VerificationDocument,
      (verificationId: number, kind: 'face' | 'document', clientAddress?: string) => ({
        ...get(`/v1/admin/verifications/${id(verificationId)}/documents/${kind}`),
        clientAddress,
      }),
    ),
    adminDecideVerification: authedCall(
      AdminVerification,
      (verificationId: number, body: DecideVerificationBody, clientAddress?: string) => ({
        method: 'POST',
        path: `/v1/admin/verifications/${id(verificationId)}/decision`,
        body,
        clientAddress,
      }),
    ),
    adminListReports: authedCall(
      AdminReportList,
      (query: Omit<AdminReportQuery, 'page'> & { page?: number }) => get('/v1/admin/reports', query),
    ),
    adminResolveReport: authedCall(
      ResolveReportResult,
      (reportId: number, body: ResolveReportBody, clientAddress?: string) => ({
        method: 'POST',
        path: `/v1/admin/reports/${id(reportId)}/resolve`,
        body,
        clientAddress,
      }),
    ),
    adminHeldMessages: authedCall(HeldMessageList, () => get('/v1/admin/messages')),
    adminListSuspensions: authedCall(AdminSuspensionList, (page: number) =>
      get('/v1/admin/suspensions', { page }),
    ),
    adminLiftSuspension: authedCall(
      LiftSuspensionResult,
      (userId: number, body: LiftSuspensionBody, clientAddress?: string) => ({
        method: 'POST',
        path: `/v1/admin/suspensions/${id(userId)}/lift`,
        body,
        clientAddress,
      }),
    ),
    adminModerateMessage: authedCall(
      ModerationResult,
      (messageId: number, decision: 'release' | 'delete', clientAddress?: string) => ({
        method: 'POST',
        path: `/v1/admin/messages/${id(messageId)}/${decision}`,
        clientAddress,
      }),
    ),
    listNotificationSettings: authedCall(NotificationSettingList, () =>
      get('/v1/users/notification_settings'),
    ),
    updateNotificationSetting: authedCall(NotificationSettingList, (body: UpdateNotificationSettingBody) => ({
      method: 'PUT',
      path: '/v1/users/notification_settings',
      body,
    })),
    /** The target of a mail's unsubscribe link; undefined for a link that is not ours. */
    getUnsubscribe: (token: string) => publicCall(UnsubscribeState, () => get('/v1/unsubscribe', { token })),
    unsubscribe: (token: string) =>
      publicCall(UnsubscribeState, () => ({ method: 'POST', path: '/v1/unsubscribe', body: { token } })),
    getFavoriteState: authedCall(FavoriteState, (classWorkId: number) =>
      get(`/v1/users/favorites/${id(classWorkId)}`),
    ),
    addFavorite: authedCall(FavoriteState, (classWorkId: number) => ({
      method: 'POST',
      path: `/v1/users/favorites/${id(classWorkId)}`,
    })),
    removeFavorite: authedCall(FavoriteState, (classWorkId: number) => ({
      method: 'DELETE',
      path: `/v1/users/favorites/${id(classWorkId)}`,
    })),
    registerUser: authedCall(User, (body: RegisterUserBody) => ({ method: 'POST', path: '/v1/users', body })),
    updateMe: authedCall(User, (body: UpdateUserBody) => ({ method: 'PATCH', path: '/v1/users/me', body })),
    setFurigana: authedCall(FuriganaSetting, (on: boolean) => ({
      method: 'PUT',
      path: '/v1/users/me/furigana',
      body: { furigana: on },
    })),
    // ── learner journey ──
    createPurchase: authedCall(Purchase, (body: CreatePurchaseBody) => ({
      method: 'POST',
      path: '/v1/purchases',
      body,
    })),
    listPurchases: authedCall(PurchaseList, (scope: PurchaseScope) => get('/v1/purchases', { scope })),
    cancelPurchase: authedCall(Purchase, (purchaseId: number) => ({
      method: 'POST',
      path: `/v1/purchases/${id(purchaseId)}/cancel`,
    })),
    // ── checkout, receipts, refunds (issue 17) ──
    getCheckout: authedCall(Checkout, (paymentId: number) => get(`/v1/payments/${id(paymentId)}`)),
    confirmPayment: authedCall(Checkout, (paymentId: number, body: ConfirmPaymentBody) => ({
      method: 'POST',
      path: `/v1/payments/${id(paymentId)}/confirm`,
      body,
    })),
    getPaymentHistory: authedCall(PaymentHistory, (month?: string) => get('/v1/payments', { month })),
    getPaymentReceipt: authedCall(PaymentReceipt, (paymentId: number) =>
      get(`/v1/payments/${id(paymentId)}/receipt`),
    ),
    setReceiptName: authedCall(PaymentReceipt, (paymentId: number, body: ReceiptNameBody) => ({
      method: 'PUT',
      path: `/v1/payments/${id(paymentId)}/receipt/name`,
      body,
    })),
    getPayouts: authedCall(PayoutStatement, (month?: string) => get('/v1/teachers/payouts', { month })),
    getBankAccount: authedCall(BankAccount, () => get('/v1/teachers/bank_account')),
    saveBankAccount: authedCall(BankAccount, (body: BankAccountInput, clientAddress?: string) => ({
      method: 'PUT',
      path: '/v1/teachers/bank_account',
      body,
      clientAddress,
    })),
    listNotices: authedCall(NoticeList, () => get('/v1/notices')),
    getNotice: authedCall(Notice, (noticeId: number) => get(`/v1/notices/${id(noticeId)}`)),
    markNoticeRead: authedCall(ReadResult, (noticeId: number) => ({
      method: 'POST',
      path: `/v1/notices/${id(noticeId)}/read`,
    })),
    getClassAnnouncement: authedCall(ClassAnnouncement, (announcementId: number) =>
      get(`/v1/class_announcements/${id(announcementId)}`),
    ),
    markClassAnnouncementRead: authedCall(ReadResult, (announcementId: number) => ({
      method: 'POST',
      path: `/v1/class_announcements/${id(announcementId)}/read`,
    })),
    /** Opens (or finds) the room with a partner; with `body`, together with its first message. */
    openRoom: authedCall(Room, (partnerId: number, body?: string) => ({
      method: 'POST',
      path: '/v1/rooms',
      body: { partner_id: id(partnerId), ...(body === undefined ? {} : { body }) },
    })),
    sendMessage: authedCall(Message, (roomId: number, body: string) => ({
      method: 'POST',
      path: `/v1/rooms/${id(roomId)}/messages`,
      body: { body },
    })),
    markRoomRead: authedCall(RoomReadResult, (roomId: number) => ({
      method: 'POST',
      path: `/v1/rooms/${id(roomId)}/read`,
    })),
    addLearner: authedCall(Learner, (body: CreateLearnerBody) => ({
      method: 'POST',
      path: '/v1/users/me/learners',
      body,
    })),
    removeLearner: authedCall(z.unknown(), (learnerId: number) => ({
      method: 'DELETE',
      path: `/v1/users/me/learners/${id(learnerId)}`,
    })),
    updateLearner: authedCall(Learner, (learnerId: number, body: UpdateLearnerBody) => ({
      method: 'PATCH',
      path: `/v1/users/me/learners/${id(learnerId)}`,
      body,
    })),
    /** Generic authenticated call for endpoints added later (multipart uploads pass `form`). */
    request: <S extends z.ZodType>(token: string, schema: S, request: Omit<ApiRequest, 'token'>) =>
      authed(schema, { ...request, token }),

    // ── public ──
    /** GET /v1/master/{categories,school_types,professions,class_styles,target_grades,video_content_statuses} */
    getMaster,
    listNewArrivalsByClass: (limit?: number) =>
      publicGet(ClassWorkCardList, () => get('/v1/class_works/new_arrivals_by_class', { limit }), firstStart),
    listCloseToStarts: (limit?: number) =>
      publicGet(
        CloseToStartList,
        () => get('/v1/class_works/close_to_starts', { limit }),
        (rows) => firstStart(rows.map((r) => ({ next_schedule: r.schedule }))),
      ),
    listCloseToStartsByClass: (limit?: number) =>
      publicGet(
        ClassWorkCardList,
        () => get('/v1/class_works/close_to_starts_by_class', { limit }),
        firstStart,
      ),
    searchClassWorks,
    getClassWork: (classWorkId: number) =>
      publicGet(
        ClassWorkDetail,
        () => get(`/v1/class_works/${id(classWorkId)}`),
        (c) =>
          firstStart([
            c,
            ...c.schedules
              .filter((s) => !s.is_canceled && Date.parse(s.started_at) > Date.now())
              .map((s) => ({ next_schedule: s })),
          ]),
      ),
    getTeacher: (teacherId: number) => publicGet(TeacherProfile, () => get(`/v1/teachers/${id(teacherId)}`)),
    /** One page (TEACHER_CLASSES_PER_PAGE) of a teacher's public classes, newest first. */
    listTeacherClassWorks: (teacherId: number, page = 1) =>
      publicGet(
        ClassWorkCardList,
        () => get(`/v1/teachers/${id(teacherId)}/class_works`, page > 1 ? { page } : undefined),
        firstStart,
      ),
    listMagazineArticles: (query: MagazineQuery = {}) =>
      publicGet(ArticlePage, () => get('/v1/magazine_articles', { ...query })),
    getMagazineArticle: (articleId: number) =>
      publicGet(Article, () => get(`/v1/magazine_articles/${id(articleId)}`)),
    /**
     * Furigana of some content (issue 19). A visitor's answer is the same for every visitor: through the cache of
     * public reads, which the ruby.fill job empties when it stores new readings.
     */
    getFurigana: (token: string | undefined, ids: FuriganaIds) => {
      const list = (v: number[] | undefined) => (v && v.length > 0 ? v.join(',') : undefined)
      const query = {
        class_ids: list(ids.class_ids),
        user_ids: list(ids.user_ids),
        announcement_ids: list(ids.announcement_ids),
      }
      const request = { ...get('/v1/furigana', query), token }
      return token
        ? authed(FuriganaMap, request)
        : (cachedPublic(`get /v1/furigana ${JSON.stringify(query)}`, publicTtlMs, () =>
            authed(FuriganaMap, request),
          ) as Promise<FuriganaMap>)
    },
    getRelatedArticles: (articleId: number) =>
      publicGet(RelatedArticles, () => get(`/v1/magazine_articles/${id(articleId)}/related`)),
    getMagazineFacets: () => publicGet(MagazineFacets, () => get('/v1/magazine_articles/facets')),
    getSitemapEntries: (page = 1) =>
      publicCall(SitemapEntries, () => get('/v1/sitemap_entries', { page: page > 1 ? page : undefined })),

    // ── teacher and organisation tools (issue #7) ──
    ...teacherTools(authedCall, get, id),
  }
}

type AuthedCallFactory = <A extends unknown[], S extends z.ZodType>(
  schema: S,
  build: (...args: A) => Omit<ApiRequest, 'token'>,
) => AuthedCall<A, z.output<S>>

/** Class management, sales and organisation management (issue #7). */
function teacherTools(
  authedCall: AuthedCallFactory,
  get: (path: string, query?: ApiRequest['query']) => ApiRequest,
  id: (value: number) => number,
) {
  return {
    getTeacherClassWork: authedCall(TeacherClassWork, (classWorkId: number) =>
      get(`/v1/teachers/class_works/${id(classWorkId)}`),
    ),
    createClassWork: authedCall(TeacherClassWork, (body: ClassWorkInput) => ({
      method: 'POST',
      path: '/v1/teachers/class_works',
      body,
    })),
    updateClassWork: authedCall(TeacherClassWork, (classWorkId: number, body: ClassWorkPatch) => ({
      method: 'PATCH',
      path: `/v1/teachers/class_works/${id(classWorkId)}`,
      body,
    })),
    deleteClassWork: authedCall(Deleted, (classWorkId: number) => ({
      method: 'DELETE',
      path: `/v1/teachers/class_works/${id(classWorkId)}`,
    })),
    addSchedule: authedCall(TeacherSchedule, (classWorkId: number, body: ScheduleInput) => ({
      method: 'POST',
      path: `/v1/teachers/class_works/${id(classWorkId)}/schedules`,
      body,
    })),
    updateSchedule: authedCall(TeacherSchedule, (scheduleId: number, body: SchedulePatch) => ({
      method: 'PATCH',
      path: `/v1/teachers/class_work_schedules/${id(scheduleId)}`,
      body,
    })),
    cancelSchedule: authedCall(ScheduleCancelResult, (scheduleId: number) => ({
      method: 'POST',
      path: `/v1/teachers/class_work_schedules/${id(scheduleId)}/cancel`,
    })),
    postClassAnnouncement: authedCall(
      AnnouncementCreated,
      (classWorkId: number, body: AnnouncementInput) => ({
        method: 'POST',
        path: `/v1/teachers/class_works/${id(classWorkId)}/announcements`,
        body,
      }),
    ),
    getSales: authedCall(SalesReport, (month?: string) => get('/v1/teachers/sales', { month })),
    getReceipt: authedCall(Receipt, (purchaseId: number) =>
      get(`/v1/teachers/sales/purchases/${id(purchaseId)}`),
    ),
    listCustomers: authedCall(CustomerList, () => get('/v1/teachers/customers')),
    getOrganizationSales: authedCall(OrganizationSales, (month?: string) =>
      get('/v1/organizations/me/sales', { month }),
    ),
    createOrganization: authedCall(OrganizationDeepMe, (body: OrganizationInput) => ({
      method: 'POST',
      path: '/v1/organizations',
      body,
    })),
    updateOrganization: authedCall(OrganizationDeepMe, (body: OrganizationPatch) => ({
      method: 'PATCH',
      path: '/v1/organizations/me',
      body,
    })),
    regenerateInvitationCode: authedCall(InvitationCode, () => ({
      method: 'POST',
      path: '/v1/org_users/invitation_code/regenerate',
    })),
    joinOrganization: authedCall(OrganizationDeepMe, (body: JoinOrganizationBody) => ({
      method: 'POST',
      path: '/v1/org_users/join',
      body,
    })),
    leaveOrganization: authedCall(z.unknown(), () => ({ method: 'POST', path: '/v1/org_users/leave' })),
    transferOrgOwnership: authedCall(OrganizationDeepMe, (userId: number) => ({
      method: 'POST',
      path: `/v1/org_users/${id(userId)}/transfer_ownership`,
    })),
    removeOrgUser: authedCall(OrgUserList, (userId: number) => ({
      method: 'DELETE',
      path: `/v1/org_users/${id(userId)}`,
    })),
  }
}

export type ApiClient = ReturnType<typeof createApiClient>
