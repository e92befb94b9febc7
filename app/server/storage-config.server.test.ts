import { describe, expect, it } from 'vitest'
import { parseStorageEnv } from './storage-config.server'

describe('parseStorageEnv', () => {
  it('keeps uploads in the database when no S3 variable is set', () => {
    expect(parseStorageEnv({})).toEqual({ kind: 'database' })
    expect(parseStorageEnv({ S3_BUCKET: ' ', S3_FORCE_PATH_STYLE: '' })).toEqual({ kind: 'database' })
  })

  it('reads a complete S3 setup', () => {
    expect(
      parseStorageEnv({
        S3_BUCKET: 'manabi-uploads',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_REGION: 'ap-northeast-1',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: '1',
      }),
    ).toEqual({
      kind: 's3',
      bucket: 'manabi-uploads',
      endpoint: 'http://127.0.0.1:9000',
      region: 'ap-northeast-1',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      forcePathStyle: true,
    })
    // AWS itself: no endpoint, the SDK's own credentials.
    expect(parseStorageEnv({ S3_BUCKET: 'manabi-uploads' })).toMatchObject({
      kind: 's3',
      region: 'us-east-1',
      credentials: undefined,
      forcePathStyle: false,
    })
  })

  it('names the missing or wrong variable in one line each, secrets hidden', () => {
    expect(() => parseStorageEnv({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(
      /^Configuration error: S3_BUCKET must be set when S3_ENDPOINT is/,
    )
    expect(() => parseStorageEnv({ S3_BUCKET: 'b-1', S3_ACCESS_KEY_ID: 'id' })).toThrow(
      /^Configuration error: S3_SECRET_ACCESS_KEY must be set when S3_ACCESS_KEY_ID is/,
    )
    expect(() => parseStorageEnv({ S3_BUCKET: 'b-1', S3_SECRET_ACCESS_KEY: 'hush' })).toThrow(
      /^Configuration error: S3_ACCESS_KEY_ID must be set when S3_SECRET_ACCESS_KEY is/,
    )
    expect(() => parseStorageEnv({ S3_BUCKET: 'b-1', S3_ENDPOINT: 'minio:9000' })).toThrow(
      /S3_ENDPOINT="minio:9000" must be an http\(s\) URL/,
    )
    expect(() => parseStorageEnv({ S3_BUCKET: 'Bad_Bucket' })).toThrow(/S3_BUCKET="Bad_Bucket"/)
    expect(() => parseStorageEnv({ S3_BUCKET: 'b-1', S3_FORCE_PATH_STYLE: 'yes' })).toThrow(
      /S3_FORCE_PATH_STYLE="yes"/,
    )
  })
})
