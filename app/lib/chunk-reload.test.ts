import { describe, expect, it } from 'vitest'
import { isChunkLoadError, shouldReloadForChunkError } from './chunk-reload'

describe('chunk reload guard', () => {
  it('reloads the first time and then at most once per 10 seconds', () => {
    expect(shouldReloadForChunkError(undefined, 1_000, 10_000)).toBe(true)
    expect(shouldReloadForChunkError(1_000, 5_000, 10_000)).toBe(false)
    expect(shouldReloadForChunkError(1_000, 10_999, 10_000)).toBe(false)
    expect(shouldReloadForChunkError(1_000, 11_000, 10_000)).toBe(true)
    expect(shouldReloadForChunkError(Number.NaN, 11_000, 10_000)).toBe(true)
  })
  it('recognises chunk load failures of the major browsers', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(
      true,
    )
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true)
    expect(isChunkLoadError(new Error('error loading dynamically imported module'))).toBe(true)
    expect(isChunkLoadError(new Error('Something else'))).toBe(false)
    // A server function's own failures reach the same handlers (Start fetches inside Vite's preload helper): a lost
    // connection and an answer that is not Start's own are not chunk loads, so they do not reload the page.
    expect(isChunkLoadError(new TypeError('Failed to fetch'))).toBe(false)
    expect(isChunkLoadError(new Error('一時的な障害です'))).toBe(false)
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/styles-x.css'))).toBe(true)
  })
})
