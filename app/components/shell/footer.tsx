import { Link } from '@tanstack/react-router'
import { appConfig } from '../../../app.config'
import { Icon } from '../ui/icon'
import { Ruby } from '../ui/ruby'
import { Logo } from './logo'
import { helpLinkGroups, legalLinks, mainLinks, socialLinks } from './nav'
import { scrollToY } from './scroll'

export function Footer({ compact = false }: { compact?: boolean }) {
  return (
    <footer
      className="below-fold mt-16 border-t border-slate-200 bg-light-grey pb-24 lg:pb-8"
      data-testid="site-footer"
    >
      <div className="mx-auto max-w-6xl px-4 py-10">
        {compact ? null : (
          <div className="grid gap-8 md:grid-cols-4">
            <div>
              <Logo />
              <p className="mt-3 text-sm text-slate-700">
                未就学児から大学生までの、ライブ配信のオンライン習いごと。登録・月額基本料は無料です。
              </p>
            </div>
            {helpLinkGroups.map((g) => (
              <section key={g.title}>
                <h2 className="text-sm font-bold">
                  <Ruby text={g.title} />
                </h2>
                <ul className="mt-2 space-y-1.5 text-sm">
                  {g.links.map((l) => (
                    <li key={l.href}>
                      <a
                        href={l.href}
                        target="_blank"
                        rel="noopener noreferrer"
                        className="text-slate-700 hover:underline"
                      >
                        <Ruby text={l.label} />
                      </a>
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </div>
        )}
        <div
          className={`${compact ? '' : 'mt-10 border-t border-slate-300 pt-6'} flex flex-col gap-4 text-sm`}
        >
          <ul className="flex flex-wrap gap-x-5 gap-y-2 font-bold">
            {mainLinks.map((l) => (
              <li key={l.to}>
                <Link to={l.to} className="text-slate-800 hover:underline">
                  <Ruby text={l.label} />
                </Link>
              </li>
            ))}
          </ul>
          <ul className="flex flex-wrap gap-x-5 gap-y-2">
            {legalLinks.map((l) => (
              <li key={l.to}>
                <Link to={l.to} className="text-slate-700 hover:underline">
                  <Ruby text={l.label} />
                </Link>
              </li>
            ))}
            <li>
              <a
                href={appConfig.helpLinks.contactForm}
                target="_blank"
                rel="noopener noreferrer"
                className="text-slate-700 hover:underline"
              >
                お問い合わせ
              </a>
            </li>
          </ul>
          <ul className="flex flex-wrap gap-x-5 gap-y-2" aria-label="公式SNS">
            {socialLinks.map((l) => (
              <li key={l.href}>
                <a
                  href={l.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="text-slate-700 hover:underline"
                >
                  <Ruby text={l.label} />
                </a>
              </li>
            ))}
          </ul>
          <div className="flex items-center justify-between">
            <small className="text-slate-600">© 2026 まなびのたね運営事務局</small>
            <button
              type="button"
              className="inline-flex items-center gap-1 rounded-full px-3 py-1 text-slate-700 hover:bg-white"
              onClick={() => scrollToY(0)}
            >
              <Icon name="arrow-up" className="h-4 w-4" />
              ページトップへ
            </button>
          </div>
        </div>
      </div>
    </footer>
  )
}
