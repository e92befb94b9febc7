import { useNavigate, useRouterState } from '@tanstack/react-router'
import { type FormEvent, useEffect, useRef, useState } from 'react'
import { Icon } from '../ui/icon'

/** The keyword of the class search page being shown, so the box keeps what was searched. */
function useCurrentKeyword(): string {
  return useRouterState({
    select: (s) => {
      if (s.location.pathname !== '/class_search') return ''
      const q = (s.location.search as { q?: unknown }).q
      return typeof q === 'string' || typeof q === 'number' ? String(q) : ''
    },
  })
}

/**
 * The header's keyword search: goes to /class_search?q=…. Inline from md up; on phones a search button opens
 * a full-width bar under the header.
 */
export function HeaderSearch() {
  const navigate = useNavigate()
  const keyword = useCurrentKeyword()
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  const [open, setOpen] = useState(false)
  const panelInput = useRef<HTMLInputElement>(null)

  // biome-ignore lint/correctness/useExhaustiveDependencies: closing on navigation is the point
  useEffect(() => setOpen(false), [pathname, keyword])
  useEffect(() => {
    if (open) panelInput.current?.focus()
  }, [open])

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const q = String(new FormData(e.currentTarget).get('q') ?? '')
      .trim()
      .slice(0, 100)
    setOpen(false)
    void navigate({ to: '/class_search', search: q ? { q } : {} })
  }

  // Phones get 16px text, so that focusing the box does not zoom the page.
  const field = (id: string, size = 'py-2 text-sm') => (
    <>
      <label htmlFor={id} className="sr-only">
        キーワードでクラスを探す
      </label>
      <input
        id={id}
        name="q"
        type="search"
        defaultValue={keyword}
        key={keyword}
        placeholder="キーワードでクラスを探す"
        enterKeyHint="search"
        maxLength={100}
        autoComplete="off"
        className={`min-w-0 flex-1 rounded-full border border-slate-300 bg-white pr-10 pl-4 placeholder:text-slate-500 ${size}`}
        ref={id === 'header-q-phone' ? panelInput : undefined}
      />
      <button
        type="submit"
        className="absolute top-1/2 right-1 -translate-y-1/2 rounded-full p-1.5 text-slate-700 hover:bg-light-grey"
        aria-label="検索する"
      >
        <Icon name="search" className="h-5 w-5" />
      </button>
    </>
  )

  return (
    <>
      <search className="hidden md:block">
        <form onSubmit={submit} className="relative flex w-64 lg:w-80" data-testid="header-search">
          {field('header-q')}
        </form>
      </search>
      <button
        type="button"
        // Under 360 px the header has room for ふりがな, sign-in and the menu but not this: the bottom navigation's
        // クラスを探す leads to the same search.
        className="rounded-full p-2 text-slate-700 hover:bg-light-grey max-[359px]:hidden md:hidden"
        aria-label={open ? 'キーワード検索を閉じる' : 'キーワード検索を開く'}
        aria-expanded={open}
        aria-controls="header-search-panel"
        data-testid="header-search-toggle"
        onClick={() => setOpen((v) => !v)}
      >
        <Icon name={open ? 'close' : 'search'} />
      </button>
      <div
        id="header-search-panel"
        className={`absolute inset-x-0 top-full border-b border-slate-200 bg-white px-4 py-3 shadow-sm md:hidden ${open ? '' : 'hidden'}`}
      >
        <search>
          <form onSubmit={submit} className="relative flex" data-testid="header-search-phone">
            {field('header-q-phone', 'py-2.5 text-[1rem]')}
          </form>
        </search>
      </div>
    </>
  )
}
