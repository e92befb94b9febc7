import { describe, expect, it } from 'vitest'
import { appConfig } from '../../app.config'
import type { ClassWorkDetail } from '../contract/v1/class-works'
import type { TeacherProfile } from '../contract/v1/teachers'
import { absoluteUrl, articleJsonLd, courseJsonLd, oneLine, personJsonLd } from './structured-data'

const origin = 'https://manabi.example'
const summary = { times_held: 3, counts_purchased: 12, has_reservation: true }
const schedule = (id: number, start: string, canceled = false) => ({
  id,
  started_at: start,
  ended_at: start.replace('T10', 'T11'),
  capacity: 5,
  purchased_count: 1,
  held_count: 0,
  is_canceled: canceled,
  lessons: [{ started_at: start, ended_at: start.replace('T10', 'T11') }],
})

const detail: ClassWorkDetail = {
  id: 12,
  title: 'はじめてのScratch',
  image_url: '/images/classes/01-a.svg',
  price: 0,
  capacity: 5,
  duration_minutes: 60,
  lesson_count: 1,
  category: { id: 1, name: 'プログラミング' },
  class_style: { id: 2, name: 'グループ' },
  target_grades: [
    { id: 3, name: '小学3年' },
    { id: 4, name: '小学4年' },
  ],
  teacher: { id: 7, nickname: 'けんた先生', avatar_url: null, is_verified: true },
  next_schedule: null,
  favorite_count: 2,
  rating: { average: null, count: 0 },
  created_at: '2026-01-01T00:00:00.000Z',
  description: 'ゲームを\nつくろう',
  organization: null,
  schedules: [
    schedule(1, '2026-01-01T10:00:00.000Z'),
    schedule(2, '2026-12-01T10:00:00.000Z', true),
    schedule(3, '2026-12-02T10:00:00.000Z'),
  ],
  summary,
  updated_at: '2026-01-02T00:00:00.000Z',
}

describe('courseJsonLd', () => {
  it('describes the class with its price, provider and upcoming sessions only', () => {
    const ld = courseJsonLd(origin, detail, new Date('2026-06-01T00:00:00Z'))
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Course',
      name: 'はじめてのScratch',
      description: 'ゲームを つくろう',
      url: 'https://manabi.example/class_search/detail/12',
      image: 'https://manabi.example/images/classes/01-a.svg',
      provider: { '@type': 'Person', name: 'けんた先生', url: 'https://manabi.example/teacher/detail/7' },
      offers: { price: 0, priceCurrency: 'JPY', category: 'Free' },
      educationalLevel: '小学3年、小学4年',
      timeRequired: 'PT60M',
    })
    expect(ld.hasCourseInstance).toEqual([
      expect.objectContaining({ courseMode: 'Online', startDate: '2026-12-02T10:00:00.000Z' }),
    ])
  })
  it('describes a course (全N回) by its lessons and total time', () => {
    const lessons = ['2026-12-05', '2026-12-12', '2026-12-19'].map((d) => ({
      started_at: `${d}T01:00:00.000Z`,
      ended_at: `${d}T02:00:00.000Z`,
    }))
    const run = {
      ...schedule(9, '2026-12-05T01:00:00.000Z'),
      ended_at: '2026-12-19T02:00:00.000Z',
      lessons,
    }
    const ld = courseJsonLd(
      origin,
      { ...detail, lesson_count: 3, schedules: [run] },
      new Date('2026-11-01T00:00:00Z'),
    )
    expect(ld.timeRequired).toBe('PT180M')
    expect(ld.hasCourseInstance).toEqual([
      expect.objectContaining({
        startDate: '2026-12-05T01:00:00.000Z',
        endDate: '2026-12-19T02:00:00.000Z',
        courseSchedule: {
          '@type': 'Schedule',
          repeatCount: 3,
          startDate: '2026-12-05T01:00:00.000Z',
          endDate: '2026-12-19T02:00:00.000Z',
          duration: 'PT60M',
        },
      }),
    ])
  })
  it('names the organisation as provider when there is one', () => {
    const ld = courseJsonLd(origin, { ...detail, organization: { id: 1, name: '株式会社みらい' } })
    expect(ld.provider).toEqual({ '@type': 'Organization', name: '株式会社みらい' })
  })
})

describe('personJsonLd', () => {
  it('describes the teacher', () => {
    const t: TeacherProfile = {
      id: 7,
      nickname: 'けんた先生',
      name: '佐藤 健太',
      avatar_url: '/images/avatars/teacher-01.svg',
      introduction: 'こんにちは',
      profession: { id: 1, name: '会社員' },
      organization: null,
      follower_count: 4,
      class_work_count: 2,
      summary,
      is_verified: false,
      rating: { average: 4.5, count: 2 },
    }
    expect(personJsonLd(origin, t)).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Person',
      name: '佐藤 健太',
      alternateName: 'けんた先生',
      url: 'https://manabi.example/teacher/detail/7',
      image: 'https://manabi.example/images/avatars/teacher-01.svg',
      description: 'こんにちは',
      jobTitle: '会社員',
      interactionStatistic: {
        '@type': 'InteractionCounter',
        interactionType: 'https://schema.org/FollowAction',
        userInteractionCount: 4,
      },
    })
  })
})

describe('reviews in JSON-LD', () => {
  it('adds AggregateRating and Review only when there are reviews', () => {
    expect(courseJsonLd(origin, detail)).not.toHaveProperty('aggregateRating')
    const rated = { ...detail, rating: { average: 4.5, count: 2 } }
    const ld = courseJsonLd(origin, rated, new Date('2026-11-01T00:00:00Z'), [
      {
        rating: 5,
        comment: 'とても\n楽しかった',
        created_at: '2026-10-01T10:00:00.000Z',
        reviewer: { nickname: 'はな' },
      },
    ])
    expect(ld.aggregateRating).toEqual({
      '@type': 'AggregateRating',
      ratingValue: 4.5,
      ratingCount: 2,
      bestRating: 5,
      worstRating: 1,
    })
    expect(ld.review).toEqual([
      {
        '@type': 'Review',
        reviewRating: { '@type': 'Rating', ratingValue: 5, bestRating: 5, worstRating: 1 },
        author: { '@type': 'Person', name: 'はな' },
        datePublished: '2026-10-01',
        reviewBody: 'とても 楽しかった',
      },
    ])
  })
})

describe('verified teachers (本人確認済み)', () => {
  it('carries the credential on the class provider and the teacher page, and only when verified', () => {
    const credential = {
      '@type': 'EducationalOccupationalCredential',
      name: '本人確認済み',
      credentialCategory: 'identity verification',
      recognizedBy: { '@type': 'Organization', name: appConfig.siteName },
    }
    expect(courseJsonLd(origin, detail).provider).toMatchObject({ hasCredential: credential })
    const unverified = { ...detail, teacher: { ...detail.teacher, is_verified: false } }
    expect(courseJsonLd(origin, unverified).provider).not.toHaveProperty('hasCredential')
  })
})

describe('articleJsonLd', () => {
  it('describes the article with its publisher', () => {
    const ld = articleJsonLd(origin, {
      id: 3,
      title: 'オンライン授業のコツ',
      lead: 'リード',
      image_url: null,
      category: '学び方',
      tags: ['家庭学習', '準備'],
      published_at: '2026-11-01T00:00:00.000Z',
    })
    expect(ld).toMatchObject({
      '@type': 'Article',
      headline: 'オンライン授業のコツ',
      datePublished: '2026-11-01T00:00:00.000Z',
      keywords: '家庭学習,準備',
      publisher: { '@type': 'Organization', name: 'まなびのたねマガジン' },
    })
    expect(ld).not.toHaveProperty('image')
  })
})

describe('helpers', () => {
  it('absoluteUrl keeps absolute URLs and prefixes paths', () => {
    expect(absoluteUrl(origin, '/a')).toBe('https://manabi.example/a')
    expect(absoluteUrl(origin, 'https://cdn.example/x.png')).toBe('https://cdn.example/x.png')
  })
  it('oneLine collapses white space and clips', () => {
    expect(oneLine('a\n\n b ', 10)).toBe('a b')
    expect(oneLine('あいうえおかきくけこ', 5)).toBe('あいうえ…')
  })
})
