/**
 * A job runner in a process of its own, for the kill -9 test (tests/integration/jobs.test.ts): it runs the app's
 * notification handlers against WORKER_DATABASE_URL, sending mail to WORKER_SMTP_URL, with a short lease.
 */
import { openDatabase } from '../../../app/db/client'
import { startJobRunner } from '../../../app/jobs/runner.server'
import { appJobHandlers } from './jobs'
import { testMailSettings } from './mail'

const database = await openDatabase({ databaseUrl: process.env.WORKER_DATABASE_URL!, migrate: false })
startJobRunner({
  db: database.db,
  pollMs: 50,
  leaseMs: Number(process.env.WORKER_LEASE_MS ?? 1000),
  workerId: 'child',
  handlers: appJobHandlers({
    mail: testMailSettings(process.env.WORKER_SMTP_URL),
  }),
})
console.log('worker ready')
