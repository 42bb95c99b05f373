// Patterns against the real stack: the demo owner writes a pattern in the panel (the
// rules answer inline), the seeded staff user approves it in the back office after
// looking at its text and variables, an API key made through the API sends it with
// fetch (retried with the same Idempotency-Key: one send), and the code arrives at
// the simulated handset.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import {
  API, DEMO, MOBILE, PANEL_URL, apiCall, apiToken, launch, openPage, randomDigits, randomMobile, readOtp, signInWithToken,
  toIntl, waitForPath,
} from './helpers.mjs'

const STAFF = { username: 'admin', password: 'Admin@12345', mobile: '989120000099' }
const shot = async (page, name) => {
  await page.waitForTimeout(300)
  await page.screenshot({ path: `/tmp/patterns-${name}.png`, fullPage: true })
}

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

async function staffLogin(page) {
  await page.goto(`${PANEL_URL}/admin/login`)
  await page.getByTestId('admin-username').fill(STAFF.username)
  await page.getByTestId('admin-password').fill(STAFF.password)
  const started = Date.now() - 2000
  await page.getByTestId('admin-login-submit').click()
  await page.getByTestId('admin-otp').fill(await readOtp(STAFF.mobile, { after: started }))
  await page.getByTestId('admin-otp-submit').click()
  await waitForPath(page, /^\/admin\/reviews$/)
}

/** An API key of the demo owner that may send, made through the API with the texted code. */
async function sendKey(token) {
  const asked = Date.now() - 2000
  const step = await apiCall('POST', '/acl/api_key/otp', {}, token)
  const code = await readOtp('989120000000', { after: asked })
  const key = await apiCall('POST', '/acl/api_key/create', {
    title: `الگو ${randomDigits(4)}`, allowed_ips: [], expires_at: null, scopes: ['send.create'], otp_token: step.otp_token, code,
  }, token)
  return key.secret
}

test('a pattern is written, approved by staff and sent with an API key to the handset', { timeout: 240_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const { brand } = await apiCall('GET', '/patterns/brand', undefined, token)
  const { context, page } = await openPage(browser)
  await signInWithToken(page, token, '/pattern')
  await page.getByTestId('pattern-new').click()
  await waitForPath(page, /^\/pattern\/create$/)
  const title = `ورود ${randomDigits(4)}`
  await page.getByTestId('pattern-title').fill(title)
  await page.getByTestId('pattern-kind').selectOption('otp')
  const editor = page.getByLabel('متن الگو')
  await editor.fill('کد ورود شما: %code% http://example.ir')
  await page.getByTestId('pattern-save').click()
  // The rules answer inline before anything is stored.
  await page.getByText(`نام برند («${brand}») باید در متن الگو آمده باشد`).waitFor()
  await page.getByText('پیوندهای متن الگو باید با https:// شروع شوند').waitFor()
  await shot(page, 'create-rules')
  await editor.fill(`${brand}\nکد ورود شما: `)
  await page.getByRole('button', { name: 'درج برچسب code' }).click() // the variable chip inserts %code% at the caret
  assert.equal(await editor.inputValue(), `${brand}\nکد ورود شما: %code%`)
  await page.getByLabel('نوع متغیر').selectOption('integer')
  await page.getByLabel('طول متغیر').fill('6')
  await page.getByTestId('pattern-preview').getByText('123456').waitFor()
  await shot(page, 'create')
  await page.getByTestId('pattern-save').click()
  await waitForPath(page, /^\/pattern\/\d+$/)
  const id = Number(page.url().split('/').pop())
  const code = (await page.getByTestId('pattern-code').textContent()).trim()
  await page.getByText('این الگو هنوز تایید نشده است').waitFor()
  await shot(page, 'detail-pending')

  // Staff look at the text and variables, then approve.
  const pattern = await apiCall('GET', `/patterns/${id}`, undefined, token)
  const versionID = pattern.versions[0].id
  const staff = await openPage(browser)
  await staffLogin(staff.page)
  await staff.page.getByTestId(`view-${versionID}`).click()
  await staff.page.getByTestId('pattern-review').getByText('کد ورود شما: %code%').waitFor()
  await shot(staff.page, 'review')
  await staff.page.keyboard.press('Escape')
  await staff.page.getByTestId(`approve-${versionID}`).click()
  await staff.page.getByTestId(`approve-${versionID}`).waitFor({ state: 'detached' })
  // Staff define the systemic patterns; the seeded login code is one.
  await staff.page.goto(`${PANEL_URL}/admin/patterns`)
  await staff.page.getByText('login-otp').waitFor()
  await shot(staff.page, 'admin-systemic')
  await staff.context.close()

  // The customer sees it approved, with the send form.
  await page.reload()
  await page.getByTestId('pattern-send-form').waitFor()
  await shot(page, 'detail-approved')

  // An integration sends it with an API key; a retry with the same key is the same send.
  const secret = await sendKey(token)
  const mobile = randomMobile()
  const otp = String(100000 + Math.floor(Math.random() * 899999))
  const post = () => fetch(`${API}/patterns/send`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json', 'Idempotency-Key': `e2e-${otp}` },
    body: JSON.stringify({ code, recipient: mobile, values: { code: otp }, local_id: `login-${otp}` }),
  })
  const first = await post()
  const sent = (await first.json()).data
  assert.equal(first.status, 201, JSON.stringify(sent))
  assert.equal(sent.type, 'pattern_otp')
  assert.equal(sent.local_id, `login-${otp}`)
  const again = await post()
  assert.equal(again.status, 200)
  assert.equal((await again.json()).data.id, sent.id)
  assert.equal(await readOtp(toIntl(mobile), { timeoutMs: 60_000 }), otp)

  // A change of kind is reviewed like a change of text: the editor says so, the detail
  // shows the kind that still sends, and a send still goes out as the approved kind.
  await page.goto(`${PANEL_URL}/pattern/update/${id}`)
  await page.getByText('تغییر نوع الگو هم مانند تغییر متن پس از بررسی پشتیبانی اعمال می‌شود', { exact: false }).waitFor()
  await page.getByTestId('pattern-kind').selectOption('normal')
  await page.getByTestId('pattern-save').click()
  await waitForPath(page, /^\/pattern\/\d+$/)
  await page.getByTestId('pattern-kind-pending').waitFor()
  await shot(page, 'detail-kind-pending')
  const later = await fetch(`${API}/patterns/send`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ code, recipient: mobile, values: { code: otp } }),
  })
  assert.equal(later.status, 201)
  assert.equal((await later.json()).data.type, 'pattern_otp')

  await page.goto(`${PANEL_URL}/pattern/systemic`)
  await page.getByText('login-otp').click()
  await waitForPath(page, /^\/pattern\/systemic\/\d+$/)
  await page.getByTestId('pattern-send-form').waitFor()
  assert.equal(await page.getByTestId('pattern-edit').count(), 0)
  await shot(page, 'systemic-detail')

  await page.goto(`${PANEL_URL}/pattern`)
  await page.getByText(title.replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[d])).waitFor()
  await shot(page, 'list')
  await page.getByTestId('theme-toggle').click()
  await shot(page, 'list-dark')
  await context.close()

  const m = await openPage(browser, MOBILE)
  await signInWithToken(m.page, token, `/pattern/${id}`)
  await m.page.getByTestId('pattern-send-form').waitFor()
  await shot(m.page, 'detail-mobile')
  await m.context.close()
})
