import { QueryClient, type QueryKey } from '@tanstack/react-query'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { followPageQuery } from '../../features/follow/queries'
import { myPageQuery } from '../../features/mypage/queries'
import { type ToggleResult, toggleOnce } from './optimistic-toggle'
import { resetUiStore, uiStore } from './ui-store'

type Fav = { is_favorite: boolean; favorite_count: number }

const queryKey = ['class', 7, 'favorite']
const apply = (s: Fav, on: boolean): Fav => ({
  is_favorite: on,
  favorite_count: s.favorite_count + (on ? 1 : -1),
})
const messages = { on: 'お気に入りに追加しました', off: 'お気に入りから外しました' }
const TOO_MANY =
  'お気に入りに登録できるクラスは200件までです。お気に入りから外してから、もう一度お試しください'

let queryClient: QueryClient

beforeEach(() => {
  resetUiStore()
  queryClient = new QueryClient()
  queryClient.setQueryData<Fav>(queryKey, { is_favorite: false, favorite_count: 3 })
  vi.stubGlobal('window', { location: { pathname: '/class/7', search: '?tab=reviews' } })
})

afterEach(() => {
  vi.unstubAllGlobals()
  queryClient.clear()
})

/** Sends with the answer given, noting what the page showed while the request was on its way. */
function sender(answer: () => Promise<ToggleResult<Fav>>) {
  const seen: (Fav | undefined)[] = []
  const send = async () => {
    seen.push(queryClient.getQueryData<Fav>(queryKey))
    return answer()
  }
  return { send, seen }
}

describe('toggleOnce', () => {
  it("shows the change at once, then the server's state, says so and refreshes the lists it changes", async () => {
    // The keys the /follow and /mypage pages load their lists and counts under.
    const lists: QueryKey[] = [followPageQuery().queryKey, myPageQuery().queryKey]
    for (const key of lists) queryClient.setQueryData(key, { old: true })
    const { send, seen } = sender(async () => ({
      ok: true,
      state: { is_favorite: true, favorite_count: 10 },
    }))
    await toggleOnce(queryClient, { queryKey, apply, send, messages }, true)

    expect(seen).toEqual([{ is_favorite: true, favorite_count: 4 }])
    expect(queryClient.getQueryData(queryKey)).toEqual({ is_favorite: true, favorite_count: 10 })
    for (const key of lists) expect(queryClient.getQueryState(key)?.isInvalidated, String(key)).toBe(true)
    expect(uiStore.state.snackbar).toMatchObject({ show: true, message: messages.on, hasError: false })
  })

  it("puts the previous state back when the limit is reached (409) and shows the server's reason in red", async () => {
    const { send, seen } = sender(async () => ({ ok: false, status: 409, message: TOO_MANY }))
    await toggleOnce(queryClient, { queryKey, apply, send, messages }, true)

    expect(seen).toEqual([{ is_favorite: true, favorite_count: 4 }])
    expect(queryClient.getQueryData(queryKey)).toEqual({ is_favorite: false, favorite_count: 3 })
    expect(uiStore.state.snackbar).toMatchObject({
      show: true,
      message: TOO_MANY,
      hasError: true,
      color: 'red',
    })
    expect(uiStore.state.loginModalOpen).toBe(false)
  })

  it('opens the login modal, back to this page, when the session has ended (401), with no message', async () => {
    const { send } = sender(async () => ({ ok: false, status: 401, message: 'ログインしてください' }))
    await toggleOnce(queryClient, { queryKey, apply, send, messages }, true)

    expect(queryClient.getQueryData(queryKey)).toEqual({ is_favorite: false, favorite_count: 3 })
    expect(uiStore.state).toMatchObject({ loginModalOpen: true, loginReturnTo: '/class/7?tab=reviews' })
    expect(uiStore.state.snackbar.show).toBe(false)
  })

  it('says to try again later when the request itself failed without a reason', async () => {
    const { send } = sender(() => Promise.reject(new Error('')))
    await toggleOnce(queryClient, { queryKey, apply, send, messages }, true)

    expect(queryClient.getQueryData(queryKey)).toEqual({ is_favorite: false, favorite_count: 3 })
    expect(uiStore.state.snackbar).toMatchObject({
      message: '処理できませんでした。時間をおいてもう一度お試しください。',
      hasError: true,
    })
  })

  it('leaves an unknown state unknown when it fails (nothing was shown to put back)', async () => {
    queryClient.removeQueries({ queryKey })
    const { send, seen } = sender(async () => ({ ok: false, status: 404, message: 'クラスが見つかりません' }))
    await toggleOnce(queryClient, { queryKey, apply, send, messages }, true)

    expect(seen).toEqual([undefined])
    expect(queryClient.getQueryData(queryKey)).toBeUndefined()
    expect(uiStore.state.snackbar).toMatchObject({ message: 'クラスが見つかりません', hasError: true })
  })
})
