import { useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { ArticleCard } from '~/components/cards/article-card'
import { ClassCard } from '~/components/cards/class-card'
import { formatDateJa } from '~/lib/format'
import { magazineArticleQuery } from './queries'

/** /magazine/detail/{id}: one article; the body was sanitized on the server (magazine.functions.ts). */
export function ArticleView({ id }: { id: number }) {
  const data = useSuspenseQuery(magazineArticleQuery(id)).data
  if (!data) return null
  const { article: a, related, relatedArticles } = data
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <article data-testid="magazine-article">
        <nav aria-label="パンくずリスト" className="text-sm text-slate-600">
          <ol className="flex flex-wrap items-center gap-1">
            <li>
              <Link to="/magazine" className="hover:underline">
                マガジン
              </Link>
              <span aria-hidden="true"> ›</span>
            </li>
            <li>
              <Link to="/magazine" search={{ category: a.category }} className="hover:underline">
                {a.category}
              </Link>
            </li>
          </ol>
        </nav>
        <header className="mt-4">
          <p className="flex flex-wrap items-center gap-3 text-sm text-slate-600">
            <Link
              to="/magazine"
              search={{ category: a.category }}
              className="rounded-full bg-base-light px-3 py-0.5 font-bold text-base-ink hover:underline"
            >
              {a.category}
            </Link>
            <time dateTime={a.published_at}>{formatDateJa(a.published_at)}</time>
          </p>
          <h1 className="mt-3 text-2xl leading-snug font-black md:text-3xl">{a.title}</h1>
          <p className="mt-4 text-slate-700" data-testid="article-lead">
            {a.lead}
          </p>
        </header>
        {a.image_url ? (
          <img
            src={a.image_url}
            alt=""
            width={1200}
            height={630}
            fetchPriority="high"
            decoding="async"
            className="mt-6 aspect-[40/21] w-full rounded-2xl bg-base-light object-cover"
          />
        ) : null}
        <div
          className="prose-ja mt-8 text-[15px] leading-relaxed"
          data-testid="article-body"
          // Sanitized on the server right before this render (sanitize-html, article markup only).
          dangerouslySetInnerHTML={{ __html: a.body }}
        />
        {a.tags.length ? (
          <ul className="mt-8 flex flex-wrap gap-2" aria-label="タグ" data-testid="article-tags">
            {a.tags.map((t) => (
              <li key={t}>
                <Link
                  to="/magazine"
                  search={{ tag: t }}
                  className="inline-flex rounded-full bg-light-grey px-3 py-1 text-sm text-slate-800 hover:underline"
                >
                  #{t}
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
      </article>

      {related.items.length ? (
        <section aria-labelledby="related-heading" className="mt-12" data-testid="related-classes">
          <h2 id="related-heading" className="text-xl font-bold">
            {related.term ? `「${related.term}」のクラス` : '新着のクラス'}
          </h2>
          <ul className="mt-4 grid gap-4 sm:grid-cols-2 md:grid-cols-3">
            {related.items.map((c) => (
              <li key={c.id}>
                <ClassCard card={c} />
              </li>
            ))}
          </ul>
          {related.term ? (
            <p className="mt-4 text-right text-sm">
              <Link
                to="/class_search"
                search={{ q: related.term }}
                className="font-bold text-purple-dark underline"
              >
                「{related.term}」のクラスをもっと見る
              </Link>
            </p>
          ) : null}
        </section>
      ) : null}

      {relatedArticles.length ? (
        <section aria-labelledby="related-articles-heading" className="mt-12" data-testid="related-articles">
          <h2 id="related-articles-heading" className="text-xl font-bold">
            あわせて読みたい記事
          </h2>
          <ul className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 md:grid-cols-3">
            {relatedArticles.map((r) => (
              <li key={r.id}>
                <ArticleCard article={r} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <p className="mt-12 text-center">
        <Link to="/magazine" className="btn-outline">
          記事一覧へ戻る
        </Link>
      </p>
    </div>
  )
}
