import { Link } from '@tanstack/react-router'
import type { ClassWorkCard } from '~/contract/v1/class-works'
import { gradesLabel, seatsLabel } from '~/lib/class-labels'
import { formatPrice, formatScheduleJa, seatsLeft } from '~/lib/format'
import { DEFAULT_CLASS_IMAGE, fixedSizeSrcSet, IMAGE_SIZES, responsiveSrcSet } from '~/lib/responsive-image'
import { Ruby } from '../ui/ruby'
import { VerifiedBadge } from '../ui/verified-badge'

const DEFAULT_AVATAR = '/images/avatars/default.svg'

/**
 * A class in a list (home rows, search results, a teacher's classes, related classes). The whole card is one
 * link (the title's link stretches over it), so the teacher's name inside is plain text.
 * `priority` marks a card that is likely on screen at first paint: its image loads eagerly.
 */
export function ClassCard({
  card,
  priority = false,
  headingLevel = 3,
}: {
  card: ClassWorkCard
  priority?: boolean
  headingLevel?: 2 | 3
}) {
  const next = card.next_schedule
  const left = next ? seatsLeft(next) : undefined
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  return (
    <article
      className="relative flex h-full flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md has-[a:focus-visible]:ring-3 has-[a:focus-visible]:ring-purple-dark"
      data-testid="class-card"
    >
      <img
        src={card.image_url ?? DEFAULT_CLASS_IMAGE}
        {...responsiveSrcSet(card.image_url, IMAGE_SIZES.card)}
        alt=""
        width={640}
        height={400}
        loading={priority ? 'eager' : 'lazy'}
        decoding="async"
        {...(priority ? { fetchPriority: 'high' as const } : {})}
        className="aspect-[8/5] w-full bg-base-light object-cover"
      />
      <div className="flex flex-1 flex-col gap-2 p-4">
        <p className="text-xs font-bold text-purple-dark" data-testid="class-card-category">
          {card.category.name}
          <span className="mx-1 text-slate-400" aria-hidden="true">
            ／
          </span>
          {card.class_style.name}
          {card.lesson_count > 1 ? (
            <span
              className="ml-2 rounded bg-purple-dark px-1.5 py-0.5 text-white"
              data-testid="class-card-course"
            >
              全{card.lesson_count}回
            </span>
          ) : null}
        </p>
        <Heading className="line-clamp-2 leading-snug font-bold">
          <Link
            to="/class_search/detail/$id"
            params={{ id: String(card.id) }}
            className="after:absolute after:inset-0 after:content-[''] hover:underline focus-visible:outline-none"
          >
            <Ruby text={card.title} />
          </Link>
        </Heading>
        <p className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-700">
          <img
            src={card.teacher.avatar_url ?? DEFAULT_AVATAR}
            {...fixedSizeSrcSet(card.teacher.avatar_url, 24)}
            alt=""
            width={24}
            height={24}
            loading="lazy"
            decoding="async"
            className="h-6 w-6 rounded-full bg-base-light object-cover"
          />
          <span className="min-w-0 break-words">{card.teacher.nickname}</span>
          {card.teacher.is_verified ? <VerifiedBadge size="xs" /> : null}
        </p>
        <dl className="mt-auto grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
          <dt className="text-slate-600">
            <Ruby>料金</Ruby>
          </dt>
          <dd className="font-bold" data-testid="class-card-price">
            {formatPrice(card.price)}
            {card.lesson_count > 1 && card.price > 0 ? (
              <span className="font-normal text-slate-600">（全{card.lesson_count}回分）</span>
            ) : null}
          </dd>
          {card.rating.count > 0 && card.rating.average !== null ? (
            <>
              <dt className="text-slate-600">
                <Ruby>評価</Ruby>
              </dt>
              <dd data-testid="class-card-rating">
                <span className="text-amber-500" aria-hidden="true">
                  ★
                </span>
                <span className="font-bold">{card.rating.average.toFixed(1)}</span>
                <span className="text-slate-600">（{card.rating.count}件）</span>
              </dd>
            </>
          ) : null}
          <dt className="text-slate-600">
            <Ruby>対象</Ruby>
          </dt>
          <dd>{gradesLabel(card.target_grades)}</dd>
          <dt className="text-slate-600">
            <Ruby text={card.lesson_count > 1 ? '開講' : '次回'} />
          </dt>
          <dd>
            {next ? (
              formatScheduleJa(
                next.lessons[0]?.started_at ?? next.started_at,
                next.lessons[0]?.ended_at ?? next.ended_at,
              )
            ) : (
              <Ruby>日程調整中</Ruby>
            )}
          </dd>
          {left !== undefined ? (
            <>
              <dt className="text-slate-600">
                <Ruby>空き</Ruby>
              </dt>
              <dd className={left === 0 ? 'font-bold text-red-dark' : ''}>{seatsLabel(left)}</dd>
            </>
          ) : null}
        </dl>
      </div>
    </article>
  )
}
