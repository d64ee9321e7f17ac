// One rule for every uploaded file's name (storage/document-type.ts): what lists show and downloads send.
import { describe, expect, it } from 'vitest'
import { uploadFileName } from '../../src-server/creators/upload-rows.ts'
import { cleanFileName, safeFileName } from '../../src-server/storage/document-type.ts'

describe('safeFileName', () => {
  it('keeps letters, digits, space and .()- and drops any path', () => {
    expect(safeFileName('Brief (v2) - final.pdf', 'file.pdf')).toBe('Brief (v2) - final.pdf')
    expect(safeFileName('C:\\Users\\ann\\plan.pdf', 'file.pdf')).toBe('plan.pdf')
    expect(safeFileName('../../etc/passwd', 'file')).toBe('passwd')
  })

  it('makes each run of other characters one underscore, so no quote or control character reaches a header', () => {
    expect(safeFileName('a"b;\r\nc.pdf', 'file.pdf')).toBe('a_b_c.pdf')
    expect(safeFileName('résumé.doc', 'file.doc')).toBe('r_sum_.doc')
  })

  it('cuts at 120 characters and falls back when nothing is left', () => {
    expect(safeFileName(`${'x'.repeat(200)}.mp4`, 'video')).toHaveLength(120)
    expect(safeFileName('   ', 'video')).toBe('video')
    expect(safeFileName(null, 'video')).toBe('video')
  })

  it('is the rule of the document and the upload names alike', () => {
    expect(cleanFileName('"?"', 'pdf')).toBe('_')
    expect(cleanFileName('', 'pdf')).toBe('file.pdf')
    expect(uploadFileName(undefined)).toBe('video')
    expect(uploadFileName('my clip?.mp4')).toBe(safeFileName('my clip?.mp4', 'video'))
  })
})
