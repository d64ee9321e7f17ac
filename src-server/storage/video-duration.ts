// A video's length read from its container, so a lesson's duration is the file's and not what an editor typed:
//   WebM/Matroska: Segment → Info → Duration (a float in TimecodeScale units, nanoseconds × 1e6 by default)
//   MP4/MOV (ISO BMFF): the movie header box moov → mvhd (duration / timescale); moov may sit at the end of the file
// Only the few header bytes are read, through `read` (a local file or ranged reads of a stored object), never the
// whole file. Null when the container does not say (e.g. a live-recorded WebM without Duration).

/** Bytes [start, start + length) of the file (fewer at its end). */
export type ReadAt = (start: number, length: number) => Promise<Uint8Array>

const SEGMENT = 0x18538067
const INFO = 0x1549a966
const CLUSTER = 0x1f43b675
const TIMECODE_SCALE = 0x2ad7b1
const DURATION = 0x4489

export async function readVideoDuration(read: ReadAt, size: number): Promise<number | null> {
  const head = await read(0, 12)
  if (isEbml(head)) return webmDuration(read, size)
  if (head.length >= 8 && String.fromCharCode(...head.subarray(4, 8)) === 'ftyp') return mp4Duration(read, size)
  return null
}

const isEbml = (bytes: Uint8Array) => bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3

/** An EBML variable-length integer at `at`: its value (marker bit removed unless `keepMarker`) and length. */
function vint(bytes: Uint8Array, at: number, keepMarker: boolean): { value: number; length: number; unknown: boolean } {
  const first = bytes[at]
  if (first === undefined || first === 0) throw new RangeError('Not an EBML number')
  const length = Math.clz32(first) - 23
  if (at + length > bytes.length) throw new RangeError('EBML number cut short')
  let value = keepMarker ? first : first & (0xff >> length)
  let allOnes = value === 0xff >> length
  for (let i = 1; i < length; i++) {
    const byte = bytes[at + i]!
    value = value * 256 + byte
    if (byte !== 0xff) allOnes = false
  }
  return { value, length, unknown: !keepMarker && allOnes }
}

interface Element {
  id: number
  dataStart: number
  /** null: unknown size (runs to the end of its parent). */
  dataSize: number | null
}

async function elementAt(read: ReadAt, at: number): Promise<Element> {
  const bytes = await read(at, 12)
  const id = vint(bytes, 0, true)
  const size = vint(bytes, id.length, false)
  return { id: id.value, dataStart: at + id.length + size.length, dataSize: size.unknown ? null : size.value }
}

async function webmDuration(read: ReadAt, fileSize: number): Promise<number | null> {
  const header = await elementAt(read, 0)
  if (header.dataSize === null) return null
  const segment = await elementAt(read, header.dataStart + header.dataSize)
  if (segment.id !== SEGMENT) return null
  const segmentEnd = segment.dataSize === null ? fileSize : Math.min(fileSize, segment.dataStart + segment.dataSize)
  // Info comes before the clusters in every file a muxer writes; stop at the first cluster.
  for (let at = segment.dataStart, steps = 0; at < segmentEnd && steps < 64; steps++) {
    const child = await elementAt(read, at)
    if (child.id === CLUSTER || child.dataSize === null) return null
    if (child.id === INFO) return infoDuration(await read(child.dataStart, Math.min(child.dataSize, 4096)))
    at = child.dataStart + child.dataSize
  }
  return null
}

function infoDuration(info: Uint8Array): number | null {
  let scale = 1_000_000
  let duration: number | null = null
  for (let at = 0; at < info.length; ) {
    const id = vint(info, at, true)
    const size = vint(info, at + id.length, false)
    const start = at + id.length + size.length
    const data = info.subarray(start, start + size.value)
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
    if (id.value === TIMECODE_SCALE) scale = data.reduce((value, byte) => value * 256 + byte, 0)
    if (id.value === DURATION) {
      if (data.length === 4) duration = view.getFloat32(0)
      else if (data.length === 8) duration = view.getFloat64(0)
    }
    at = start + size.value
  }
  if (duration === null || !Number.isFinite(duration) || duration <= 0) return null
  return (duration * scale) / 1e9
}

/** The boxes inside [start, end): their type, where their content starts and ends. */
async function* boxes(read: ReadAt, start: number, end: number) {
  for (let at = start, steps = 0; at + 8 <= end && steps < 1000; steps++) {
    const header = await read(at, 16)
    if (header.length < 8) return
    const view = new DataView(header.buffer, header.byteOffset, header.byteLength)
    let size = view.getUint32(0)
    const type = String.fromCharCode(...header.subarray(4, 8))
    let contentStart = at + 8
    if (size === 1) {
      if (header.length < 16) return
      size = Number(view.getBigUint64(8))
      contentStart = at + 16
    } else if (size === 0) {
      size = end - at
    }
    if (size < 8) return
    yield { type, contentStart, end: Math.min(at + size, end) }
    at += size
  }
}

async function mp4Duration(read: ReadAt, fileSize: number): Promise<number | null> {
  for await (const box of boxes(read, 0, fileSize)) {
    if (box.type !== 'moov') continue
    for await (const child of boxes(read, box.contentStart, box.end)) {
      if (child.type !== 'mvhd') continue
      const data = await read(child.contentStart, 32)
      const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
      const version = data[0]
      const timescale = version === 1 ? view.getUint32(20) : view.getUint32(12)
      const duration = version === 1 ? Number(view.getBigUint64(24)) : view.getUint32(16)
      if (!timescale || !duration || duration === 0xffffffff) return null
      return duration / timescale
    }
    return null
  }
  return null
}

/** The length of a stored video, read with a few ranged reads (null when missing or the container does not say). */
export async function storedVideoDuration(
  storage: {
    size(key: string): Promise<number | null>
    read(key: string, range?: { start: number; end: number }): Promise<AsyncIterable<Uint8Array>>
  },
  key: string,
): Promise<number | null> {
  const size = await storage.size(key)
  if (!size) return null
  return readVideoDuration(async (start, length) => {
    if (start >= size) return new Uint8Array()
    const chunks: Uint8Array[] = []
    for await (const chunk of await storage.read(key, { start, end: Math.min(size, start + length) - 1 })) {
      chunks.push(chunk)
    }
    return Buffer.concat(chunks)
  }, size)
}
