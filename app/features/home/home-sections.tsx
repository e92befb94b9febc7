import { useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { ClassCard } from '~/components/cards/class-card'
import { Ruby } from '~/components/ui/ruby'
import { VerifiedBadge } from '~/components/ui/verified-badge'
import type { ClassCardView } from '~/lib/card-view'
import { seatsLabel } from '~/lib/class-labels'
import { formatPrice, formatShortDateJa, formatTimeJa } from '~/lib/format'
import { homeQuery } from './queries'

function SectionHeader({ id, title, more }: { id: string; title: string; more?: ReactNode }) {
  return (
    <div className="flex items-end justify-between gap-4">
      <h2 id={id} className="text-2xl font-black">
        <Ruby text={title} />
      </h2>
      {more}
    </div>
  )
}

export const moreLink = 'shrink-0 text-sm font-bold text-purple-dark underline'

/** A list of the home page under the first screen: its heading with a link to more, then the list. */
export function ListSection({
  id,
  title,
  more,
  children,
}: {
  id: string
  title: string
  more: ReactNode
  children: ReactNode
}) {
  return (
    <section className="below-fold mx-auto max-w-6xl px-4 py-10" aria-labelledby={id}>
      <SectionHeader id={id} title={title} more={more} />
      {children}
    </section>
  )
}

/** A row of cards: swipes sideways on phones, a grid from sm up. */
function CardRow({ cards, testId }: { cards: ClassCardView[]; testId: string }) {
  return (
    <ul
      className="-mx-4 mt-6 flex snap-x gap-4 overflow-x-auto px-4 pb-2 sm:mx-0 sm:grid sm:grid-cols-2 sm:overflow-visible sm:px-0 md:grid-cols-3 lg:grid-cols-4"
      data-testid={testId}
    >
      {cards.map((c) => (
        <li key={c.id} className="w-64 shrink-0 snap-start sm:w-auto">
          <ClassCard card={c} />
        </li>
      ))}
    </ul>
  )
}

/** The category master list as links into the class search. */
export function CategorySection() {
  const { categories } = useSuspenseQuery(homeQuery()).data
  if (!categories.length) return null
  return (
    <section className="mx-auto max-w-6xl px-4 py-10" aria-labelledby="categories-heading">
      <SectionHeader id="categories-heading" title="カテゴリから探す" />
      <ul
        className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-6"
        data-testid="home-categories"
      >
        {categories.map((c) => (
          <li key={c.id}>
            <Link
              to="/class_search"
              search={{ category: c.id }}
              className="flex h-full items-center justify-center rounded-xl border border-slate-200 bg-white px-3 py-3 text-center text-sm font-bold hover:border-purple-dark hover:text-purple-dark"
            >
              {c.name}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}

/**
 * The next lessons (spec §3 class lists). Each list is its own component so that the page can hydrate each one
 * when it comes into view: on a phone only this one is near the first screen, and the two rows of cards below it
 * are two thirds of the page's elements (docs/decisions/0031).
 */
export function CloseToStartsSection() {
  const { closeToStarts } = useSuspenseQuery(homeQuery()).data
  if (!closeToStarts.length) return null
  return (
    <ListSection
      id="close-heading"
      title="もうすぐ始まる授業"
      more={
        <Link to="/class_search" search={{ sort: 'start' }} className={moreLink}>
          開催日が近い順に見る
        </Link>
      }
    >
      <ul
        className="mt-6 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white"
        data-testid="home-close-to-starts"
      >
        {closeToStarts.map(({ schedule: s, class_work: c }) => {
          const left = s.seats_left
          return (
            <li key={s.id} className="relative flex items-center gap-4 px-4 py-3 hover:bg-light-grey/60">
              <p className="w-20 shrink-0 text-center leading-tight">
                <time dateTime={s.started_at}>
                  <span className="block text-xs text-slate-600">{formatShortDateJa(s.started_at)}</span>
                  <span className="block text-lg font-black text-purple-dark">
                    {formatTimeJa(s.started_at)}
                  </span>
                </time>
              </p>
              <div className="min-w-0 flex-1">
                <h3 className="truncate font-bold">
                  <Link
                    to="/class_search/detail/$id"
                    params={{ id: String(c.id) }}
                    className="after:absolute after:inset-0 after:content-[''] hover:underline"
                  >
                    <Ruby text={c.title} />
                  </Link>
                </h3>
                <p className="truncate text-sm text-slate-700">
                  {c.teacher}
                  {c.teacher_verified ? <VerifiedBadge size="mark" /> : null}・{c.category}・
                  {formatPrice(c.price)}
                </p>
              </div>
              <span
                className={`shrink-0 rounded-full px-3 py-0.5 text-xs font-bold ${
                  left === 0 ? 'bg-red-dark text-white' : 'bg-base-light text-base-ink'
                }`}
              >
                {seatsLabel(left)}
              </span>
            </li>
          )
        })}
      </ul>
    </ListSection>
  )
}

/** New classes (spec §3 class lists). */
export function NewArrivalsSection() {
  const { newArrivals } = useSuspenseQuery(homeQuery()).data
  if (!newArrivals.length) return null
  return (
    <ListSection
      id="new-heading"
      title="新着クラス"
      more={
        <Link to="/class_search" search={{ sort: 'new' }} className={moreLink}>
          新着クラスをもっと見る
        </Link>
      }
    >
      <CardRow cards={newArrivals} testId="home-new-arrivals" />
    </ListSection>
  )
}

/** Classes by their next lesson (spec §3 class lists). */
export function SoonByClassSection() {
  const { closeToStartsByClass } = useSuspenseQuery(homeQuery()).data
  if (!closeToStartsByClass.length) return null
  return (
    <ListSection
      id="soon-heading"
      title="開催が近いクラス"
      more={
        <Link to="/class_search" search={{ sort: 'start' }} className={moreLink}>
          開催が近いクラスをもっと見る
        </Link>
      }
    >
      <CardRow cards={closeToStartsByClass} testId="home-close-to-starts-by-class" />
    </ListSection>
  )
}
