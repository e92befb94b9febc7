import * as Dialog from '@radix-ui/react-dialog'
import { Link } from '@tanstack/react-router'
import { useSelector } from '@tanstack/react-store'
import { Icon } from '../ui/icon'
import { useReturnFocus } from '../ui/return-focus'
import { Ruby } from '../ui/ruby'
import { helpLinkGroups, legalLinks, mainLinks } from './nav'
import { setMenuOpen, uiStore } from './ui-store'
import { useSite } from './use-site'

/** The hamburger menu: open or closed, closed on every navigation (ShellEffects). */
export function HamburgerMenu() {
  const open = useSelector(uiStore, (s) => s.menuOpen)
  const returnFocus = useReturnFocus()
  const site = useSite()
  return (
    <Dialog.Root open={open} onOpenChange={setMenuOpen}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <Dialog.Content
          className="fixed inset-y-0 right-0 z-50 flex w-80 max-w-[85vw] flex-col overflow-y-auto bg-white shadow-xl focus:outline-none"
          data-testid="hamburger-menu"
          {...returnFocus}
        >
          <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
            <Dialog.Title className="font-bold">メニュー</Dialog.Title>
            {site.demoIdentity ? (
              // The header has no room for its demo badge on phones: it is said here instead.
              <span
                className="mr-auto ml-3 rounded-full bg-yellow px-2 py-0.5 text-xs font-bold text-slate-900 sm:hidden"
                title="デモ用の認証プロバイダーで動いています"
              >
                デモ環境
              </span>
            ) : null}
            <Dialog.Description className="sr-only">サイト内のページとヘルプへのリンク</Dialog.Description>
            <Dialog.Close className="rounded-full p-2 hover:bg-light-grey" aria-label="メニューを閉じる">
              <Icon name="close" />
            </Dialog.Close>
          </div>
          <nav aria-label="メニュー" className="flex flex-col gap-6 px-4 py-4 text-sm">
            <ul className="flex flex-col">
              <li>
                <Link to="/" className="block rounded-lg px-3 py-2.5 font-bold hover:bg-light-grey">
                  ホーム
                </Link>
              </li>
              {mainLinks.map((l) => (
                <li key={l.to}>
                  <Link to={l.to} className="block rounded-lg px-3 py-2.5 font-bold hover:bg-light-grey">
                    <Ruby text={l.label} />
                  </Link>
                </li>
              ))}
              {legalLinks.map((l) => (
                <li key={l.to}>
                  <Link to={l.to} className="block rounded-lg px-3 py-2.5 hover:bg-light-grey">
                    <Ruby text={l.label} />
                  </Link>
                </li>
              ))}
            </ul>
            {helpLinkGroups.map((g) => (
              <section key={g.title}>
                <h2 className="px-3 pb-1 text-xs font-bold text-slate-600">
                  <Ruby text={g.title} />
                </h2>
                <ul>
                  {g.links.map((l) => (
                    <li key={l.href}>
                      <a
                        href={l.href}
                        target="_blank"
                        rel="noopener noreferrer"
                        className="flex items-center justify-between rounded-lg px-3 py-2 hover:bg-light-grey"
                      >
                        <Ruby text={l.label} />
                        <Icon name="open-in-new" className="h-4 w-4 text-slate-500" />
                      </a>
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </nav>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
