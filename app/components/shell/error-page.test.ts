import { notFound } from '@tanstack/react-router'
import { describe, expect, it } from 'vitest'
import { errorStatus, notFoundVariant } from './error-page'

describe('error page', () => {
  it('picks the 404 variant from the path', () => {
    expect(notFoundVariant('/class_search/detail/999')).toBe('class')
    expect(notFoundVariant('/magazine/detail/abc')).toBe('magazine')
    expect(notFoundVariant('/nope')).toBe('page')
    expect(notFoundVariant('/class_search')).toBe('page')
  })
  it('derives the status of a thrown error', () => {
    expect(errorStatus(notFound())).toBe(404)
    expect(errorStatus(Object.assign(new Error('x'), { status: 403 }))).toBe(403)
    expect(errorStatus({ statusCode: 502 })).toBe(502)
    expect(errorStatus(new Error('boom'))).toBe(500)
    expect(errorStatus('weird')).toBe(500)
  })
})
