// The URLs a listening server can be opened at, for the start-up log: on a wildcard host (0.0.0.0, ::) that is
// localhost and every non-internal IPv4 address of the machine, so a LAN device knows where to point.
import os from 'node:os'

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]'])

export function listenUrls(
  host: string,
  port: number,
  interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces(),
): string[] {
  if (!WILDCARD_HOSTS.has(host)) return [`http://${host.includes(':') ? `[${host}]` : host}:${port}`]
  const lan = Object.values(interfaces)
    .flatMap((addresses) => addresses ?? [])
    .filter((address) => address.family === 'IPv4' && !address.internal)
    .map((address) => `http://${address.address}:${port}`)
  return [`http://localhost:${port}`, ...new Set(lan)]
}
