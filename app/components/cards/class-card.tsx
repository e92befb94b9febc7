import { Link } from '@tanstack/react-router'
import type { ClassCardView } from '~/lib/card-view'
import { seatsLabel } from '~/lib/class-labels'
import { formatPrice, formatScheduleJa } from '~/lib/format'
import {
  DEFAULT_AVATAR,
  DEFAULT_CLASS_IMAGE,
  fixedSizeSrcSet,
  IMAGE_SIZES,
  responsiveSrcSet,
} from '~/lib/responsive-image'
import { Ruby } from '../ui/ruby'
import { VerifiedBadge } from '../ui/verified-badge'

/**
 * A class in a list (home rows, search results, a teacher's classes, related classes). The whole card is one
 * link (the title's link stretches over it), so the teacher's name inside is plain text. Its styles are the
 * `.class-card` rules of app/styles.css: a page repeats the card up to 20 times.
 * `priority` marks a card that is likely on screen at first paint: its image loads eagerly.
 */
export function ClassCard({
  card,
  priority = false,
  headingLevel = 3,
}: {
  card: ClassCardView
  priority?: boolean
  headingLevel?: 2 | 3
}) {
  const next = card.next
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  return (
    <article className="class-card" data-testid="class-card">
      <img
        src={card.image_url ?? DEFAULT_CLASS_IMAGE}
        {...responsiveSrcSet(card.image_url, IMAGE_SIZES.card)}
        alt=""
        width={640}
        height={400}
        loading={priority ? 'eager' : 'lazy'}
        decoding="async"
        {...(priority ? { fetchPriority: 'high' as const } : {})}
      />
      <div>
        <p className="class-card-kind" data-testid="class-card-category">
          {card.category}
          <span className="mx-1 text-slate-400" aria-hidden="true">
            ／
          </span>
          {card.style}
          {card.lesson_count > 1 ? (
            <span
              className="ml-2 rounded bg-purple-dark px-1.5 py-0.5 text-white"
              data-testid="class-card-course"
            >
              全{card.lesson_count}回
            </span>
          ) : null}
        </p>
        <Heading className="class-card-title">
          <Link to="/class_search/detail/$id" params={{ id: String(card.id) }}>
            <Ruby text={card.title} />
          </Link>
        </Heading>
        <p className="class-card-teacher">
          <img
            src={card.teacher.avatar_url ?? DEFAULT_AVATAR}
            {...fixedSizeSrcSet(card.teacher.avatar_url, 24)}
            alt=""
            width={24}
            height={24}
            loading="lazy"
            decoding="async"
          />
          <span className="min-w-0 break-words">{card.teacher.nickname}</span>
          {card.teacher.is_verified ? <VerifiedBadge size="xs" /> : null}
        </p>
        <dl className="class-card-facts">
          <dt>
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
              <dt>
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
          <dt>
            <Ruby>対象</Ruby>
          </dt>
          <dd>{card.grades}</dd>
          <dt>
            <Ruby text={card.lesson_count > 1 ? '開講' : '次回'} />
          </dt>
          <dd>{next ? formatScheduleJa(next.started_at, next.ended_at) : <Ruby>日程調整中</Ruby>}</dd>
          {next ? (
            <>
              <dt>
                <Ruby>空き</Ruby>
              </dt>
              <dd className={next.seats_left === 0 ? 'font-bold text-red-dark' : undefined}>
                {seatsLabel(next.seats_left)}
              </dd>
            </>
          ) : null}
        </dl>
      </div>
    </article>
  )
}
