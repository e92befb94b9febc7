import { beforeEach, describe, expect, it } from 'vitest'
import {
  APP_LOAD_KEY,
  closeSnackbar,
  isLoading,
  resetUiStore,
  showErrorSnackbar,
  showSnackbar,
  startLoading,
  stopLoading,
  uiStore,
} from './ui-store'

beforeEach(() => resetUiStore())

describe('loading keys', () => {
  it('starts under appLoad', () => {
    expect(uiStore.state.loading.keys).toEqual([APP_LOAD_KEY])
    expect(isLoading(uiStore.state)).toBe(true)
  })
  it('stays shown while any key is pending and hides when none remain', () => {
    startLoading('a', { message: '保存中', transparent: true })
    startLoading('a')
    startLoading('b')
    expect(uiStore.state.loading.keys).toEqual([APP_LOAD_KEY, 'a', 'b'])
    stopLoading(APP_LOAD_KEY)
    stopLoading('a')
    expect(isLoading(uiStore.state)).toBe(true)
    stopLoading('b')
    expect(isLoading(uiStore.state)).toBe(false)
    expect(uiStore.state.loading.message).toBe('Loading')
    expect(uiStore.state.loading.transparent).toBe(false)
  })
  it('ignores stopping a key that is not pending', () => {
    const before = uiStore.state
    stopLoading('nope')
    expect(uiStore.state).toBe(before)
  })
})

describe('snackbar', () => {
  it('has the spec defaults', () => {
    showSnackbar({ message: '保存しました' })
    expect(uiStore.state.snackbar).toEqual({
      id: expect.any(Number),
      show: true,
      message: '保存しました',
      icon: 'check-circle',
      color: 'base',
      timer: 3000,
      hasError: false,
      hasAction: false,
    })
  })
  it('uses the red alert style for errors and resets to defaults on close', () => {
    showErrorSnackbar('失敗しました')
    expect(uiStore.state.snackbar).toMatchObject({ show: true, hasError: true, color: 'red' })
    closeSnackbar()
    expect(uiStore.state.snackbar).toMatchObject({ show: false, message: '', hasError: false, color: 'base' })
  })
  it('shows a message as text: a title or name from the server never becomes markup (only `html` is markup)', () => {
    // A class title in the teacher-wide overlap refusal, an organisation's name, a server error's message.
    showErrorSnackbar('同じ時間に別のクラス「<img src=x onerror=alert(1)>」の授業があります')
    expect(uiStore.state.snackbar.message).toBe(
      '同じ時間に別のクラス「&#60;img src=x onerror=alert(1)&#62;」の授業があります',
    )
    showSnackbar({ message: '<a href="//evil.example">こども英語の会</a>に参加しました' })
    expect(uiStore.state.snackbar.message).not.toMatch(/[<>"]/)
    showSnackbar({ message: 'Q&A' })
    expect(uiStore.state.snackbar.message).toBe('Q&#38;A')
    showErrorSnackbar({ html: 'ログインできませんでした<br><small>詳細</small>' })
    expect(uiStore.state.snackbar).toMatchObject({
      message: 'ログインできませんでした<br><small>詳細</small>',
      hasError: true,
    })
  })
  it('starts a new message with each call; the close of one that was replaced leaves the new one open', () => {
    showSnackbar({ message: 'クラスを作成しました' })
    const first = uiStore.state.snackbar.id
    showSnackbar({ message: 'クラスを保存しました' })
    const second = uiStore.state.snackbar.id
    expect(second).toBeGreaterThan(first)
    // The first message's timer runs out after the second replaced it.
    closeSnackbar(first)
    expect(uiStore.state.snackbar).toMatchObject({ id: second, show: true, message: 'クラスを保存しました' })
    closeSnackbar(second)
    expect(uiStore.state.snackbar).toMatchObject({ id: second, show: false, message: '' })
  })
})
