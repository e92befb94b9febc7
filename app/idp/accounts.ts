import { createHash, randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { promisify } from 'node:util'

/**
 * Accounts of the embedded identity provider: the fixed demo accounts (docs PRODUCT.md, "Demo accounts") and the
 * accounts created on its sign-up page, kept in `${dataDir}/idp/accounts.json`.
 */

export interface IdpAccount {
  sub: string
  email?: string
  email_verified?: boolean
  name: string
  nickname: string
  picture?: string
  /** Epoch seconds. */
  updated_at: number
}

export interface DemoAccount extends IdpAccount {
  /** What the account shows in the demo (Japanese, for the sign-in page). */
  description: string
}

interface StoredAccount extends IdpAccount {
  passwordHash: string
  verifyTokenHash?: string
  verifyTokenExpiresAt?: number
  createdAt: number
}

const DEMO_UPDATED_AT = 1_735_657_200 // 2025-01-01T00:00:00+09:00

/** Exactly the accounts in PRODUCT.md; demo content in the database uses the same subs and e-mail addresses. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    sub: 'demo|parent',
    email: 'parent@manabi.example',
    email_verified: true,
    name: '山田 花子',
    nickname: 'はなこ',
    description: '保護者・登録済み（お子さま2人、予約・フォロー・メッセージあり）',
    updated_at: DEMO_UPDATED_AT,
  },
  {
    sub: 'demo|teacher',
    email: 'teacher@manabi.example',
    email_verified: true,
    name: '佐藤 健太',
    nickname: 'けんた先生',
    description: '先生・登録済み（公開中・非公開のクラス、受講者、売上あり）',
    updated_at: DEMO_UPDATED_AT,
  },
  {
    sub: 'demo|org-owner',
    email: 'owner@manabi.example',
    email_verified: true,
    name: '鈴木 美咲',
    nickname: 'みさき先生',
    description: '団体オーナー・先生（メンバーのいる団体を運営）',
    updated_at: DEMO_UPDATED_AT,
  },
  {
    sub: 'demo|operator',
    email: 'operator@manabi.example',
    email_verified: true,
    name: '中村 真理',
    nickname: '運営スタッフ',
    description: '運営（本人確認・通報・お知らせ・監査ログの管理画面を使えます）',
    updated_at: DEMO_UPDATED_AT,
  },
  {
    sub: 'demo|new',
    email: 'new@manabi.example',
    email_verified: true,
    name: '田中 陽菜',
    nickname: 'ひな',
    description: '新規ユーザー（メール確認済み・プロフィール未登録）',
    updated_at: DEMO_UPDATED_AT,
  },
  {
    sub: 'demo|unverified',
    email: 'unverified@manabi.example',
    email_verified: false,
    name: '高橋 蓮',
    nickname: 'れん',
    description: 'メール未確認のユーザー（プロフィール未登録）',
    updated_at: DEMO_UPDATED_AT,
  },
  {
    sub: 'line|U0000000000demo',
    name: '伊藤 翔',
    nickname: 'しょう',
    description: 'LINEでログインしたユーザー（メールアドレスなし・プロフィール未登録）',
    updated_at: DEMO_UPDATED_AT,
  },
]

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
) => Promise<Buffer>
export const VERIFY_TOKEN_TTL_MS = 24 * 60 * 60 * 1000

export const MIN_PASSWORD_LENGTH = 8
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}

export function isValidEmail(email: string): boolean {
  return email.length <= 254 && EMAIL_PATTERN.test(email)
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url')

async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const hash = await scrypt(password, salt, 32)
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`
}

async function checkPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64url')
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length)
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

function publicView(account: StoredAccount | DemoAccount): IdpAccount {
  const { sub, email, email_verified, name, nickname, picture, updated_at } = account
  return { sub, email, email_verified, name, nickname, picture, updated_at }
}

export class SignUpError extends Error {
  override name = 'SignUpError'
}

export class AccountStore {
  readonly #file: string | undefined
  #accounts: StoredAccount[] | undefined

  /** `file`: where signed-up accounts persist; omit for memory only (tests). */
  constructor(file?: string) {
    this.#file = file
  }

  #load(): StoredAccount[] {
    if (this.#accounts) return this.#accounts
    let accounts: StoredAccount[] = []
    if (this.#file) {
      try {
        const parsed = JSON.parse(readFileSync(this.#file, 'utf8')) as { accounts?: StoredAccount[] }
        accounts = Array.isArray(parsed.accounts) ? parsed.accounts : []
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      }
    }
    this.#accounts = accounts
    return accounts
  }

  #save(): void {
    if (!this.#file) return
    mkdirSync(dirname(this.#file), { recursive: true, mode: 0o700 })
    const tmp = `${this.#file}.${process.pid}.tmp`
    writeFileSync(tmp, `${JSON.stringify({ accounts: this.#load() }, null, 2)}\n`, { mode: 0o600 })
    renameSync(tmp, this.#file)
  }

  find(sub: string): IdpAccount | undefined {
    const demo = DEMO_ACCOUNTS.find((a) => a.sub === sub)
    if (demo) return publicView(demo)
    const stored = this.#load().find((a) => a.sub === sub)
    return stored ? publicView(stored) : undefined
  }

  /** A demo account named by its e-mail address or its sub (the IDP_TEST_LOGIN login_hint). */
  findDemoByHint(hint: string): DemoAccount | undefined {
    const value = hint.trim()
    const email = normalizeEmail(value)
    return DEMO_ACCOUNTS.find((a) => a.sub === value || (a.email !== undefined && a.email === email))
  }

  findDemo(sub: string): DemoAccount | undefined {
    return DEMO_ACCOUNTS.find((a) => a.sub === sub)
  }

  /** Creates an account with an unverified e-mail; returns it with the token of its confirmation link. */
  async signUp(input: { email: string; password: string; nickname?: string }, now = Date.now()) {
    const email = normalizeEmail(input.email)
    if (!isValidEmail(email)) throw new SignUpError('メールアドレスの形式が正しくありません。')
    if (input.password.length < MIN_PASSWORD_LENGTH) {
      throw new SignUpError(`パスワードは${MIN_PASSWORD_LENGTH}文字以上で入力してください。`)
    }
    const taken = () => {
      if (DEMO_ACCOUNTS.some((a) => a.email === email)) return true
      const accounts = this.#load()
      const i = accounts.findIndex((a) => a.email === email)
      if (i < 0) return false
      // Signed up and never confirmed, its link expired: the address is free again. Held for good, a mistyped or
      // squatted address would lock its owner out (such an account has no profile: registering needs the link).
      const old = accounts[i]!
      if (old.email_verified || (old.verifyTokenExpiresAt ?? Number.POSITIVE_INFINITY) > now) return true
      accounts.splice(i, 1)
      return false
    }
    if (taken()) throw new SignUpError('このメールアドレスはすでに登録されています。')
    const nickname = input.nickname?.trim().slice(0, 40) || email.split('@')[0]!.slice(0, 40)
    const verifyToken = randomBytes(24).toString('base64url')
    const passwordHash = await hashPassword(input.password)
    // Again after the hash, with no wait until the save: a second submit of the form arrived during it.
    if (taken()) throw new SignUpError('このメールアドレスはすでに登録されています。')
    const account: StoredAccount = {
      sub: `auth0|${randomBytes(12).toString('hex')}`,
      email,
      email_verified: false,
      name: nickname,
      nickname,
      updated_at: Math.floor(now / 1000),
      passwordHash,
      verifyTokenHash: hashToken(verifyToken),
      verifyTokenExpiresAt: now + VERIFY_TOKEN_TTL_MS,
      createdAt: now,
    }
    this.#load().push(account)
    this.#save()
    return { account: publicView(account), verifyToken }
  }

  /** The signed-up account with this e-mail and password. Demo accounts have no password. */
  async authenticate(email: string, password: string): Promise<IdpAccount | undefined> {
    const normalized = normalizeEmail(email)
    const stored = this.#load().find((a) => a.email === normalized)
    if (!stored) {
      // Same cost as a real check, so the response time does not reveal which addresses exist.
      await checkPassword(
        password,
        'scrypt$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      )
      return undefined
    }
    return (await checkPassword(password, stored.passwordHash)) ? publicView(stored) : undefined
  }

  /**
   * A new confirmation link for an account whose address is not verified yet (the previous link stops working);
   * undefined for an unknown or already verified address, or once the day after its sign-up is over. The link ends
   * with that day however often it is sent again: 再送 needs no sign-in, and anyone's daily resend would otherwise
   * hold a stranger's address for good (0045).
   */
  renewVerifyToken(
    email: string,
    now = Date.now(),
  ): { account: IdpAccount; verifyToken: string } | undefined {
    const stored = this.#load().find((a) => a.email === normalizeEmail(email))
    if (!stored || stored.email_verified || !stored.passwordHash) return undefined
    const ends = (stored.createdAt ?? now) + VERIFY_TOKEN_TTL_MS
    if (ends <= now) return undefined
    const verifyToken = randomBytes(24).toString('base64url')
    stored.verifyTokenHash = hashToken(verifyToken)
    stored.verifyTokenExpiresAt = ends
    this.#save()
    return { account: publicView(stored), verifyToken }
  }

  /** Marks the e-mail address verified; undefined when the token is unknown, used or expired. */
  verifyEmail(token: string, now = Date.now()): IdpAccount | undefined {
    if (!token) return undefined
    const hash = hashToken(token)
    const stored = this.#load().find((a) => a.verifyTokenHash === hash)
    if (!stored || (stored.verifyTokenExpiresAt ?? 0) < now) return undefined
    stored.email_verified = true
    stored.updated_at = Math.floor(now / 1000)
    stored.verifyTokenHash = undefined
    stored.verifyTokenExpiresAt = undefined
    this.#save()
    return publicView(stored)
  }
}
