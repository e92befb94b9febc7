import { useSuspenseQuery } from '@tanstack/react-query'
import { Link, useNavigate, useSearch } from '@tanstack/react-router'
import { type FormEvent, useId } from 'react'
import { ArticleCard } from '~/components/cards/article-card'
import { Icon } from '~/components/ui/icon'
import { Pagination } from '~/components/ui/pagination'
import { magazineListQuery } from './queries'
import type { MagazineSearchParams } from './search-params'

const ROUTE = '/_magazine/magazine/' as const

const chip = (active: boolean) =>
  `inline-flex rounded-full px-3 py-1 text-sm font-bold ${
    active
      ? 'bg-purple-dark text-white'
      : 'bg-white text-slate-800 ring-1 ring-slate-300 hover:ring-purple-dark'
  }`

/** /magazine: articles by keyword, category and tag, twelve to a page. */
export function MagazineList() {
  const search = useSearch({ from: ROUTE })
  const { page, facets } = useSuspenseQuery(magazineListQuery(search)).data
  const navigate = useNavigate()
  const qId = useId()
  const filtered = Boolean(search.q || search.category || search.tag)
  const without = (key: keyof MagazineSearchParams): MagazineSearchParams => {
    const { [key]: _removed, page: _page, ...rest } = search
    return rest
  }
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const q = String(new FormData(e.currentTarget).get('q') ?? '')
      .trim()
      .slice(0, 100)
    void navigate({ to: '/magazine', search: { ...without('q'), ...(q ? { q } : {}) } })
  }

  const heading = search.tag
    ? `#${search.tag} の記事`
    : search.category
      ? `${search.category}の記事`
      : search.q
        ? `「${search.q}」の記事`
        : '記事一覧'

  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="text-2xl font-black">{heading}</h1>
      <search className="mt-4 block max-w-xl">
        <form onSubmit={onSubmit} className="relative flex" data-testid="magazine-search">
          <label htmlFor={qId} className="sr-only">
            記事をキーワードで探す
          </label>
          <input
            id={qId}
            name="q"
            type="search"
            key={search.q ?? ''}
            defaultValue={search.q ?? ''}
            maxLength={100}
            enterKeyHint="search"
            placeholder="記事をキーワードで探す"
            className="min-w-0 flex-1 rounded-full border border-slate-300 bg-white py-2 pr-10 pl-4"
          />
          <button
            type="submit"
            aria-label="記事を検索する"
            className="absolute top-1/2 right-1 -translate-y-1/2 rounded-full p-1.5 hover:bg-light-grey"
          >
            <Icon name="search" className="h-5 w-5" />
          </button>
        </form>
      </search>

      {facets.categories.length ? (
        <nav aria-label="カテゴリで絞り込む" className="mt-6">
          <ul className="flex flex-wrap gap-2" data-testid="magazine-categories">
            <li>
              <Link to="/magazine" search={without('category')} className={chip(!search.category)}>
                すべて
              </Link>
            </li>
            {facets.categories.map((c) => (
              <li key={c.name}>
                <Link
                  to="/magazine"
                  search={{ ...without('category'), category: c.name }}
                  className={chip(search.category === c.name)}
                >
                  {c.name}
                  <span className="ml-1 font-normal opacity-80">{c.count}</span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {facets.tags.length ? (
        <nav aria-label="タグで絞り込む" className="mt-3">
          <ul className="flex flex-wrap gap-x-3 gap-y-1 text-sm" data-testid="magazine-tags">
            {facets.tags.map((t) => (
              <li key={t.name}>
                <Link
                  to="/magazine"
                  search={search.tag === t.name ? without('tag') : { ...without('tag'), tag: t.name }}
                  className={
                    search.tag === t.name
                      ? 'font-bold text-purple-dark underline'
                      : 'text-slate-700 hover:underline'
                  }
                >
                  #{t.name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}

      {filtered ? (
        <p className="mt-4 text-sm">
          <Link to="/magazine" className="text-purple-dark underline">
            条件をクリアしてすべての記事を見る
          </Link>
        </p>
      ) : null}

      <section aria-labelledby="articles-heading" className="mt-6">
        <h2 id="articles-heading" className="sr-only">
          記事
        </h2>
        {page === null ? (
          <p className="rounded-2xl bg-light-grey p-6 text-slate-700" role="alert">
            記事を読み込めませんでした。時間をおいてもう一度お試しください。
          </p>
        ) : page.items.length === 0 && page.total > 0 ? (
          // A page past the last (an old link, a hand-edited URL): the articles are on earlier pages.
          <div
            className="rounded-2xl border border-dashed border-slate-300 bg-white p-6"
            data-testid="past-last-page"
          >
            <p className="font-bold">このページには記事がありません。</p>
            <Link to="/magazine" search={{ ...search, page: undefined }} className="btn-outline mt-4">
              最初のページへ
            </Link>
          </div>
        ) : page.items.length === 0 ? (
          <div
            className="rounded-2xl border border-dashed border-slate-300 bg-white p-6"
            data-testid="magazine-empty"
          >
            <p className="text-lg font-bold">条件に合う記事が見つかりませんでした。</p>
            <p className="mt-2 text-sm text-slate-700">
              キーワードを変えるか、カテゴリ・タグの指定を外してみてください。
            </p>
          </div>
        ) : (
          <>
            <p className="text-sm text-slate-700" role="status" data-testid="magazine-count">
              {page.total}件の記事
            </p>
            <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="magazine-articles">
              {page.items.map((a, i) => (
                <li key={a.id}>
                  <ArticleCard article={a} priority={i === 0} />
                </li>
              ))}
            </ul>
            <Pagination
              page={page.page}
              totalPages={page.total_pages}
              renderLink={(p, props) => (
                <Link to="/magazine" search={{ ...search, page: p > 1 ? p : undefined }} {...props} />
              )}
            />
          </>
        )}
      </section>
    </div>
  )
}
