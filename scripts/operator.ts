/**
 * The operator role, from the command line only:
 *   npm run operator -- grant EMAIL     give a registered member the operator role (/admin)
 *   npm run operator -- revoke EMAIL    take it back (effective at once: every /admin call reads the role)
 *   npm run operator -- list
 * Uses DATABASE_URL when set, otherwise the embedded database in DATA_DIR (stop the app first: PGlite is one
 * process). Every change is written to the audit log with the account that ran it.
 */
import { hostname, userInfo } from 'node:os'
import { openDatabase } from '../app/db/client'
import { listOperators, OperatorCommandError, setOperator } from '../app/db/operators'
import { getConfig } from '../app/server/config'

const [command, email] = process.argv.slice(2)
const usage = 'Usage: npm run operator -- grant EMAIL | revoke EMAIL | list'

if (!['grant', 'revoke', 'list'].includes(command ?? '') || (command !== 'list' && !email)) {
  console.error(usage)
  process.exit(2)
}

let exitCode = 0
try {
  const config = getConfig()
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl })
  try {
    if (command === 'list') {
      const operators = await listOperators(database.db)
      if (operators.length === 0) console.log('No operators.')
      for (const o of operators) console.log(`${o.id}\t${o.email ?? '-'}\t${o.nickname}`)
    } else {
      const actor = `cli (${userInfo().username}@${hostname()})`
      const result = await setOperator(database.db, email!, command === 'grant', actor)
      const verb = command === 'grant' ? 'granted to' : 'revoked from'
      console.log(
        result.changed > 0
          ? `Operator role ${verb} ${email} (${result.changed} account${result.changed > 1 ? 's' : ''}).`
          : `Nothing to change: ${email} ${command === 'grant' ? 'is already' : 'is not'} an operator.`,
      )
    }
  } finally {
    await database.close()
  }
} catch (error) {
  console.error(
    error instanceof OperatorCommandError ? error.message : `operator: ${(error as Error).message}`,
  )
  exitCode = 1
}
process.exit(exitCode)
