import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { SERVER_NODE_FLAGS } from './server-flags.mjs'

describe('SERVER_NODE_FLAGS', () => {
  it('are the flags `npm start` runs the server with, so that the bench measures the server as it is run', () => {
    const { scripts } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
    expect(scripts.start).toBe(`node ${SERVER_NODE_FLAGS.join(' ')} scripts/start.mjs`)
  })

  it('are flags Node accepts', async () => {
    const { spawnSync } = await import('node:child_process')
    const r = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, '-e', 'process.exit(0)'])
    expect(r.stderr.toString()).toBe('')
    expect(r.status).toBe(0)
  })
})
