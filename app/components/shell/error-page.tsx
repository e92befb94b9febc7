import { isNotFound, Link, useLocation } from '@tanstack/react-router'
import { appConfig } from '../../../app.config'
import { Icon } from '../ui/icon'
import { NOT_FOUND_TITLE } from './error-titles'

// Loaded on demand through ./lazy-error-page.

export type NotFoundVariant = 'class' | 'magazine' | 'page'

export function notFoundVariant(pathname: string): NotFoundVariant {
  if (pathname.startsWith('/class_search/detail/')) return 'class'
  if (pathname.startsWith('/magazine/detail/')) return 'magazine'
  return 'page'
}

/** The HTTP-like status of a thrown error: its `status`/`statusCode`, else 500. */
export function errorStatus(error: unknown): number {
  if (isNotFound(error)) return 404
  if (error && typeof error === 'object') {
    const e = error as { status?: unknown; statusCode?: unknown }
    const s = Number(e.status ?? e.statusCode)
    if (Number.isInteger(s) && s >= 400 && s <= 599) return s
  }
  return 500
}

function Frame({ children }: { children: React.ReactNode }) {
  return <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-16 text-center">{children}</div>
}

/** 404 (spec §2) with its three variants: class detail, magazine detail, anything else. */
export function NotFoundView({ pathname }: { pathname?: string }) {
  const location = useLocation()
  const path = pathname ?? location.pathname
  const variant = notFoundVariant(path)
  return (
    <Frame>
      <img src="/images/not-found.svg" alt="" width={240} height={180} className="h-auto w-60" />
      <h1 className="mt-6 text-xl font-bold">{NOT_FOUND_TITLE}</h1>
      <p className="mt-1 text-xs text-slate-600" data-testid="not-found-message">
        Page not found: {path}
      </p>
      {variant === 'class' ? (
        <>
          <p className="mt-4 text-sm text-slate-700">
            お探しのクラスは見つかりませんでした。削除されたか、存在しないクラスの可能性があります。
          </p>
          <a href="/class_search" className="btn-primary mt-8">
            クラスを探すTOPへ
          </a>
        </>
      ) : variant === 'magazine' ? (
        <>
          <p className="mt-4 text-sm text-slate-700">
            お探しの記事は見つかりませんでした。削除されたか、公開が終了した可能性があります。
          </p>
          <a href="/magazine" className="btn-primary mt-8">
            マガジンTOPへ
          </a>
        </>
      ) : (
        <>
          <p className="mt-4 text-sm text-slate-700">
            お探しのページは見つかりませんでした。URLが間違っているか、ページが移動・削除された可能性があります。
          </p>
          <Link to="/" className="btn-primary mt-8">
            トップページへ
          </Link>
        </>
      )}
    </Frame>
  )
}

/** 500 and other errors (spec §2). */
export function ErrorView({ error }: { error: unknown }) {
  const status = errorStatus(error)
  if (status === 404) return <NotFoundView />
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : ''
  if (status >= 500) {
    return (
      <Frame>
        <p className="text-5xl font-black text-red-dark" data-testid="error-status">
          {status}
        </p>
        {message ? <p className="mt-4 text-sm text-slate-700">{message}</p> : null}
        <h1 className="mt-4 text-xl font-bold">サーバーで問題が発生しました。</h1>
        <div className="mt-8 flex flex-col gap-3 sm:flex-row">
          <button type="button" className="btn-primary" onClick={() => window.location.reload()}>
            <Icon name="reload" className="h-5 w-5" />
            再読み込み
          </button>
          <a
            href={appConfig.helpLinks.contactForm}
            target="_blank"
            rel="noopener noreferrer"
            className="btn-outline"
          >
            お問い合わせフォーム
          </a>
          <Link to="/" className="btn-ghost">
            トップページへ
          </Link>
        </div>
      </Frame>
    )
  }
  return (
    <Frame>
      <h1 className="text-xl font-bold">エラーが発生しました。</h1>
      {message ? <p className="mt-4 text-sm text-slate-700">{message}</p> : null}
      <Link to="/" className="btn-primary mt-8">
        トップページへ
      </Link>
    </Frame>
  )
}
