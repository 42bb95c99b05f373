// API keys against the real stack: the demo owner creates a key in the panel (the
// one-time code read at the carrier simulator), the secret is shown once, the key
// reads the credit through the API (Bearer and the apikey header), then the owner
// deletes it and the API refuses it.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { API, DEMO, MOBILE, apiToken, launch, openPage, randomDigits, readOtp, shot, signInWithToken } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

const credit = (headers) => fetch(`${API}/payment/credit/mine`, { headers })

test('owner creates an API key with the texted code and the key reads the credit', async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const { context, page } = await openPage(browser)
  await signInWithToken(page, token, '/developers/api-keys')
  await page.getByTestId('apikey-new').click()
  const title = `فروشگاه ${randomDigits(4)}`
  await page.getByTestId('apikey-title').fill(title)
  await page.getByTestId('apikey-ips').fill('127.0.0.1\n::1')
  await page.getByTestId('scope-wallet.view').click()
  await shot(page, 'apikeys-create')
  const asked = Date.now() - 2000
  await page.getByTestId('apikey-send-otp').click()
  await page.getByTestId('apikey-otp-step').waitFor()
  await page.getByTestId('apikey-code').fill(await readOtp('989120000000', { after: asked }))
  await page.getByTestId('apikey-create').click()
  const secret = await page.getByTestId('apikey-secret').inputValue()
  assert.match(secret, /^chp_live_[0-9a-f]{12}_/)
  await shot(page, 'apikeys-secret')
  await page.getByTestId('apikey-done').click()
  await page.getByText(title.replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[d])).waitFor()
  await shot(page, 'apikeys-list')

  const bearer = await credit({ Authorization: `Bearer ${secret}` })
  assert.equal(bearer.status, 200)
  assert.ok(bearer.headers.get('x-ratelimit-limit'))
  assert.equal((await credit({ apikey: secret })).status, 200)

  await page.locator('[data-testid^="apikey-delete-"]').first().click()
  await page.getByTestId('apikey-delete-confirm').click()
  await page.getByText('هنوز کلید API نساخته‌اید').waitFor()
  assert.equal((await credit({ apikey: secret })).status, 401)
  await context.close()

  const mobile = await openPage(browser, MOBILE)
  await signInWithToken(mobile.page, token, '/developers/api-keys')
  await mobile.page.getByTestId('apikey-new').waitFor()
  await shot(mobile.page, 'apikeys-mobile')
  await mobile.context.close()
})
