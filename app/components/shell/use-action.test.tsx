import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { useAction } from './use-action'

type Run = (label: string) => void

/**
 * Renders a component that uses the hook once, on the server renderer (the unit project has no DOM), and hands
 * back its `run`. Refs keep working after the render; `setPending` is a no-op there, so these tests check the
 * guard (what a double tap sends), not the disabled button.
 */
function mount(action: (label: string) => Promise<unknown>, onError?: (error: unknown) => void): Run {
  let run: Run | undefined
  renderToString(<Button action={action} onError={onError} expose={(r) => (run = r)} />)
  if (!run) throw new Error('not rendered')
  return run
}

function Button(props: {
  action: (label: string) => Promise<unknown>
  onError?: (error: unknown) => void
  expose: (run: Run) => void
}) {
  props.expose(useAction(props.action, props.onError).run)
  return <button type="button">予約する</button>
}

/** A promise settled from outside: the request still on its way until the test lets it finish. */
function deferred() {
  let resolve!: () => void
  let reject!: (error: unknown) => void
  const promise = new Promise<void>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('useAction', () => {
  it('runs once for a double tap: a second run while the first is in flight does nothing', async () => {
    const request = deferred()
    const action = vi.fn((_label: string) => request.promise)
    const run = mount(action)

    run('first')
    run('second')
    run('third')
    expect(action).toHaveBeenCalledTimes(1)
    expect(action).toHaveBeenCalledWith('first')

    request.resolve()
    await settle()
    run('after')
    expect(action).toHaveBeenCalledTimes(2)
    expect(action).toHaveBeenLastCalledWith('after')
  })

  it('passes a failure to onError and can run again after it', async () => {
    const request = deferred()
    const failure = new Error('409')
    const action = vi.fn((_label: string) => request.promise)
    const onError = vi.fn()
    const run = mount(action, onError)

    run('first')
    run('second')
    request.reject(failure)
    await settle()
    expect(onError).toHaveBeenCalledTimes(1)
    expect(onError).toHaveBeenCalledWith(failure)

    run('again')
    expect(action).toHaveBeenCalledTimes(2)
  })

  it('swallows a failure when there is no onError (the action reports its own outcome)', async () => {
    const unhandled = vi.fn()
    process.on('unhandledRejection', unhandled)
    try {
      const run = mount(async () => {
        throw new Error('already shown')
      })
      run('first')
      await settle()
      await settle()
      expect(unhandled).not.toHaveBeenCalled()
    } finally {
      process.off('unhandledRejection', unhandled)
    }
  })
})
