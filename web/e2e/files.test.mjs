// File management against the real stack: an upload appears in the list with its category
// and Jalali date, the category filter narrows it, and deleting it while a scheduled send
// reads it is refused with the send named.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { API, DEMO, MOBILE, PANEL_URL, apiCall, apiToken, launch, openPage, randomMobile, shot, signInWithToken } from './helpers.mjs'

let browser
let token
before(async () => {
  browser = await launch()
  token = await apiToken(DEMO.username, DEMO.password)
})
after(async () => { await browser?.close() })

async function open(path, { viewport, dark = false } = {}) {
  const { context, page } = await openPage(browser, viewport)
  await page.goto(`${PANEL_URL}/login`)
  await page.evaluate((d) => (d ? localStorage.setItem('dark', 'true') : localStorage.removeItem('dark')), dark)
  await signInWithToken(page, token, path)
  return { context, page }
}

async function upload(name, content) {
  const form = new FormData()
  form.append('file', new Blob([content]), name)
  form.append('purpose', 'send')
  const res = await fetch(`${API}/user/files`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form })
  const json = await res.json()
  assert.equal(res.status, 201, JSON.stringify(json.meta))
  for (let i = 0; i < 120; i++) {
    const f = await apiCall('GET', `/user/files/${json.data.id}`, undefined, token)
    if (f.status !== 'parsing') return f
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error('file did not parse')
}

test('file management: list by category, delete refused while a scheduled send reads it', { timeout: 180_000 }, async () => {
  const file = await upload('scheduled-numbers.csv', `mobile\n${randomMobile()}\n${randomMobile()}\n`)
  assert.equal(file.status, 'ready')
  const lines = await apiCall('GET', '/number/numbers', undefined, token)
  const sender = (lines.find?.((l) => l.is_default) ?? lines[0] ?? lines.rows?.[0])?.number
  const sendAt = new Date(Date.now() + 3 * 3600_000).toISOString()
  const sent = await apiCall('POST', '/send', { type: 'file', file_id: file.id, sender, text: 'یادآوری', send_at: sendAt }, token)

  const { context, page } = await open('/file-management')
  const row = page.getByTestId(`file-row-send-${file.id}`)
  await row.waitFor()
  assert.ok((await page.locator('tr', { has: row }).textContent()).includes('ارسال از فایل'))
  await shot(page, 'files-list')
  await page.getByTestId(`file-delete-send-${file.id}`).click()
  await page.getByTestId('file-delete-confirm').click()
  const dialog = page.getByRole('dialog')
  const persianID = String(sent.id).replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[d])
  await dialog.getByText(`ارسال زمان‌بندی‌شده شماره ${persianID}`, { exact: false }).waitFor()
  await shot(page, 'files-delete-refused')
  await context.close()

  // The category filter: contact imports hold none of the send sources.
  const c = await open('/file-management?category=contacts')
  await c.page.locator('table').or(c.page.getByText('فایلی در این دسته نیست')).first().waitFor()
  assert.equal(await c.page.getByTestId(`file-row-send-${file.id}`).count(), 0)
  await c.context.close()

  for (const [name, opts] of [['files-dark', { dark: true }], ['files-mobile', { viewport: MOBILE }], ['files-mobile-dark', { viewport: MOBILE, dark: true }]]) {
    const v = await open('/file-management', opts)
    await v.page.getByTestId(`file-row-send-${file.id}`).first().waitFor()
    await shot(v.page, name)
    await v.context.close()
  }
  await apiCall('POST', '/send/cancel', { id: sent.id }, token)
})
