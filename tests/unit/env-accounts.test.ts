import { describe, expect, it } from 'vitest'
import { EnvError, readEnv } from '../../src-server/env.ts'

describe('account and storage settings', () => {
  it('are optional, and an empty value counts as unset', () => {
    const env = readEnv({ GOOGLE_CLIENT_ID: '', REDIS_URL: '' })
    expect(env.GOOGLE_CLIENT_ID).toBeUndefined()
    expect(env.REDIS_URL).toBeUndefined()
    expect(env.S3_REGION).toBe('us-east-1')
  })
  it('name a bad Redis URL and a bucket without keys', () => {
    expect(() => readEnv({ REDIS_URL: 'http://x' })).toThrow(/REDIS_URL/)
    expect(() => readEnv({ S3_BUCKET: 'avatars', S3_ACCESS_KEY_ID: 'id' })).toThrow(EnvError)
    expect(() => readEnv({ S3_BUCKET: 'avatars', S3_ACCESS_KEY_ID: 'id' })).toThrow(/S3_SECRET_ACCESS_KEY/)
  })
})
