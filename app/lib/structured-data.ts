import { appConfig } from '../../app.config'
import type { ClassWorkDetail } from '../contract/v1/class-works'
import type { Article } from '../contract/v1/magazine'
import type { Review } from '../contract/v1/reviews'
import type { TeacherProfile } from '../contract/v1/teachers'

/**
 * schema.org JSON-LD of the detail pages, for search engines (a `script:ld+json` entry of the route's head).
 * Absolute URLs come from the site origin; text is plain (TanStack Router escapes the JSON it writes).
 */

type JsonLd = Record<string, unknown>

export const absoluteUrl = (origin: string, path: string) =>
  /^https?:\/\//.test(path) ? path : `${origin}${path.startsWith('/') ? '' : '/'}${path}`

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/** One line of a multi-line text (meta descriptions). */
export function oneLine(text: string, max = 160): string {
  return clip(text.replace(/\s+/g, ' ').trim(), max)
}

/**
 * 本人確認済み in schema.org terms: a credential recognised by the platform (schema.org has no "verified" flag).
 * Only for a teacher an operator approved.
 */
export function verifiedCredential(verified: boolean) {
  return verified
    ? {
        hasCredential: {
          '@type': 'EducationalOccupationalCredential',
          name: '本人確認済み',
          credentialCategory: 'identity verification',
          recognizedBy: { '@type': 'Organization', name: appConfig.siteName },
        },
      }
    : {}
}

/** A class: Course with its upcoming online sessions and its price as an offer. */
export function courseJsonLd(
  origin: string,
  c: ClassWorkDetail,
  now: Date = new Date(),
  reviews: Pick<Review, 'rating' | 'comment' | 'created_at' | 'reviewer'>[] = [],
): JsonLd {
  const url = absoluteUrl(origin, `/class_search/detail/${c.id}`)
  const upcoming = c.schedules
    .filter((s) => !s.is_canceled && new Date(s.started_at).getTime() >= now.getTime())
    .slice(0, 5)
  const provider = c.organization
    ? { '@type': 'Organization', name: c.organization.name }
    : {
        '@type': 'Person',
        name: c.teacher.nickname,
        url: absoluteUrl(origin, `/teacher/detail/${c.teacher.id}`),
        ...verifiedCredential(c.teacher.is_verified),
      }
  return {
    '@context': 'https://schema.org',
    '@type': 'Course',
    name: c.title,
    description: oneLine(c.description, 500),
    url,
    ...(c.image_url ? { image: absoluteUrl(origin, c.image_url) } : {}),
    inLanguage: 'ja',
    provider,
    about: c.category.name,
    educationalLevel: c.target_grades.map((g) => g.name).join('、') || undefined,
    // A course (全N回) takes all its lessons.
    timeRequired: `PT${c.duration_minutes * c.lesson_count}M`,
    ...(c.rating.count > 0 && c.rating.average !== null
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: c.rating.average,
            ratingCount: c.rating.count,
            bestRating: 5,
            worstRating: 1,
          },
          review: reviews.slice(0, 5).map((r) => ({
            '@type': 'Review',
            reviewRating: { '@type': 'Rating', ratingValue: r.rating, bestRating: 5, worstRating: 1 },
            author: { '@type': 'Person', name: r.reviewer.nickname },
            datePublished: r.created_at.slice(0, 10),
            reviewBody: oneLine(r.comment, 500),
          })),
        }
      : {}),
    offers: {
      '@type': 'Offer',
      price: c.price,
      priceCurrency: 'JPY',
      category: c.price === 0 ? 'Free' : 'Paid',
      url,
    },
    ...(upcoming.length
      ? {
          hasCourseInstance: upcoming.map((s) => ({
            '@type': 'CourseInstance',
            courseMode: 'Online',
            startDate: s.started_at,
            endDate: s.ended_at,
            instructor: { '@type': 'Person', name: c.teacher.nickname },
            ...(s.lessons.length > 1
              ? {
                  courseSchedule: {
                    '@type': 'Schedule',
                    repeatCount: s.lessons.length,
                    startDate: s.lessons[0]!.started_at,
                    endDate: s.lessons[s.lessons.length - 1]!.ended_at,
                    duration: `PT${c.duration_minutes}M`,
                  },
                }
              : {}),
          })),
        }
      : {}),
  }
}

/** A teacher's public page: Person, with the profession, organisation and followers. */
export function personJsonLd(origin: string, t: TeacherProfile): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'Person',
    name: t.name,
    alternateName: t.nickname,
    url: absoluteUrl(origin, `/teacher/detail/${t.id}`),
    ...(t.avatar_url ? { image: absoluteUrl(origin, t.avatar_url) } : {}),
    ...(t.introduction ? { description: oneLine(t.introduction, 500) } : {}),
    ...(t.profession ? { jobTitle: t.profession.name } : {}),
    ...(t.organization ? { affiliation: { '@type': 'Organization', name: t.organization.name } } : {}),
    ...verifiedCredential(t.is_verified),
    interactionStatistic: {
      '@type': 'InteractionCounter',
      interactionType: 'https://schema.org/FollowAction',
      userInteractionCount: t.follower_count,
    },
  }
}

/** A magazine article. */
export function articleJsonLd(
  origin: string,
  a: Pick<Article, 'id' | 'title' | 'lead' | 'image_url' | 'category' | 'tags' | 'published_at'>,
): JsonLd {
  const publisher = {
    '@type': 'Organization',
    name: appConfig.magazineName,
    url: absoluteUrl(origin, '/magazine'),
  }
  return {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: clip(a.title, 110),
    description: oneLine(a.lead),
    url: absoluteUrl(origin, `/magazine/detail/${a.id}`),
    mainEntityOfPage: absoluteUrl(origin, `/magazine/detail/${a.id}`),
    ...(a.image_url ? { image: [absoluteUrl(origin, a.image_url)] } : {}),
    datePublished: a.published_at,
    dateModified: a.published_at,
    inLanguage: 'ja',
    articleSection: a.category,
    ...(a.tags.length ? { keywords: a.tags.join(',') } : {}),
    author: publisher,
    publisher,
  }
}
