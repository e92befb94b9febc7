import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClassWorkSearchResult } from '../../app/contract/v1/class-works'
import { User } from '../../app/contract/v1/users'
import { users } from '../../app/db/schema'
import { setupApi, type TestApi } from './support/api'
import { accessToken, SUBS, tokenFor } from './support/tokens'

let api: TestApi
beforeAll(async () => {
  api = await setupApi()
})
afterAll(async () => {
  await api?.close()
})

const parentForm = {
  nickname: 'ひなママ',
  name: '田中 陽菜',
  name_kana: 'タナカ ヒナ',
  role: 'parent',
  profession_id: 1,
  learners: [{ nickname: 'ゆうと', school_type_id: 2, target_grade_id: 3 }],
  agreed_to_terms: true,
}

/** Row counts that a refused write must leave as they were. */
const snapshot = async () => ({ users: await api.count('users'), learners: await api.count('learners') })

describe('POST /v1/users (registration)', () => {
  it.each([
    ['missing agreement', { ...parentForm, agreed_to_terms: undefined }],
    ['agreement false', { ...parentForm, agreed_to_terms: false }],
    ['unknown role', { ...parentForm, role: 'admin' }],
    ['parent without profession', { ...parentForm, profession_id: undefined }],
    ['learner without grade', { ...parentForm, role: 'learner', learners: [], school_type_id: 2 }],
    ['learners for a non-parent', { ...parentForm, role: 'teacher' }],
    ['a nickname too long', { ...parentForm, nickname: 'あ'.repeat(21) }],
    ['an empty name', { ...parentForm, name: '   ' }],
    ['kana in kanji', { ...parentForm, name_kana: '田中' }],
    ['control characters', { ...parentForm, nickname: 'ab\u0007c' }],
    ['a wrong type', { ...parentForm, profession_id: '1' }],
    ['an unknown profession', { ...parentForm, profession_id: 999 }],
    [
      'an unknown grade for a child',
      { ...parentForm, learners: [{ nickname: 'x', school_type_id: 2, target_grade_id: 999 }] },
    ],
    [
      'too many children',
      { ...parentForm, learners: Array.from({ length: 11 }, () => parentForm.learners[0]) },
    ],
    ['a huge introduction', { ...parentForm, introduction: 'あ'.repeat(2001) }],
  ])('refuses %s with 400 and writes nothing', async (_name, body) => {
    const before = await snapshot()
    const res = await api.call('POST', '/v1/users', { token: await tokenFor(SUBS.newUser), body })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'invalid_request', message: expect.any(String) })
    expect(await snapshot()).toEqual(before)
  })

  it.each([
    ['a LINE id in the nickname', { ...parentForm, nickname: 'LINE:hanako_mama' }, 'nickname'],
    ['a phone number in the nickname', { ...parentForm, nickname: '09012345678' }, 'nickname'],
    [
      'an e-mail address in the introduction',
      { ...parentForm, introduction: 'hanako@gmail.com まで' },
      'introduction',
    ],
    [
      "an SNS id in a child's nickname",
      { ...parentForm, learners: [{ nickname: '@hanako_12', school_type_id: 2, target_grade_id: 3 }] },
      'learners.0.nickname',
    ],
    ['a LINE id in the name', { ...parentForm, name: '山田 LINE:hanako_mama' }, 'name'],
  ])('refuses %s with 422 contact_info on that field and writes nothing', async (_name, body, field) => {
    const before = await snapshot()
    const res = await api.call('POST', '/v1/users', { token: await tokenFor(SUBS.newUser), body })
    expect(res.status).toBe(422)
    expect(res.body).toMatchObject({
      code: 'contact_info',
      message: expect.stringMatching(/連絡先やSNSのIDは書けません/),
    })
    expect((res.body.issues as { path: string[] }[])[0]!.path.join('.')).toBe(field)
    expect(await snapshot()).toEqual(before)
  })

  it('refuses a nickname that passes for the staff (422 reserved_nickname) and writes nothing', async () => {
    const before = await snapshot()
    const res = await api.call('POST', '/v1/users', {
      token: await tokenFor(SUBS.newUser),
      body: { ...parentForm, nickname: 'まなびのたね運営' },
    })
    expect([res.status, res.body.code]).toEqual([422, 'reserved_nickname'])
    expect((res.body.issues as { path: string[] }[])[0]!.path).toEqual(['nickname'])
    expect(await snapshot()).toEqual(before)
  })

  it('refuses malformed JSON, another media type and an oversized body with 4xx', async () => {
    const before = await snapshot()
    const token = await tokenFor(SUBS.newUser)
    const headers = { 'content-type': 'application/json' }
    expect((await api.call('POST', '/v1/users', { token, rawBody: '{"nickname":', headers })).status).toBe(
      400,
    )
    expect(
      (
        await api.call('POST', '/v1/users', {
          token,
          rawBody: 'x',
          headers: { 'content-type': 'text/plain' },
        })
      ).status,
    ).toBe(415)
    expect(
      (
        await api.call('POST', '/v1/users', {
          token,
          body: { ...parentForm, introduction: 'x'.repeat(70_000) },
        })
      ).status,
    ).toBe(413)
    expect(await snapshot()).toEqual(before)
  })

  it('refuses an unverified e-mail with 403 and writes nothing', async () => {
    const before = await snapshot()
    const res = await api.call('POST', '/v1/users', {
      token: await tokenFor(SUBS.unverified),
      body: parentForm,
    })
    expect(res.status).toBe(403)
    expect(res.body.code).toBe('email_unverified')
    expect(await snapshot()).toEqual(before)
  })

  it('creates the profile from the form and the token claims, then me answers 200', async () => {
    const token = await tokenFor(SUBS.newUser)
    expect((await api.call('GET', '/v1/users/me', { token })).status).toBe(404)
    const before = await snapshot()
    const res = await api.call('POST', '/v1/users', { token, body: { ...parentForm, name: '  田中 陽菜 ' } })
    expect(res.status).toBe(201)
    const user = User.parse(res.body)
    expect(user).toMatchObject({
      sub: SUBS.newUser,
      email: 'new@manabi.example',
      email_verified: true,
      name: '田中 陽菜',
      role: 'parent',
      is_teacher: false,
    })
    expect(await snapshot()).toEqual({ users: before.users + 1, learners: before.learners + 1 })
    const me = await api.call('GET', '/v1/users/me', { token })
    expect(me.status).toBe(200)
    expect(me.body.id).toBe(user.id)
  })

  it('refuses a second registration with 409', async () => {
    const before = await snapshot()
    const res = await api.call('POST', '/v1/users', { token: await tokenFor(SUBS.newUser), body: parentForm })
    expect(res.status).toBe(409)
    expect(res.body.code).toBe('already_registered')
    expect(await snapshot()).toEqual(before)
  })

  it('registers a LINE user without an e-mail, and a learner with a grade', async () => {
    const line = await api.call('POST', '/v1/users', {
      token: await tokenFor(SUBS.line),
      body: { ...parentForm, nickname: 'しょう', learners: [] },
    })
    expect(line.status).toBe(201)
    expect(line.body).toMatchObject({ email: null, email_verified: false })
    const learner = await api.call('POST', '/v1/users', {
      token: await accessToken('test|learner', { email: 'learner@manabi.example', email_verified: true }),
      body: {
        nickname: 'れん',
        name: '高橋 蓮',
        name_kana: 'たかはし れん',
        role: 'learner',
        school_type_id: 3,
        target_grade_id: 8,
        agreed_to_terms: true,
      },
    })
    expect(learner.status).toBe(201)
    expect(learner.body).toMatchObject({ role: 'learner', school_type_id: 3, target_grade_id: 8 })
  })
})

describe('PATCH /v1/users/me', () => {
  it('changes the caller’s profile only', async () => {
    const res = await api.as(SUBS.parent, 'PATCH', '/v1/users/me', {
      introduction: 'よろしくお願いします。\n二児の母です。',
    })
    expect(res.status).toBe(200)
    expect(User.parse(res.body).introduction).toBe('よろしくお願いします。\n二児の母です。')
    const [other] = await api.db.select().from(users).where(eq(users.sub, SUBS.teacher))
    expect(other!.introduction).not.toContain('二児の母')
  })

  it('keeps the class search text in step with a teacher’s nickname', async () => {
    const res = await api.as(SUBS.teacher, 'PATCH', '/v1/users/me', { nickname: 'プログラミングのケン' })
    expect(res.status).toBe(200)
    const found = ClassWorkSearchResult.parse(
      (await api.call('POST', '/v1/class_works/search', { body: { q: 'ぷろぐらみんぐのけん' } })).body,
    )
    expect(found.total).toBeGreaterThan(0)
    for (const c of found.items) expect(c.teacher.nickname).toBe('プログラミングのケン')
  })

  it.each([
    ['an empty body', {}],
    ['an unknown field', { role: 'teacher' }],
    ['a wrong type', { is_teacher: 'yes' }],
    ['an unknown profession', { profession_id: 999 }],
    ['an external avatar URL', { avatar_url: 'https://evil.example/a.png' }],
    ['a nickname too long', { nickname: 'あ'.repeat(200) }],
  ])('refuses %s with 400 and changes nothing', async (_name, body) => {
    const [before] = await api.db.select().from(users).where(eq(users.sub, SUBS.parent))
    const res = await api.as(SUBS.parent, 'PATCH', '/v1/users/me', body)
    expect(res.status).toBe(400)
    const [after] = await api.db.select().from(users).where(eq(users.sub, SUBS.parent))
    expect(after).toEqual(before)
  })
})
