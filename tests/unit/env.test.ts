import { describe, expect, it } from 'vitest'
import { EnvError, readEnv } from '../../src-server/kernel/env.ts'

describe('readEnv', () => {
  it('applies the documented defaults', () => {
    const env = readEnv({})
    expect(env.PORT).toBe(3000)
    expect(env.DATA_DIR).toBe('./data')
    expect(env.DATABASE_URL).toBeUndefined()
    expect(env.NODE_ENV).toBe('development')
  })
  it('treats an empty DATABASE_URL as absent (embedded database)', () => {
    expect(readEnv({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined()
  })
  it('stops with a message naming the bad variable', () => {
    expect(() => readEnv({ PORT: 'eighty' })).toThrow(EnvError)
    expect(() => readEnv({ PORT: 'eighty' })).toThrow(/PORT/)
    expect(() => readEnv({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/)
    expect(() => readEnv({ PUBLIC_URL: 'not a url' })).toThrow(/PUBLIC_URL/)
  })
})

describe('TRUST_PROXY', () => {
  it('is off unless configured, and accepts true or proxy addresses', () => {
    expect(readEnv({}).TRUST_PROXY).toBe(false)
    expect(readEnv({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true)
    expect(readEnv({ TRUST_PROXY: '10.0.0.1, 10.0.0.2' }).TRUST_PROXY).toEqual(['10.0.0.1', '10.0.0.2'])
  })
})

describe('PUBLIC_URL', () => {
  it('loses its trailing slashes, so links never read //verify-email', () => {
    expect(readEnv({ PUBLIC_URL: 'https://shop.example.com/' }).PUBLIC_URL).toBe('https://shop.example.com')
    expect(readEnv({ PUBLIC_URL: 'https://shop.example.com//' }).PUBLIC_URL).toBe('https://shop.example.com')
    expect(readEnv({ PUBLIC_URL: 'http://localhost:3000' }).PUBLIC_URL).toBe('http://localhost:3000')
    expect(readEnv({ PUBLIC_URL: '' }).PUBLIC_URL).toBeUndefined()
  })
  it('refuses a path, a query or another scheme, naming the variable', () => {
    for (const bad of ['https://shop.example.com/store', 'https://shop.example.com/?x=1', 'ftp://shop.example.com']) {
      expect(() => readEnv({ PUBLIC_URL: bad })).toThrow(/PUBLIC_URL/)
    }
  })
})

describe('WORKER', () => {
  it('runs the job worker inside the server unless turned off', () => {
    expect(readEnv({}).WORKER).toBe('inline')
    expect(readEnv({ WORKER: 'off' }).WORKER).toBe('off')
    expect(() => readEnv({ WORKER: 'sometimes' })).toThrow(/WORKER/)
  })
})

describe('LIVE_CHAT_HOURS', () => {
  it('is unset by default (the page’s Mon-Fri 9-5 GMT) and refuses hours it cannot read', () => {
    expect(readEnv({}).LIVE_CHAT_HOURS).toBeUndefined()
    expect(readEnv({ LIVE_CHAT_HOURS: 'Mon-Sat 08:00-20:00' }).LIVE_CHAT_HOURS).toBe('Mon-Sat 08:00-20:00')
    expect(() => readEnv({ LIVE_CHAT_HOURS: '9 to 5' })).toThrow(/LIVE_CHAT_HOURS/)
  })
})
