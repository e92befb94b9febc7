/**
 * Mail through a real SMTP server (smtp-server, in process) parsed back with mailparser: what a recipient's mail
 * program sees. Also the database mailbox used without SMTP_URL, and one send per Message-ID.
 */
import type { AddressInfo } from 'node:net'
import { eq, sql } from 'drizzle-orm'
import { type ParsedMail, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { mails, users } from '../../app/db/schema'
import { PermanentJobError } from '../../app/jobs/runner.server'
import { closeMailTransport, sendMail } from '../../app/mail/mailer.server'
import { readUnsubscribeToken } from '../../app/mail/unsubscribe.server'
import { testMailSettings } from './support/mail'
import { openTestDatabase, type TestDatabase } from './support/test-db'

let database: TestDatabase
let server: SMTPServer
let received: ParsedMail[] = []
let envelopes: string[][] = []
let port = 0
/** A real member (mails.user_id points at users). */
let memberId = 0

beforeAll(async () => {
  database = await openTestDatabase()
  const [member] = await database.db.select({ id: users.id }).from(users).limit(1)
  memberId = member!.id
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail)
          envelopes.push(session.envelope.rcptTo.map((r) => r.address))
          callback()
        })
        .catch(callback)
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.server.address() as AddressInfo).port
})
afterAll(async () => {
  closeMailTransport() // its pooled connection would hold the server's close for its idle time
  await new Promise<void>((resolve) => server.close(() => resolve()))
  await database?.close()
})
beforeEach(async () => {
  received = []
  envelopes = []
  await database.db.delete(mails)
})

const settings = (smtp: boolean) => testMailSettings(smtp ? `smtp://127.0.0.1:${port}` : undefined)

const lesson = {
  className: 'はじめてのプログラミング',
  startedAt: '2026-12-05T01:00:00.000Z',
  endedAt: '2026-12-05T02:00:00.000Z',
  attendee: 'はなこ',
}

describe('mail over SMTP', () => {
  it('arrives with a Japanese subject and body, a plain-text part, the footer links and the unsubscribe headers', async () => {
    const sent = await sendMail(database.db, settings(true), {
      messageId: '<purchase-1-confirmed@localhost>',
      to: 'parent@manabi.example',
      userId: memberId,
      template: 'reservation_confirmed',
      props: {
        ...lesson,
        price: 3000,
        cancelDeadline: '2026-12-04T01:00:00.000Z',
        attendanceUrl: 'http://localhost:3000/class_attendance',
      },
    })
    expect(sent).toBe(true)
    expect(received).toHaveLength(1)
    const mail = received[0]!
    expect(envelopes[0]).toEqual(['parent@manabi.example'])
    expect(mail.subject).toBe('予約が確定しました：はじめてのプログラミング')
    expect(mail.from?.value[0]).toEqual({ address: 'no-reply@manabi.example', name: 'まなびのたね' })
    expect(mail.messageId).toBe('<purchase-1-confirmed@localhost>')
    // Times in Asia/Tokyo (01:00Z is 10:00 JST).
    expect(mail.text).toContain('2026/12/5(土) 10:00〜11:00')
    expect(mail.text).toContain('¥3,000')
    expect(mail.text).toContain('2026/12/4(金) 10:00まで')
    expect(mail.text).toContain('はなこ')
    expect(mail.html).toContain('lang="ja"')
    expect(mail.html).toContain('http://localhost:3000/class_attendance')
    expect(mail.text).toContain('http://localhost:3000/notification_settings')
    // RFC 8058 one-click unsubscribe, for this member and this kind only.
    // The raw header line, unfolded (RFC 5322 folding).
    const raw = (name: string) =>
      (mail.headerLines.find((l) => l.key === name)?.line ?? '').replace(/\r?\n[ \t]+/g, ' ')
    const oneClick = /^List-Unsubscribe: <(http:\/\/localhost:3000\/mail\/unsubscribe\?token=([^>]+))>$/.exec(
      raw('list-unsubscribe'),
    )
    expect(oneClick, raw('list-unsubscribe')).not.toBeNull()
    expect(readUnsubscribeToken(settings(true).unsubscribeSecret, decodeURIComponent(oneClick![2]!))).toEqual(
      {
        userId: memberId,
        kind: 'reservation',
      },
    )
    expect(raw('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click')
    // The log row says it went by SMTP.
    const [row] = await database.db.select().from(mails)
    expect(row).toMatchObject({ transport: 'smtp', toAddress: 'parent@manabi.example', kind: 'reservation' })
  })

  it('sends a Message-ID once, however often the job runs', async () => {
    const request = {
      messageId: '<message-7-3@localhost>',
      to: 'teacher@manabi.example',
      userId: memberId,
      template: 'new_message' as const,
      props: { sender: 'はなこママさん', roomUrl: 'http://localhost:3000/message?room=1' },
    }
    expect(await sendMail(database.db, settings(true), request)).toBe(true)
    expect(await sendMail(database.db, settings(true), request)).toBe(false)
    expect(received).toHaveLength(1)
    expect(received[0]!.subject).toBe('はなこママさんからメッセージが届きました')
  })

  describe('when its row cannot be written after the server took the mail', () => {
    /** Fails the first `failures` inserts into mails, as a database blip would. */
    async function failInserts(failures: number) {
      await database.db.execute(sql`create sequence mail_insert_tries`)
      await database.db.execute(
        sql.raw(`create function refuse_mail_insert() returns trigger language plpgsql as $$
          begin if nextval('mail_insert_tries') <= ${failures} then raise exception 'refused for the test'; end if;
          return new; end $$`),
      )
      await database.db.execute(
        sql`create trigger refuse_mail_insert before insert on mails for each row execute function refuse_mail_insert()`,
      )
    }
    afterEach(async () => {
      await database.db.execute(sql`drop trigger if exists refuse_mail_insert on mails`)
      await database.db.execute(sql`drop function if exists refuse_mail_insert()`)
      await database.db.execute(sql`drop sequence if exists mail_insert_tries`)
    })
    const request = {
      messageId: '<message-8-1@localhost>',
      to: 'teacher@manabi.example',
      userId: 0,
      template: 'new_message' as const,
      props: { sender: 'はなこママさん', roomUrl: 'http://localhost:3000/message?room=1' },
    }

    it('a blip: the row is written on a second try and the mail is not sent again', async () => {
      await failInserts(1)
      expect(await sendMail(database.db, settings(true), { ...request, userId: memberId })).toBe(true)
      expect(await sendMail(database.db, settings(true), { ...request, userId: memberId })).toBe(false)
      expect(received).toHaveLength(1)
      expect(await database.db.select({ id: mails.id }).from(mails)).toHaveLength(1)
    })

    it('a longer outage: the job fails for good instead of sending the mail a second time on its retry', async () => {
      await failInserts(1_000)
      await expect(
        sendMail(database.db, settings(true), { ...request, userId: memberId }),
      ).rejects.toBeInstanceOf(PermanentJobError)
      expect(received).toHaveLength(1)
    })
  })

  it('a refund mail cannot be unsubscribed: no link, no header', async () => {
    await sendMail(database.db, settings(true), {
      messageId: '<purchase-9-schedule-canceled@localhost>',
      to: 'parent@manabi.example',
      userId: memberId,
      template: 'schedule_canceled',
      props: { ...lesson, refund: 2500, classUrl: 'http://localhost:3000/class_search/detail/1' },
    })
    const mail = received[0]!
    expect(mail.subject).toBe('【開催中止】はじめてのプログラミング')
    expect(mail.text).toContain('返金額')
    expect(mail.text).toContain('¥2,500')
    expect(mail.headers.get('list-unsubscribe')).toBeUndefined()
    expect(mail.text).not.toContain('配信停止')
  })

  it('an SMTP server that is down fails the send (the job retries) and records nothing', async () => {
    const down = { ...settings(true), smtpUrl: 'smtp://127.0.0.1:9' }
    await expect(
      sendMail(database.db, down, {
        messageId: '<x@localhost>',
        to: 'parent@manabi.example',
        template: 'verify_email',
        props: { verifyUrl: 'http://localhost:3000/idp/verify?token=abc', expiresHours: 24 },
      }),
    ).rejects.toThrow()
    expect(await database.db.select().from(mails)).toEqual([])
  })
})

describe('the database mailbox (no SMTP_URL)', () => {
  it('stores the mail instead of sending it', async () => {
    await sendMail(database.db, settings(false), {
      messageId: '<verify-1@localhost>',
      to: 'new-user@manabi.example',
      template: 'verify_email',
      props: { verifyUrl: 'http://localhost:3000/idp/verify?token=abc', expiresHours: 24 },
    })
    expect(received).toEqual([])
    const [row] = await database.db.select().from(mails).where(eq(mails.messageId, '<verify-1@localhost>'))
    expect(row).toMatchObject({ transport: 'stored', subject: 'メールアドレスの確認', kind: 'verification' })
    expect(row!.text).toContain('http://localhost:3000/idp/verify?token=abc')
    expect(row!.headers).toEqual({})
  })
})
