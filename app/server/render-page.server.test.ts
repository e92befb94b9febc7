import { describe, expect, it } from 'vitest'
import { cacheControlFor, PUBLIC_REVALIDATE } from './http-policy'
import { LEFT_TO_BROWSER, leftToBrowser } from './render-page.server'

describe('leftToBrowser', () => {
  it('marks a public page with a part left to the browser no-store, which every cache then keeps', () => {
    const headers = new Headers({ 'content-type': 'text/html; charset=utf-8' })
    expect(
      leftToBrowser(`<main><!--$-->whole<!--/$-->${LEFT_TO_BROWSER}<p>…</p><!--/$--></main>`, headers),
    ).toBe(true)
    expect(headers.get('cache-control')).toBe('no-store')
    // The response policy keeps a handler's choice on a public GET, so shareVisitorPage (which shares only
    // PUBLIC_REVALIDATE pages) leaves the page alone.
    const policy = cacheControlFor({
      method: 'GET',
      pathname: '/class_search/detail/1',
      personal: false,
      status: 200,
      existing: headers.get('cache-control'),
    })
    expect(policy).toBe('no-store')
    expect(policy).not.toBe(PUBLIC_REVALIDATE)
  })

  it('leaves a whole page as it is', () => {
    const headers = new Headers()
    expect(leftToBrowser('<main><!--$--><p>whole</p><!--/$--></main>', headers)).toBe(false)
    expect(headers.has('cache-control')).toBe(false)
  })
})
