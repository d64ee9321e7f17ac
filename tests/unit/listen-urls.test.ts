// The start-up log names every URL the server answers on; on 0.0.0.0 that includes the LAN addresses.
import type os from 'node:os'
import { describe, expect, it } from 'vitest'
import { listenUrls } from '../../src-server/listen-urls.ts'

const address = (value: string, family: 'IPv4' | 'IPv6', internal: boolean) =>
  ({ address: value, family, internal, netmask: '', mac: '', cidr: null }) as os.NetworkInterfaceInfo

const interfaces = {
  lo: [address('127.0.0.1', 'IPv4', true), address('::1', 'IPv6', true)],
  eth0: [address('192.168.1.20', 'IPv4', false), address('fe80::1', 'IPv6', false)],
  wlan0: [address('10.0.0.7', 'IPv4', false)],
}

describe('listenUrls', () => {
  it('lists localhost and every non-internal IPv4 address on a wildcard host', () => {
    expect(listenUrls('0.0.0.0', 3000, interfaces)).toEqual([
      'http://localhost:3000',
      'http://192.168.1.20:3000',
      'http://10.0.0.7:3000',
    ])
  })

  it('lists only the bound address on a specific host', () => {
    expect(listenUrls('127.0.0.1', 3998, interfaces)).toEqual(['http://127.0.0.1:3998'])
    expect(listenUrls('::1', 3998, interfaces)).toEqual(['http://[::1]:3998'])
  })
})
