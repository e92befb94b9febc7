import { createFileRoute, Link, redirect, useNavigate } from '@tanstack/react-router'
import { useEffect } from 'react'
import { HydrateOnView } from '~/components/shell/hydrate-on-view'
import { lazyPart } from '~/components/shell/lazy-part'
import { openLoginModal } from '~/components/shell/ui-store'
import { Ruby } from '~/components/ui/ruby'
import { registrationTarget, safeReturnTo } from '~/features/auth/auth-state'
import { PageFurigana } from '~/features/furigana/page-furigana'
import { prefetchFurigana } from '~/features/furigana/queries'
import { homeClassIds } from '~/features/home/home-ids'
import {
  CategorySection,
  CloseToStartsSection,
  NewArrivalsSection,
  SoonByClassSection,
} from '~/features/home/home-sections'
import { homeQuery } from '~/features/home/queries'
import { pageHead } from '~/lib/seo'

// Far below the first screen on every device: its code loads when it comes into view (0030, 0008).
const belowFoldPart = () => import('~/features/home/home-below-fold')
const HomeBelowFold = lazyPart(belowFoldPart)

export const Route = createFileRoute('/_default/')({
  // `login` carries the page a signed-out visitor wanted; the login modal opens and returns there.
  validateSearch: (search: Record<string, unknown>): { login?: string } =>
    typeof search.login === 'string' && search.login.startsWith('/')
      ? { login: safeReturnTo(search.login) }
      : // Present, so that it overrides the raw value (the router merges validated search over what the URL said).
        { login: undefined },
  beforeLoad: ({ context }) => {
    // Spec §4: a signed-in person without a profile is sorted into registration from the top page.
    const target = registrationTarget(context.auth)
    if (target) throw redirect({ href: target })
  },
  loader: async ({ context }) => {
    // A client navigation renders the lower part at once: its code comes with the data. (A first load does not
    // run this loader in the browser; there it loads when the part comes into view.)
    const [home] = await Promise.all([context.queryClient.ensureQueryData(homeQuery()), belowFoldPart()])
    const classIds = homeClassIds(home)
    await prefetchFurigana(context.queryClient, context.auth.furigana, { class_ids: classIds })
    return { classIds }
  },
  head: ({ match }) => pageHead(match, {}),
  component: HomePage,
})

function LoginPrompt() {
  const { login } = Route.useSearch()
  const navigate = useNavigate()
  useEffect(() => {
    if (!login) return
    openLoginModal(login)
    void navigate({ to: '/', search: {}, replace: true })
  }, [login, navigate])
  return null
}

function HomePage() {
  const { classIds } = Route.useLoaderData()
  return (
    <PageFurigana ids={{ class_ids: classIds }}>
      <LoginPrompt />
      <section className="bg-gradient-to-b from-base-light to-white">
        <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-14 md:grid-cols-[1.2fr_1fr] lg:py-20">
          <div>
            <p className="inline-block rounded-full bg-white px-3 py-1 text-xs font-bold text-purple-dark shadow-sm">
              <Ruby>未就学児から大学生まで</Ruby>
            </p>
            <h1 className="mt-4 text-3xl leading-tight font-black md:text-4xl">
              <Ruby>好きなことの「たね」を、</Ruby>
              <br />
              <Ruby>オンラインで見つけよう。</Ruby>
            </h1>
            <p className="mt-5 max-w-xl text-slate-700">
              <Ruby>
                プログラミング、英語、算数、アート、将棋、音楽――。全国の先生によるライブ授業を、おうちから1回ずつ予約して受けられる、子どものための習いごとマーケットプレイスです。
              </Ruby>
            </p>
            <ul className="mt-6 flex flex-wrap gap-2 text-sm font-bold">
              <li className="rounded-full bg-yellow px-3 py-1">
                <Ruby>登録無料</Ruby>
              </li>
              <li className="rounded-full bg-yellow px-3 py-1">
                <Ruby>月額基本料0円</Ruby>
              </li>
              <li className="rounded-full bg-yellow px-3 py-1">
                <Ruby>スマホ・PCで受講</Ruby>
              </li>
            </ul>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link
                to="/class_search"
                className="btn-primary px-6 py-3 text-[1rem]"
                data-testid="hero-search"
              >
                <Ruby>クラスを探す</Ruby>
              </Link>
              <Link to="/magazine" className="btn-outline px-6 py-3 text-[1rem]">
                <Ruby>マガジンを読む</Ruby>
              </Link>
            </div>
          </div>
          <div aria-hidden="true" className="hidden justify-center md:flex">
            <svg viewBox="0 0 320 260" width="320" height="260" className="h-auto w-full max-w-sm">
              <rect
                x="20"
                y="30"
                width="280"
                height="180"
                rx="20"
                fill="#fff"
                stroke="#4ec2f0"
                strokeWidth="6"
              />
              <rect x="120" y="214" width="80" height="14" rx="7" fill="#4ec2f0" />
              <circle cx="110" cy="110" r="34" fill="#ffd84d" />
              <circle cx="100" cy="104" r="4" fill="#4b2fa3" />
              <circle cx="120" cy="104" r="4" fill="#4b2fa3" />
              <path
                d="M98 120c8 8 16 8 24 0"
                stroke="#4b2fa3"
                strokeWidth="4"
                fill="none"
                strokeLinecap="round"
              />
              <rect x="166" y="80" width="104" height="14" rx="7" fill="#e4f6fd" />
              <rect x="166" y="106" width="84" height="14" rx="7" fill="#e4f6fd" />
              <rect x="166" y="132" width="96" height="14" rx="7" fill="#7b5cd6" opacity="0.8" />
              <path d="M60 250V226" stroke="#4b2fa3" strokeWidth="5" strokeLinecap="round" />
              <path d="M60 232c-14 0-20-8-20-18 12 0 20 6 20 18z" fill="#4ec2f0" />
              <path d="M60 228c0-12 8-18 20-18 0 10-6 18-20 18z" fill="#7b5cd6" />
            </svg>
          </div>
        </div>
      </section>

      <CategorySection />
      {/* Below the first screen on a phone: each list hydrated when about to be seen, not with the page (0030,
          0031); the rows of cards further down wait for their own turn. */}
      <HydrateOnView testId="home-close-area">
        <CloseToStartsSection />
      </HydrateOnView>
      <HydrateOnView testId="home-new-area">
        <NewArrivalsSection />
      </HydrateOnView>
      <HydrateOnView testId="home-soon-area">
        <SoonByClassSection />
      </HydrateOnView>
      {/* Far below it: its code too loads when about to be seen; a visitor who stays on top never loads it. What it
          reads stays in the query cache meanwhile: CategorySection, hydrated with the page, observes homeQuery. */}
      <HydrateOnView>
        <HomeBelowFold />
      </HydrateOnView>
    </PageFurigana>
  )
}
