// Login with a one-time code against the real stack: the login page's two ways in, the
// demo account asks for a code by its mobile (Persian digits) or its username, the code
// is read at the carrier simulator, a wrong code is explained, the right one opens the
// dashboard, and the browser keeps the device token the login handed over. Desktop and
// 390 px, light and dark.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, MOBILE, PANEL_URL, launch, openPage, readOtp, shot, waitForPath } from './helpers.mjs'

const DEMO_MOBILE = '989120000000' // cmd/api's seeded demo account
const persian = (s) => s.replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[d])

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

let lastCode = ''
/** The code texted to the demo mobile since `started` (never the previous login's, which may be newer). */
async function demoCode(started) {
  const deadline = Date.now() + 60_000
  for (;;) {
    const code = await readOtp(DEMO_MOBILE, { after: started })
    if (code !== lastCode) {
      lastCode = code
      return code
    }
    if (Date.now() > deadline) throw new Error('no new code for the demo mobile')
    await new Promise((r) => setTimeout(r, 500))
  }
}

/** Asks for a code login of `name` on the login page; returns when the code step shows. */
async function requestCode(page, name) {
  await page.goto(`${PANEL_URL}/login`)
  await page.getByTestId('login-mode-code').click()
  await page.getByTestId('code-login-username').fill(name)
  const started = Date.now() - 2000
  await page.getByTestId('code-login-submit').click()
  await page.getByTestId('otp-code').waitFor()
  return started
}

test('desktop: the mobile in Persian digits, the neutral answer, the code from the simulator, the dashboard', async () => {
  const { context, page } = await openPage(browser)
  await page.goto(`${PANEL_URL}/login`)
  await page.getByTestId('login-mode-password').waitFor()
  await shot(page, 'otp-login-choice')
  await page.getByTestId('login-mode-code').click()
  await page.getByTestId('code-login-username').waitFor()
  await shot(page, 'otp-login-form')
  const started = await requestCode(page, persian('09120000000'))
  const hint = await page.getByTestId('otp-hint').innerText()
  assert.match(hint, /رمز یکبار مصرف|رمز به شماره همراه/)
  for (const part of ['0912', '912', '0000', persian('912'), persian('0000')]) {
    assert.ok(!hint.includes(part), `the hint shows mobile digits: ${hint}`)
  }
  assert.equal(await page.getByTestId('otp-code').getAttribute('autocomplete'), 'one-time-code')
  await page.getByTestId('otp-method-voice').waitFor()
  await page.getByTestId('otp-countdown').waitFor()
  await shot(page, 'otp-login-code')
  const code = await demoCode(started)
  assert.match(code, /^\d{6}$/)
  await page.getByTestId('otp-code').fill(persian(code))
  await page.getByTestId('otp-submit').click()
  await waitForPath(page, /\/dashboard$/)
  await page.getByTestId('me-username').filter({ hasText: DEMO.username }).waitFor()
  const device = await page.evaluate(() => localStorage.getItem('device_token'))
  assert.ok(device, 'the browser keeps a device token')
  assert.equal(await page.evaluate(() => localStorage.getItem('login_mode')), 'code', 'the choice is remembered')

  // The next login from this browser presents the token and keeps it.
  await page.evaluate(() => localStorage.removeItem('token'))
  const again = await requestCode(page, DEMO.username)
  await page.getByTestId('otp-code').fill(await demoCode(again))
  await page.getByTestId('otp-submit').click()
  await waitForPath(page, /\/dashboard$/)
  assert.equal(await page.evaluate(() => localStorage.getItem('device_token')), device)
  await context.close()
})

test('390 px, dark: a wrong code is explained under the field, the pasted code logs in', async () => {
  const { context, page } = await openPage(browser, MOBILE)
  await context.addInitScript(() => localStorage.setItem('dark', 'true'))
  await page.goto(`${PANEL_URL}/login`)
  await page.getByTestId('login-mode-code').click()
  await page.getByTestId('code-login-submit').click()
  await page.getByText('نام کاربری یا شماره همراه را وارد کنید').waitFor()
  assert.ok(await page.evaluate(() => document.documentElement.classList.contains('dark')))
  await shot(page, 'otp-login-mobile-dark-form')
  const started = await requestCode(page, DEMO.username)
  const code = await demoCode(started)
  const wrong = code === '000000' ? '111111' : '000000'
  await page.getByTestId('otp-code').fill(wrong)
  await page.getByTestId('otp-submit').click()
  await page.getByText(/کد تایید اشتباه است؛ .* تلاش دیگر باقی مانده است/).waitFor()
  const width = await page.evaluate(() => document.documentElement.scrollWidth)
  assert.ok(width <= 390, `the page scrolls sideways at 390 px (${width})`)
  await shot(page, 'otp-login-mobile-dark-wrong')
  await page.getByTestId('otp-code').fill('')
  await page.getByTestId('otp-code').focus()
  await page.keyboard.insertText(`کد: ${persian(code)}`) // a paste of the SMS's line: only the digits stay
  assert.equal(await page.getByTestId('otp-code').inputValue(), persian(code))
  await page.getByTestId('otp-submit').click()
  await waitForPath(page, /\/dashboard$/)
  assert.ok(await page.evaluate(() => localStorage.getItem('device_token')))
  await context.close()
})
