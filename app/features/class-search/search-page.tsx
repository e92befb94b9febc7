import { useSuspenseQuery } from '@tanstack/react-query'
import { Link, useNavigate, useSearch } from '@tanstack/react-router'
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { ClassCard } from '~/components/cards/class-card'
import { Icon } from '~/components/ui/icon'
import { Pagination } from '~/components/ui/pagination'
import { DAY_TIMES, type DayTime, WEEKDAYS, type Weekday } from '~/lib/request-slots'
import {
  activeFilters,
  clearFilters,
  type FilterDraft,
  type FilterNames,
  fromDraft,
  searchKey,
  toDraft,
  withoutFilter,
} from './filters'
import { classSearchQuery, searchOptionsQuery } from './queries'
import { describeResultCount } from './result-count'
import { type ClassSearchParams, ratingMins, type Sort, sortLabels, sorts } from './search-params'

const ROUTE = '/_default/class_search/' as const

/** /class_search: the URL is the whole state (filters, sort, page); every control navigates. */
export function ClassSearchPage() {
  const search = useSearch({ from: ROUTE })
  const { data: result } = useSuspenseQuery(classSearchQuery(search))
  const { data: options } = useSuspenseQuery(searchOptionsQuery())
  const [filtersOpen, setFiltersOpen] = useState(false)
  const filters = activeFilters(search, options)

  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="text-2xl font-black">{search.q ? `「${search.q}」のクラス` : 'クラスを探す'}</h1>
      <div className="mt-6 grid gap-8 lg:grid-cols-[17rem_1fr]">
        <aside aria-labelledby="filters-heading">
          <div className="flex items-center justify-between lg:block">
            <h2 id="filters-heading" className="text-lg font-bold">
              絞り込み
            </h2>
            <button
              type="button"
              className="btn-outline px-4 py-1.5 lg:hidden"
              aria-expanded={filtersOpen}
              aria-controls="class-filters"
              data-testid="filters-toggle"
              onClick={() => setFiltersOpen((v) => !v)}
            >
              <Icon name="tune" className="h-5 w-5" />
              {filtersOpen ? '閉じる' : `条件を変更${filters.length ? `（${filters.length}）` : ''}`}
            </button>
          </div>
          <div id="class-filters" className={`${filtersOpen ? '' : 'hidden'} mt-4 lg:block`}>
            <FilterForm search={search} options={options} onApplied={() => setFiltersOpen(false)} />
          </div>
        </aside>

        <section aria-labelledby="results-heading" className="min-w-0">
          <h2 id="results-heading" className="sr-only">
            検索結果
          </h2>
          {filters.length ? <ActiveFilters search={search} filters={filters} /> : null}
          {result === null ? (
            <p className="rounded-2xl bg-light-grey p-6 text-slate-700" role="alert">
              検索結果を読み込めませんでした。時間をおいてもう一度お試しください。
            </p>
          ) : (
            <>
              <ResultBar
                search={search}
                count={describeResultCount({
                  total: result.total,
                  capped: result.total_capped,
                  page: result.page,
                  perPage: result.per_page,
                  shown: result.items.length,
                })}
              />
              {result.items.length === 0 && result.total > 0 ? (
                // A page past the last (an old link, a hand-edited URL): the results are on earlier pages.
                <div
                  className="mt-6 rounded-2xl border border-dashed border-slate-300 bg-white p-6"
                  data-testid="past-last-page"
                >
                  <p className="font-bold">このページには結果がありません。</p>
                  <Link
                    to="/class_search"
                    search={{ ...search, page: undefined }}
                    className="btn-outline mt-4"
                  >
                    最初のページへ
                  </Link>
                </div>
              ) : result.items.length === 0 ? (
                <EmptyState search={search} filters={filters} />
              ) : (
                <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="search-results">
                  {result.items.map((card, i) => (
                    <li key={card.id}>
                      <ClassCard card={card} priority={i < 2} />
                    </li>
                  ))}
                </ul>
              )}
              <Pagination
                page={result.page}
                totalPages={result.total_pages}
                renderLink={(p, props) => (
                  <Link to="/class_search" search={{ ...search, page: p > 1 ? p : undefined }} {...props} />
                )}
              />
            </>
          )}
        </section>
      </div>
    </div>
  )
}

function ResultBar({
  search,
  count,
}: {
  search: ClassSearchParams
  count: ReturnType<typeof describeResultCount>
}) {
  const navigate = useNavigate()
  const sortId = useId()
  return (
    <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
      <p role="status" data-testid="result-count">
        <span className="text-xl font-black">{count.count}</span>
        {count.unit}
        {count.range ? <span className="ml-2 text-sm text-slate-600">{count.range}</span> : null}
      </p>
      <div className="flex items-center gap-2 text-sm">
        <label htmlFor={sortId} className="font-bold">
          並び順
        </label>
        <select
          id={sortId}
          value={search.sort ?? 'new'}
          data-testid="sort-select"
          className="rounded-lg border border-slate-300 bg-white px-2 py-1.5"
          onChange={(e) => {
            const sort = e.target.value as Sort
            void navigate({
              to: '/class_search',
              search: { ...search, sort: sort === 'new' ? undefined : sort, page: undefined },
            })
          }}
        >
          {sorts.map((s) => (
            <option key={s} value={s}>
              {sortLabels[s]}
            </option>
          ))}
        </select>
      </div>
    </div>
  )
}

function ActiveFilters({
  search,
  filters,
}: {
  search: ClassSearchParams
  filters: ReturnType<typeof activeFilters>
}) {
  return (
    <ul
      className="mb-3 flex flex-wrap items-center gap-2"
      aria-label="指定中の条件"
      data-testid="active-filters"
    >
      {filters.map((f) => (
        <li key={f.key}>
          <Link
            to="/class_search"
            search={withoutFilter(search, f.key)}
            className="inline-flex items-center gap-1 rounded-full bg-base-light px-3 py-1 text-sm font-bold text-base-ink hover:bg-brand/30"
            aria-label={`${f.label}の条件を外す`}
          >
            {f.label}
            <Icon name="close" className="h-4 w-4" />
          </Link>
        </li>
      ))}
      {filters.length > 1 ? (
        <li>
          <Link to="/class_search" search={clearFilters(search)} className="text-sm text-slate-700 underline">
            すべての条件をクリア
          </Link>
        </li>
      ) : null}
    </ul>
  )
}

function EmptyState({
  search,
  filters,
}: {
  search: ClassSearchParams
  filters: ReturnType<typeof activeFilters>
}) {
  return (
    <div
      className="mt-6 rounded-2xl border border-dashed border-slate-300 bg-white p-6"
      data-testid="empty-state"
    >
      <p className="text-lg font-bold">条件に合うクラスが見つかりませんでした。</p>
      {filters.length ? (
        <>
          <p className="mt-2 text-sm text-slate-700">
            条件をひとつ外すと見つかるかもしれません。キーワードを短くしたり、ひらがな・カタカナを変えたりするのもおすすめです。
          </p>
          <ul className="mt-4 flex flex-col gap-2 sm:flex-row sm:flex-wrap">
            {filters.map((f) => (
              <li key={f.key}>
                <Link to="/class_search" search={withoutFilter(search, f.key)} className="btn-outline">
                  {f.label}を外して探す
                </Link>
              </li>
            ))}
            {filters.length > 1 ? (
              <li>
                <Link to="/class_search" search={clearFilters(search)} className="btn-ghost">
                  すべての条件をクリア
                </Link>
              </li>
            ) : null}
          </ul>
        </>
      ) : (
        <p className="mt-2 text-sm text-slate-700">
          公開中のクラスはまだありません。また後でのぞいてみてください。
        </p>
      )}
    </div>
  )
}

const selectClass = 'w-full rounded-lg border border-slate-300 bg-white px-3 py-2'
const inputClass = 'w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2'

/**
 * The filter form. Selects apply at once (the panel stays open for the next change); text, price and date
 * fields apply on Enter or the button (applying while a date is half typed would navigate to the wrong day),
 * which also closes the panel on phones. Navigating resets the page.
 */
function FilterForm({
  search,
  options,
  onApplied,
}: {
  search: ClassSearchParams
  options: FilterNames
  onApplied: () => void
}) {
  const navigate = useNavigate()
  const [draft, setDraft] = useState<FilterDraft>(() => toDraft(search))
  const key = searchKey(search)
  // The search this form navigated to itself: when the URL arrives there, the fields already say so (and may
  // hold newer edits typed meanwhile). Any other change of the URL (back/forward, a link) resets the fields.
  const applied = useRef<string | null>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for search
  useEffect(() => {
    if (key !== applied.current) setDraft(toDraft(search))
    applied.current = null
  }, [key])
  const id = useId()

  const apply = (next: FilterDraft) => {
    const target = fromDraft(next, search)
    applied.current = searchKey(target)
    return navigate({ to: '/class_search', search: target })
  }
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    void apply(draft)
    // On phones the panel covers the results: close it once the person asks to search.
    onApplied()
  }
  const text = (key: keyof FilterDraft) => ({
    id: `${id}-${key}`,
    name: key,
    value: draft[key],
    onChange: (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value })),
  })
  const select = (key: 'category' | 'grade' | 'style' | 'rating_min') => ({
    id: `${id}-${key}`,
    name: key,
    value: draft[key],
    onChange: (e: { target: { value: string } }) => {
      const next = { ...draft, [key]: e.target.value }
      setDraft(next)
      void apply(next)
    },
  })
  /** A weekday or time checkbox: applies at once, like the selects. */
  const check = (key: 'weekday' | 'time', value: string) => {
    const list = draft[key] ? draft[key].split(',') : []
    return {
      checked: list.includes(value),
      onChange: () => {
        const nextList = list.includes(value) ? list.filter((v) => v !== value) : [...list, value]
        const next = { ...draft, [key]: nextList.join(',') }
        setDraft(next)
        void apply(next)
      },
    }
  }
  const label = 'mb-1 block text-sm font-bold'

  return (
    <form
      onSubmit={onSubmit}
      className="flex flex-col gap-4 rounded-2xl bg-light-grey p-4"
      data-testid="filter-form"
    >
      <div>
        <label htmlFor={`${id}-q`} className={label}>
          キーワード
        </label>
        <input {...text('q')} type="search" enterKeyHint="search" maxLength={100} className={inputClass} />
      </div>
      <div>
        <label htmlFor={`${id}-category`} className={label}>
          カテゴリ
        </label>
        <select {...select('category')} className={selectClass}>
          <option value="">すべて</option>
          {options.categories.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-grade`} className={label}>
          対象学年
        </label>
        <select {...select('grade')} className={selectClass}>
          <option value="">すべて</option>
          {options.targetGrades.map((g) => (
            <option key={g.id} value={g.id}>
              {g.name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-style`} className={label}>
          授業形式
        </label>
        <select {...select('style')} className={selectClass}>
          <option value="">すべて</option>
          {options.classStyles.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </div>
      <fieldset>
        <legend className={label}>曜日</legend>
        <div className="flex flex-wrap gap-x-3 gap-y-1" data-testid="weekday-filter">
          {(Object.keys(WEEKDAYS) as Weekday[]).map((d) => (
            <label key={d} className="flex items-center gap-1 text-sm">
              <input type="checkbox" {...check('weekday', d)} />
              {WEEKDAYS[d]}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend className={label}>時間帯</legend>
        <div className="flex flex-wrap gap-x-3 gap-y-1" data-testid="time-filter">
          {(Object.keys(DAY_TIMES) as DayTime[]).map((t) => (
            <label key={t} className="flex items-center gap-1 text-sm">
              <input type="checkbox" {...check('time', t)} />
              {DAY_TIMES[t]}
            </label>
          ))}
        </div>
        <p className="mt-1 text-xs text-slate-600">
          午前は12時まで、午後は17時まで、夕方・夜は17時から（日本時間）
        </p>
      </fieldset>
      <div>
        <label htmlFor={`${id}-rating_min`} className={label}>
          レビューの評価
        </label>
        <select {...select('rating_min')} className={selectClass}>
          <option value="">指定なし</option>
          {ratingMins.map((r) => (
            <option key={r} value={r}>
              ★{r}以上
            </option>
          ))}
        </select>
      </div>
      <fieldset>
        <legend className={label}>料金（円）</legend>
        <div className="flex items-center gap-2">
          <label htmlFor={`${id}-price_min`} className="sr-only">
            料金の下限（円）
          </label>
          <input
            {...text('price_min')}
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            placeholder="下限"
            className={inputClass}
          />
          <span aria-hidden="true">〜</span>
          <label htmlFor={`${id}-price_max`} className="sr-only">
            料金の上限（円）
          </label>
          <input
            {...text('price_max')}
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            placeholder="上限"
            className={inputClass}
          />
        </div>
      </fieldset>
      <fieldset>
        <legend className={label}>開催日</legend>
        <div className="flex flex-col gap-2">
          <label htmlFor={`${id}-from`} className="flex items-center gap-2 text-sm">
            <span className="w-8 shrink-0">から</span>
            <input {...text('from')} type="date" className={inputClass} />
          </label>
          <label htmlFor={`${id}-to`} className="flex items-center gap-2 text-sm">
            <span className="w-8 shrink-0">まで</span>
            <input {...text('to')} type="date" className={inputClass} />
          </label>
        </div>
      </fieldset>
      <button type="submit" className="btn-primary" data-testid="filter-submit">
        <Icon name="search" className="h-5 w-5" />
        この条件で探す
      </button>
    </form>
  )
}
