/**
 * Every rate limit of the app, in one place (issue #13). A limit allows `points` actions per `durationS` seconds
 * for one key; past it the caller gets 429 with Retry-After until the window ends. Counters live in the database
 * (app/db/rate-limit.ts), so every instance counts together.
 */
export interface Limit {
  points: number
  durationS: number
}

export const LIMITS = {
  /** Password attempts for one account (normalised e-mail), whatever the address. */
  passwordPerAccount: { points: 5, durationS: 15 * 60 },
  /** Password attempts from one client address, whatever the account. */
  passwordPerAddress: { points: 20, durationS: 15 * 60 },
  /** New accounts (each one sends its verification mail) from one client address. */
  signupPerAddress: { points: 5, durationS: 60 * 60 },
  /** Confirmation mails sent again for one account (the sign-up page's 再送). */
  verificationMailPerAccount: { points: 3, durationS: 60 * 60 },
  /** Confirmation mails sent again from one client address, whatever the account. */
  verificationMailPerAddress: { points: 10, durationS: 60 * 60 },
  /** Messages sent by one member. */
  messagesPerMember: { points: 10, durationS: 60 },
  /** Reports (通報) by one member: enough for a real problem, too few to flood the operators. */
  reportsPerMember: { points: 10, durationS: 60 * 60 },
  /**
   * Refused cards of one member (issue 17): after this many, no card is tried for the rest of the window — a
   * stolen-card tester is stopped, a parent who mistyped is not, and paying many lessons never counts.
   */
  paymentDeclines: { points: 5, durationS: 10 * 60 },
  /**
   * Images one member uploads (avatars, class images): each is decoded and re-encoded with sharp and stored. Enough
   * for a teacher trying crops on several classes in an hour, too few to fill the store or the CPU from one account.
   */
  imageUploadsPerMember: { points: 30, durationS: 60 * 60 },
  /** Class announcements (お知らせ) of one teacher: each one mails every booked family. */
  announcementsPerTeacher: { points: 10, durationS: 60 * 60 },
  /** Authenticated /v1 calls of API clients with one access token (the BFF's in-process calls are not counted). */
  apiPerToken: { points: 600, durationS: 60 },
} as const satisfies Record<string, Limit>

export type LimitName = keyof typeof LIMITS

export const RATE_LIMITED_MESSAGE = '試行回数が多すぎます。しばらくしてからもう一度お試しください'
