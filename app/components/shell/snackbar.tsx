import * as Toast from '@radix-ui/react-toast'
import { useSelector } from '@tanstack/react-store'
import { sanitizeInlineHtml } from '~/lib/sanitize-html'
import { Icon } from '../ui/icon'
import { closeSnackbar, uiStore } from './ui-store'

const colorClasses = {
  base: 'bg-base-light text-base-ink border-brand',
  purple: 'bg-purple-dark text-white border-purple-dark',
  yellow: 'bg-yellow text-slate-900 border-yellow',
  red: 'bg-red-dark text-white border-red-dark',
} as const

/**
 * Global snackbar on Radix Toast (spec §3, §4). Auto-closes after its timer unless it is an error;
 * error snackbars are red alerts with a close button and stay until closed. Closing resets to defaults.
 */
export function Snackbar() {
  const s = useSelector(uiStore, (state) => state.snackbar)
  const color = s.hasError ? 'red' : s.color
  return (
    <Toast.Provider swipeDirection="down" label="通知">
      <Toast.Root
        // A new message is a new toast with its own timer, not the open one with its text swapped.
        key={s.id}
        open={s.show}
        onOpenChange={(open) => {
          if (!open) closeSnackbar(s.id)
        }}
        duration={s.hasError ? Number.POSITIVE_INFINITY : s.timer}
        // Radix announces the toast through its own live region (foreground = assertive for errors); the root
        // stays a list item of the viewport's list, so no role override here.
        type={s.hasError ? 'foreground' : 'background'}
        data-testid="snackbar"
        data-error={s.hasError}
        className={`pointer-events-auto flex w-full items-start gap-3 rounded-xl border-2 px-4 py-3 shadow-lg ${colorClasses[color]}`}
      >
        <Icon name={s.hasError ? 'alert' : s.icon} className="mt-0.5 h-5 w-5 shrink-0" />
        <Toast.Description asChild>
          <p
            className="flex-1 text-sm font-bold [&_a]:underline"
            // Messages may carry simple markup (links, emphasis); it is sanitized first.
            dangerouslySetInnerHTML={{ __html: sanitizeInlineHtml(s.message) }}
          />
        </Toast.Description>
        {s.hasError || s.hasAction ? (
          <Toast.Close className="shrink-0 rounded-full p-1 hover:bg-black/10" aria-label="閉じる">
            <Icon name="close" className="h-5 w-5" />
          </Toast.Close>
        ) : null}
      </Toast.Root>
      <Toast.Viewport className="fixed inset-x-0 bottom-20 z-[70] mx-auto flex w-full max-w-md flex-col gap-2 px-4 outline-none lg:bottom-8" />
    </Toast.Provider>
  )
}
