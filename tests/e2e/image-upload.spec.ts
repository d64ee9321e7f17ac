// Both image uploads (avatar, course image) check the file in the browser with the same wording before sending
// it; the server checks again with the same table (src-shared/uploads.ts).
import { IMAGE_MAX_BYTES, IMAGE_UPLOAD_MESSAGES } from '../../src-shared/uploads.ts'
import { expect, test } from './fixtures.ts'

const tooLarge = { name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(IMAGE_MAX_BYTES + 1) }
const notAnImage = { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') }

test('a course image over 2 MB or not an image is refused before any upload', async ({ page, login }) => {
  await login({ role: 'editor' })
  const uploads: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/api/admin/course-image')) uploads.push(request.url())
  })
  await page.goto('/admin/courses?new=true')
  const dialog = page.getByRole('dialog', { name: 'Add New Course' })
  await dialog.getByLabel('Course image').setInputFiles(tooLarge)
  await expect(page.getByText(IMAGE_UPLOAD_MESSAGES.tooLarge)).toBeVisible()
  await dialog.getByLabel('Course image').setInputFiles(notAnImage)
  await expect(page.getByText(IMAGE_UPLOAD_MESSAGES.notImage)).toBeVisible()
  expect(uploads).toEqual([])
})

test('the avatar says the same', async ({ page, login }) => {
  await login()
  await page.goto('/account')
  await page.getByTestId('avatar-input').setInputFiles(tooLarge)
  await expect(page.getByText(IMAGE_UPLOAD_MESSAGES.tooLarge)).toBeVisible()
})
