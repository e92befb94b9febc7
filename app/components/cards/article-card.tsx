import { Link } from '@tanstack/react-router'
import type { ArticleSummary } from '~/contract/v1/magazine'
import { formatDateJa } from '~/lib/format'

const DEFAULT_ARTICLE_IMAGE = '/og-image.png'

/** A magazine article in a list (magazine top, home page picks). The title's link covers the card. */
export function ArticleCard({
  article,
  priority = false,
  headingLevel = 3,
}: {
  article: ArticleSummary
  priority?: boolean
  headingLevel?: 2 | 3
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  return (
    <article
      className="relative flex h-full flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md has-[a:focus-visible]:ring-3 has-[a:focus-visible]:ring-purple-dark"
      data-testid="article-card"
    >
      <img
        src={article.image_url ?? DEFAULT_ARTICLE_IMAGE}
        alt=""
        width={1200}
        height={630}
        loading={priority ? 'eager' : 'lazy'}
        decoding="async"
        {...(priority ? { fetchPriority: 'high' as const } : {})}
        className="aspect-[40/21] w-full bg-base-light object-cover"
      />
      <div className="flex flex-1 flex-col gap-2 p-4">
        <p className="flex items-center gap-2 text-xs text-slate-600">
          <span
            className="rounded-full bg-base-light px-2 py-0.5 font-bold text-base-ink"
            data-testid="article-card-category"
          >
            {article.category}
          </span>
          <time dateTime={article.published_at}>{formatDateJa(article.published_at)}</time>
        </p>
        <Heading className="line-clamp-2 leading-snug font-bold">
          <Link
            to="/magazine/detail/$id"
            params={{ id: String(article.id) }}
            className="after:absolute after:inset-0 after:content-[''] hover:underline focus-visible:outline-none"
          >
            {article.title}
          </Link>
        </Heading>
        <p className="line-clamp-3 text-sm text-slate-700">{article.lead}</p>
      </div>
    </article>
  )
}
