import { type ComponentType, Suspense } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { lazyPart, lazyPartsLoaded } from './lazy-part'

// React's mark on a boundary whose fallback the server rendered, leaving the part to the browser.
const LEFT_TO_BROWSER = '<!--$!-->'

function later<T>(value: T, ms = 20): Promise<T> {
  return new Promise((resolve) => setTimeout(() => resolve(value), ms))
}

function page(Part: ComponentType<{ name: string }>) {
  return renderToString(
    <main>
      <Suspense fallback={<p>loading</p>}>
        <Part name="たね" />
      </Suspense>
    </main>,
  )
}

function Greeting({ name }: { name: string }) {
  return <p>こんにちは、{name}</p>
}

describe('lazyPart on the server', () => {
  it('runs as the server build does', () => {
    expect(import.meta.env.SSR).toBe(true)
  })

  it('renders the whole part once its code has loaded, where React.lazy alone leaves it to the browser', async () => {
    const Part = lazyPart(() => later({ default: Greeting }))
    // Rendered before the code arrived: what renderToString does with a bare React.lazy on a first request.
    expect(page(Part)).toContain(LEFT_TO_BROWSER)
    await lazyPartsLoaded()
    const html = page(Part)
    expect(html).not.toContain(LEFT_TO_BROWSER)
    expect(html).toContain('<p>こんにちは、<!-- -->たね</p>')
  })

  it('waits for parts that the loaded code declares in turn', async () => {
    let Inner: ComponentType<{ name: string }> | undefined
    const Outer = lazyPart(() =>
      later(null).then(() => {
        // A module evaluated by the load declares its own part, as reviews-section does.
        const Declared = lazyPart(() => later({ default: Greeting }, 40))
        Inner = Declared
        return { default: ({ name }: { name: string }) => <Declared name={name} /> }
      }),
    )
    await lazyPartsLoaded()
    expect(Inner).toBeDefined()
    const html = page(Outer)
    expect(html).not.toContain(LEFT_TO_BROWSER)
    expect(html).toContain('こんにちは')
  })

  it('settles when a part fails to load, and leaves that part to the browser (its error boundary)', async () => {
    const Part = lazyPart<ComponentType<{ name: string }>>(() => Promise.reject(new Error('chunk gone')))
    await expect(lazyPartsLoaded()).resolves.toBeUndefined()
    expect(page(Part)).toContain(LEFT_TO_BROWSER)
  })

  it('is immediate when every part has loaded', async () => {
    await lazyPartsLoaded()
    let settled = false
    void lazyPartsLoaded().then(() => {
      settled = true
    })
    await Promise.resolve()
    expect(settled).toBe(true)
  })
})
