import { defineConfig } from 'drizzle-kit'

// `npm run db:generate` writes SQL migrations from the schema; the app applies them at start (app/db/client.ts).
export default defineConfig({
  dialect: 'postgresql',
  schema: './app/db/schema.ts',
  out: './app/db/migrations',
})
