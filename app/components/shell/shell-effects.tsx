import { useRouter } from '@tanstack/react-router'
import { useEffect } from 'react'
import { isChunkLoadError, shouldReloadForChunkError } from '~/lib/chunk-reload'
import { appConfig } from '../../../app.config'
import { scrollClasses, scrollToAnchor } from './scroll'
import { PAGE_LOADING_KEY, setMenuOpen, startLoading, stopLoading } from './ui-store'

const CHUNK_RELOAD_KEY = 'manabi:chunk-reload-at'

/** Browser-side behaviour of the shell (spec §2, §4, §9). Renders nothing. */
export function ShellEffects() {
  const router = useRouter()

  // Page navigation toggles the page-loading key; every navigation closes the hamburger menu.
  useEffect(() => {
    const offStart = router.subscribe('onBeforeNavigate', () => {
      setMenuOpen(false)
      startLoading(PAGE_LOADING_KEY, { transparent: true })
    })
    const offEnd = router.subscribe('onResolved', () => {
      setMenuOpen(false)
      stopLoading(PAGE_LOADING_KEY)
    })
    return () => {
      offStart()
      offEnd()
    }
  }, [router])

  // `scrolled` and `scroll-end` classes on <html>.
  useEffect(() => {
    let frame = 0
    const update = () => {
      frame = 0
      const el = document.documentElement
      const c = scrollClasses(window.scrollY, window.innerHeight, el.scrollHeight)
      el.classList.toggle('scrolled', c.scrolled)
      el.classList.toggle('scroll-end', c.scrollEnd)
    }
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(update)
    }
    update()
    window.addEventListener('scroll', onScroll, { passive: true })
    window.addEventListener('resize', onScroll)
    return () => {
      window.removeEventListener('scroll', onScroll)
      window.removeEventListener('resize', onScroll)
      if (frame) cancelAnimationFrame(frame)
    }
  }, [])

  // Smooth anchor scrolling below the sticky header, for in-page links and a hash on arrival.
  useEffect(() => {
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
      const a = (e.target as Element | null)?.closest?.('a[href*="#"]') as HTMLAnchorElement | null
      if (!a || a.target === '_blank') return
      const url = new URL(a.href, window.location.href)
      if (url.origin !== window.location.origin || url.pathname !== window.location.pathname || !url.hash)
        return
      if (scrollToAnchor(url.hash.slice(1))) {
        e.preventDefault()
        window.history.pushState(window.history.state, '', url.hash)
      }
    }
    document.addEventListener('click', onClick)
    if (window.location.hash) scrollToAnchor(window.location.hash.slice(1))
    return () => document.removeEventListener('click', onClick)
  }, [])

  // A failed chunk load (new deploy) reloads the page, at most once per 10 s.
  useEffect(() => {
    const reload = (event?: Event) => {
      const last = Number(sessionStorage.getItem(CHUNK_RELOAD_KEY) ?? Number.NaN)
      if (!shouldReloadForChunkError(last, Date.now(), appConfig.timing.chunkReloadGuard)) return
      event?.preventDefault()
      sessionStorage.setItem(CHUNK_RELOAD_KEY, String(Date.now()))
      window.location.reload()
    }
    // Start's server-function stub runs the fetch inside Vite's preload helper, so a server function that fails
    // (a 503, a refused write) arrives here too, as its own error: only a module that failed to load reloads.
    const onPreloadError = (e: Event) => {
      if (isChunkLoadError((e as Event & { payload?: unknown }).payload)) reload(e)
    }
    const onRejection = (e: PromiseRejectionEvent) => {
      if (isChunkLoadError(e.reason)) reload(e)
    }
    window.addEventListener('vite:preloadError', onPreloadError)
    window.addEventListener('unhandledrejection', onRejection)
    return () => {
      window.removeEventListener('vite:preloadError', onPreloadError)
      window.removeEventListener('unhandledrejection', onRejection)
    }
  }, [])

  return null
}
