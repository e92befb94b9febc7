import { useSelector } from '@tanstack/react-store'
import { APP_LOAD_KEY, PAGE_LOADING_KEY, uiStore } from './ui-store'

/** Global loading overlay (spec §2, §4): shown while at least one key is pending. */
export function LoadingOverlay() {
  const loading = useSelector(uiStore, (s) => s.loading)
  if (loading.keys.length === 0) return null
  // Page and app loads are frequent and usually fast: delay them so they do not flash.
  const delayed = loading.keys.every((k) => k === PAGE_LOADING_KEY || k === APP_LOAD_KEY)
  return (
    <div
      className={`loading-overlay fixed inset-0 z-[60] flex items-center justify-center ${
        loading.transparent ? 'bg-transparent' : 'bg-white/70'
      }`}
      data-delayed={delayed}
      data-testid="loading-overlay"
      role="status"
      aria-live="polite"
    >
      <div className="flex flex-col items-center gap-3 rounded-2xl bg-white/90 px-8 py-6 shadow-lg">
        <svg className="h-12 w-12 animate-spin text-purple-dark" viewBox="0 0 50 50" aria-hidden="true">
          <circle
            cx="25"
            cy="25"
            r="20"
            fill="none"
            stroke="currentColor"
            strokeOpacity="0.2"
            strokeWidth="5"
          />
          <circle
            cx="25"
            cy="25"
            r="20"
            fill="none"
            stroke="currentColor"
            strokeWidth="5"
            strokeLinecap="round"
            strokeDasharray="80 126"
          />
        </svg>
        <p className="text-sm font-bold text-slate-700">{loading.message}</p>
      </div>
    </div>
  )
}
