import { useEffect, useState } from 'react'
import { showErrorSnackbar, showSnackbar } from '../shell/ui-store'
import { useSite } from '../shell/use-site'

/**
 * Share a class or teacher page (issue 16): LINE, X and copying the link; on phones with the Web Share API, the
 * system's share sheet too (shown after hydration, since the server cannot know the browser).
 */
export function ShareButtons({ path, text }: { path: string; text: string }) {
  const url = `${useSite().siteOrigin}${path}`
  const [canShare, setCanShare] = useState(false)
  useEffect(() => {
    setCanShare(typeof navigator !== 'undefined' && typeof navigator.share === 'function')
  }, [])
  const line = `https://social-plugins.line.me/lineit/share?${new URLSearchParams({ url })}`
  const x = `https://x.com/intent/post?${new URLSearchParams({ text, url })}`
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url)
      showSnackbar({ message: 'リンクをコピーしました' })
    } catch {
      showErrorSnackbar('コピーできませんでした')
    }
  }
  const item = 'btn-ghost px-3 py-1.5 text-sm'
  return (
    <div className="flex flex-wrap items-center gap-1" data-testid="share-buttons">
      <span className="text-sm font-bold text-slate-700">シェア</span>
      {canShare ? (
        <button
          type="button"
          className={item}
          onClick={() => navigator.share({ title: text, url }).catch(() => {})}
          data-testid="share-native"
        >
          共有…
        </button>
      ) : null}
      <a href={line} target="_blank" rel="noopener noreferrer" className={item} data-testid="share-line">
        LINE
      </a>
      <a href={x} target="_blank" rel="noopener noreferrer" className={item} data-testid="share-x">
        X
      </a>
      <button type="button" className={item} onClick={copy} data-testid="share-copy">
        リンクをコピー
      </button>
    </div>
  )
}
