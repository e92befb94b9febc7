import { createRequire } from 'node:module'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import { type RubySegment, rubyOfTokens, type Token } from '../lib/ruby'

/**
 * The Japanese morphological analyser (kuromoji) behind furigana, in a worker thread (docs/decisions/0028).
 * Its dictionary takes ~0.6 s to load and ~300 MB while loaded, and that memory is not given back while the
 * thread lives: so it lives only while there is work, and ends after a quiet minute. Only the readings job and
 * the fixed-text generator use it; no request waits for it.
 */

const IDLE_MS = 60_000
const MAX_TEXTS_PER_CALL = 500

// The worker is plain CommonJS handed over as a string: it then needs no build step of its own.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const kuromoji = require(workerData.kuromoji)
kuromoji.builder({ dicPath: workerData.dicPath }).build((error, tokenizer) => {
  if (error) throw error
  parentPort.on('message', ({ id, texts }) => {
    const tokens = texts.map((t) => tokenizer.tokenize(t).map((x) => [x.surface_form, x.reading]))
    parentPort.postMessage({ id, tokens })
  })
  parentPort.postMessage({ ready: true })
})
`

type Pending = { resolve: (t: Token[][]) => void; reject: (e: Error) => void }

let worker: Worker | undefined
let ready: Promise<Worker> | undefined
let idleTimer: NodeJS.Timeout | undefined
let nextId = 1
const pending = new Map<number, Pending>()

function failAll(error: Error) {
  for (const p of pending.values()) p.reject(error)
  pending.clear()
}

function startWorker(): Promise<Worker> {
  const require = createRequire(import.meta.url)
  const kuromoji = require.resolve('kuromoji')
  const dicPath = path.join(path.dirname(require.resolve('kuromoji/package.json')), 'dict')
  const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { kuromoji, dicPath } })
  w.unref()
  worker = w
  return new Promise((resolve, reject) => {
    w.on('message', (m: { ready?: true; id?: number; tokens?: Token[][] }) => {
      if (m.ready) return resolve(w)
      const p = pending.get(m.id as number)
      pending.delete(m.id as number)
      p?.resolve(m.tokens as Token[][])
    })
    const end = (error: Error) => {
      if (worker === w) {
        worker = undefined
        ready = undefined
      }
      reject(error)
      failAll(error)
    }
    w.on('error', end)
    w.on('exit', (code) => end(new Error(`analyser worker exited (${code})`)))
  })
}

function armIdleTimer() {
  clearTimeout(idleTimer)
  idleTimer = setTimeout(() => {
    if (pending.size > 0) return armIdleTimer()
    void stopAnalyzer()
  }, IDLE_MS)
  idleTimer.unref()
}

/** Furigana segments for each text, in order. */
export async function analyze(texts: readonly string[]): Promise<RubySegment[][]> {
  const out: RubySegment[][] = []
  for (let i = 0; i < texts.length; i += MAX_TEXTS_PER_CALL) {
    const batch = texts.slice(i, i + MAX_TEXTS_PER_CALL)
    ready ??= startWorker()
    const w = await ready
    // Stopped while it was starting: a message to an ended worker would never be answered.
    if (worker !== w) throw new Error('analyser worker stopped')
    const id = nextId++
    const tokens = await new Promise<Token[][]>((resolve, reject) => {
      pending.set(id, { resolve, reject })
      w.postMessage({ id, texts: batch })
    })
    out.push(...tokens.map(rubyOfTokens))
    armIdleTimer()
  }
  return out
}

/** Ends the worker (and frees its dictionary); the next `analyze` starts a new one. */
export async function stopAnalyzer(): Promise<void> {
  clearTimeout(idleTimer)
  const w = worker
  worker = undefined
  ready = undefined
  await w?.terminate()
}
