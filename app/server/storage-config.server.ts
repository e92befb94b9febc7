import '@tanstack/react-start/server-only'
import { z } from 'zod'
import { configError } from './config'

/**
 * Where uploaded images are kept: the database (default) or S3-compatible storage when S3_BUCKET is set.
 * Parsed with zod like config.ts (to be folded into it); a partial S3 setup stops the start with one line per
 * wrong variable instead of failing on the first upload.
 */
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined))

const storageSchema = z
  .object({
    S3_BUCKET: optionalString.pipe(
      z
        .string()
        .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name such as manabi-uploads')
        .optional(),
    ),
    /** S3-compatible servers (MinIO, R2, s3rver); unset for AWS itself. */
    S3_ENDPOINT: optionalString.pipe(
      z
        .url({ protocol: /^https?$/, message: 'must be an http(s) URL such as https://s3.example.com' })
        .optional(),
    ),
    S3_REGION: optionalString,
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    S3_FORCE_PATH_STYLE: z
      .enum(['0', '1', 'true', 'false', ''])
      .optional()
      .transform((v) => v === '1' || v === 'true'),
  })
  .superRefine((env, ctx) => {
    const others = (['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter(
      (name) => env[name] !== undefined,
    )
    if (!env.S3_BUCKET && (others.length > 0 || env.S3_FORCE_PATH_STYLE)) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_BUCKET'],
        message: `must be set when ${others.length ? others.join(', ') : 'S3_FORCE_PATH_STYLE'} is (or unset those to keep uploads in the database)`,
      })
    }
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      const [missing, given] = env.S3_ACCESS_KEY_ID
        ? ['S3_SECRET_ACCESS_KEY', 'S3_ACCESS_KEY_ID']
        : ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: `must be set when ${given} is (both, or neither for the SDK's default credentials)`,
      })
    }
  })

export interface S3StorageConfig {
  kind: 's3'
  bucket: string
  endpoint?: string
  region: string
  credentials?: { accessKeyId: string; secretAccessKey: string }
  forcePathStyle: boolean
}

export type StorageConfig = { kind: 'database' } | S3StorageConfig

/** Parses the S3_* variables; throws a ConfigError with one line per wrong variable (secrets hidden). */
export function parseStorageEnv(env: Record<string, string | undefined>): StorageConfig {
  const result = storageSchema.safeParse(env)
  if (!result.success) throw configError(result.error.issues, env, 'S3_BUCKET')
  const e = result.data
  if (!e.S3_BUCKET) return { kind: 'database' }
  return {
    kind: 's3',
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT,
    // Any value works for most S3-compatible servers; AWS needs the bucket's own region.
    region: e.S3_REGION ?? 'us-east-1',
    credentials:
      e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
        : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
  }
}

let cached: StorageConfig | undefined

export function getStorageConfig(): StorageConfig {
  cached ??= parseStorageEnv(process.env)
  return cached
}
