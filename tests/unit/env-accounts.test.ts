import { describe, expect, it } from 'vitest'
import { EnvError, readEnv } from '../../src-server/kernel/env.ts'

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

describe('temporary S3 credentials', () => {
  it('accept a session token and the standard AWS variables, and name what is missing', () => {
    const env = readEnv({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 's', S3_SESSION_TOKEN: 't' })
    expect(env.S3_SESSION_TOKEN).toBe('t')
    const aws = readEnv({ S3_BUCKET: 'b', AWS_ACCESS_KEY_ID: 'id', AWS_SECRET_ACCESS_KEY: 's', AWS_SESSION_TOKEN: 't' })
    expect(aws.AWS_SESSION_TOKEN).toBe('t')
    expect(() => readEnv({ S3_BUCKET: 'b' })).toThrow(/S3_ACCESS_KEY_ID/)
    expect(() => readEnv({ S3_BUCKET: 'b', AWS_ACCESS_KEY_ID: 'id' })).toThrow(/AWS_SECRET_ACCESS_KEY/)
  })
})
