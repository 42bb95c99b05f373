// A fresh user registers (API), logs in through the UI and passes the SMS one-time code read
// from the carrier simulator.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { PANEL_URL, apiCall, launch, openPage, randomDigits, randomMobile, readOtp, shot, toIntl, waitForPath } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

test('login page shows the branded description and refuses wrong credentials', async () => {
  const { context, page } = await openPage(browser)
  await page.goto(`${PANEL_URL}/login`)
  await page.getByTestId('login-username').waitFor()
  assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl')
  await shot(page, 'login')
  await page.getByTestId('login-username').fill(`nobody${randomDigits(6)}`)
  await page.getByTestId('login-password').fill('Wrong@12345')
  await page.getByTestId('login-submit').click()
  await page.getByTestId('login-error').waitFor()
  assert.match(page.url(), /\/login$/)
  await context.close()
})

test('fresh user: register via API, UI login, OTP from the simulator', async () => {
  const username = `e2e${randomDigits(8)}`
  const mobile = randomMobile()
  const password = `Pw${randomDigits(6)}x@A`
  await apiCall('POST', '/user/register', {
    name: 'کاربر آزمون', username, mobile, password, password_confirmation: password, accept_rules: true,
  })

  const { context, page } = await openPage(browser)
  await page.goto(`${PANEL_URL}/login`)
  await page.getByTestId('login-username').fill(username)
  await page.getByTestId('login-password').fill(password)
  const started = Date.now() - 2000
  await page.getByTestId('login-submit').click()

  await page.getByTestId('otp-code').waitFor()
  await shot(page, 'login-otp')
  const code = await readOtp(toIntl(mobile), { after: started })
  // The field takes Persian digits too: type the code in Persian to prove it.
  await page.getByTestId('otp-code').fill(code.replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[d]))
  await page.getByTestId('otp-submit').click()

  await waitForPath(page, /\/dashboard$/)
  assert.ok(await page.evaluate(() => localStorage.getItem('token')))
  await page.getByTestId('me-username').filter({ hasText: username }).waitFor()
  await context.close()
})
