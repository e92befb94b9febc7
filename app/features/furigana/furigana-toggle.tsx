import { useQueryClient } from '@tanstack/react-query'
import { useRouter } from '@tanstack/react-router'
import { useState } from 'react'
import { showErrorSnackbar } from '~/components/shell/ui-store'
import { useFuriganaOn } from '~/components/ui/ruby'

/**
 * The header's 「ふりがな」 switch (issue 19). The server renders furigana from then on (cookie, and the member's
 * profile), so the page reloads its data rather than analysing anything in the browser.
 */
export function FuriganaToggle() {
  const on = useFuriganaOn()
  const [busy, setBusy] = useState(false)
  const queryClient = useQueryClient()
  const router = useRouter()
  const toggle = async () => {
    setBusy(true)
    try {
      const { setFurigana } = await import('./furigana.functions')
      await setFurigana({ data: { on: !on } })
      await queryClient.invalidateQueries({ queryKey: ['auth'] })
      await router.invalidate()
    } catch {
      showErrorSnackbar('ふりがなの設定を変更できませんでした')
    } finally {
      setBusy(false)
    }
  }
  return (
    <button
      type="button"
      aria-pressed={on}
      disabled={busy}
      title={on ? 'ふりがなを消す' : '漢字にふりがなをつける'}
      onClick={toggle}
      className={`shrink-0 rounded-full border px-2 py-1.5 text-[11px] leading-none font-bold whitespace-nowrap sm:text-xs ${
        on
          ? 'border-purple-dark bg-purple-dark text-white'
          : 'border-slate-300 bg-white text-slate-700 hover:bg-light-grey'
      }`}
      data-testid="furigana-toggle"
    >
      ふりがな
    </button>
  )
}
