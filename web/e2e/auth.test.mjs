// Auth screens against the real stack: sign-up proves the mobile with the SMS code (read
// from the carrier simulator), two-step login, forgot-password with a six-digit code and
// no mobile digits shown, and the external-login link with its confirmation screen.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, PANEL_URL, apiCall, apiToken, launch, openPage, randomDigits, randomMobile, readOtp, shot, toIntl, waitForPath } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

const persian = (s) => s.replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[d])

/** The newest code to a number that differs from `previous` (the sign-up's code may still be the latest). */
async function nextOtp(intl, previous, after) {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    const code = await readOtp(intl, { after })
    if (code !== previous) return code
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error(`no new OTP for ${intl}`)
}

/** Signs a fresh user up through the API and proves the mobile with the texted code. */
async function registerVerified() {
  const user = { username: `e2e${randomDigits(8)}`, mobile: randomMobile(), password: `Pw${randomDigits(6)}x@A` }
  const started = Date.now() - 2000
  const reg = await apiCall('POST', '/user/register', {
    name: 'کاربر آزمون', username: user.username, mobile: user.mobile, password: user.password,
    password_confirmation: user.password, accept_rules: true,
  })
  assert.equal(reg.verification_required, true)
  user.code = await readOtp(toIntl(user.mobile), { after: started })
  assert.match(user.code, /^\d{6}$/)
  await apiCall('POST', '/user/register/verify', { verify_token: reg.verify_token, code: user.code })
  return user
}

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

test('fresh user: register and verify via API, UI login, OTP from the simulator', async () => {
  const user = await registerVerified()
  const { context, page } = await openPage(browser)
  await page.goto(`${PANEL_URL}/login`)
  await page.getByTestId('login-username').fill(user.username)
  await page.getByTestId('login-password').fill(user.password)
  const started = Date.now() - 2000
  await page.getByTestId('login-submit').click()

  await page.getByTestId('otp-code').waitFor()
  await shot(page, 'login-otp')
  const code = await nextOtp(toIntl(user.mobile), user.code, started)
  // The field takes Persian digits too: type the code in Persian to prove it.
  await page.getByTestId('otp-code').fill(persian(code))
  await page.getByTestId('otp-submit').click()

  await waitForPath(page, /\/dashboard$/)
  assert.ok(await page.evaluate(() => localStorage.getItem('token')))
  await page.getByTestId('me-username').filter({ hasText: user.username }).waitFor()
  await context.close()
})

test('sign-up in the panel: the texted code proves the mobile and opens the dashboard', async () => {
  const username = `e2r${randomDigits(8)}`
  const mobile = randomMobile()
  const password = `Pw${randomDigits(6)}x@A`
  const { context, page } = await openPage(browser)
  await page.goto(`${PANEL_URL}/register`)
  await page.getByTestId('reg-name').fill('کاربر ثبت‌نام')
  await page.getByTestId('reg-username').fill(username)
  await page.getByTestId('reg-mobile').fill(mobile)
  await page.getByTestId('reg-password').fill(password)
  await page.getByTestId('reg-password2').fill(password)
  await page.getByTestId('reg-accept').click()
  const started = Date.now() - 2000
  await page.getByTestId('reg-submit').click()

  await page.getByTestId('reg-verify-code').waitFor()
  await page.getByTestId('reg-verify-countdown').waitFor()
  await shot(page, 'register-verify')
  // Until the code is confirmed the password alone opens nothing.
  await assert.rejects(apiCall('POST', '/acl/auth/login', { username, password }), /403/)
  const code = await readOtp(toIntl(mobile), { after: started })
  await page.getByTestId('reg-verify-code').fill(persian(code))
  await page.getByTestId('reg-verify-submit').click()
  await waitForPath(page, /\/dashboard$/)
  await page.getByTestId('me-username').filter({ hasText: username }).waitFor()
  await context.close()
})

test('forgot password: a uniform answer without mobile digits, a six-digit code, a new password', async () => {
  const user = await registerVerified()
  const { context, page } = await openPage(browser)
  await page.goto(`${PANEL_URL}/forgot-password`)
  await page.getByTestId('forgot-username').fill(user.username)
  const started = Date.now() - 2000
  await page.getByTestId('forgot-submit').click()
  await page.getByTestId('forgot-code').waitFor()
  const hint = await page.getByTestId('forgot-hint').innerText()
  const local = user.mobile.slice(1)
  for (const part of [local.slice(0, 3), local.slice(-4), persian(local.slice(-4)), persian(local.slice(0, 3))]) {
    assert.ok(!hint.includes(part), `the hint shows mobile digits: ${hint}`)
  }
  await shot(page, 'forgot-code')
  const code = await nextOtp(toIntl(user.mobile), user.code, started)
  assert.match(code, /^\d{6}$/)
  await page.getByTestId('forgot-code').fill(code)
  await page.getByTestId('forgot-submit').click()
  const newPassword = `Nw${randomDigits(6)}x@B`
  await page.getByTestId('forgot-password').fill(newPassword)
  await page.getByTestId('forgot-password2').fill(newPassword)
  await page.getByTestId('forgot-save').click()
  await waitForPath(page, /\/login$/)
  const res = await apiCall('POST', '/acl/auth/login', { username: user.username, password: newPassword })
  assert.equal(res.otp_required, true)

  // An unknown username gets the same screen.
  await page.goto(`${PANEL_URL}/forgot-password`)
  await page.getByTestId('forgot-username').fill(`nobody${randomDigits(6)}`)
  await page.getByTestId('forgot-submit').click()
  await page.getByTestId('forgot-code').waitFor()
  assert.equal(await page.getByTestId('forgot-hint').innerText(), hint)
  await context.close()
})

test('external login: a one-time code, a confirmation screen naming the account, no token in links', async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const issued = await apiCall('POST', '/acl/auth/external_login/issue', {}, token)
  assert.match(issued.path, /^\/external-login\?code=/)
  const { context, page } = await openPage(browser)
  await page.goto(`${PANEL_URL}${issued.path}`)
  await page.getByTestId('external-login-confirm').waitFor()
  assert.equal(await page.getByTestId('external-login-username').innerText(), DEMO.username)
  assert.equal(await page.evaluate(() => localStorage.getItem('token')), null)
  await shot(page, 'external-login-confirm')
  await page.getByTestId('external-login-accept').click()
  await waitForPath(page, /\/dashboard$/)
  await page.getByTestId('me-username').filter({ hasText: DEMO.username }).waitFor()
  await context.close()

  // The code is used up; a link with a session token is refused and stores nothing.
  for (const path of [issued.path, `/external-login?token=${token}`]) {
    const { context: c2, page: p2 } = await openPage(browser)
    await p2.goto(`${PANEL_URL}${path}`)
    await p2.getByTestId('external-login-error').waitFor()
    assert.equal(await p2.evaluate(() => localStorage.getItem('token')), null)
    await c2.close()
  }

  // Cancelling leaves the visitor signed out.
  const again = await apiCall('POST', '/acl/auth/external_login/issue', {}, token)
  const { context: c3, page: p3 } = await openPage(browser)
  await p3.goto(`${PANEL_URL}${again.path}`)
  await p3.getByTestId('external-login-cancel').click()
  await waitForPath(p3, /\/login$/)
  assert.equal(await p3.evaluate(() => localStorage.getItem('token')), null)
  await c3.close()
})

test('login to dashboard: the page code loads while typing, its data with the token', async () => {
  const { context, page } = await openPage(browser)
  const chunks = []
  page.on('requestfinished', (r) => {
    if (/\/assets\/(DashboardPage|AppLayout)-[^/]+\.js$/.test(r.url())) chunks.push({ url: r.url(), at: Date.now() })
  })
  await page.goto(`${PANEL_URL}/login`)
  await page.getByTestId('login-username').fill(DEMO.username)
  await page.getByTestId('login-password').fill(DEMO.password)
  const deadline = Date.now() + 60_000 // a safety net: the code is fetched while typing, however slowly
  while (chunks.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
  const answer = page.waitForResponse((r) => r.url().endsWith('/acl/auth/login'))
  await page.getByTestId('login-submit').click()
  await answer
  const answered = Date.now()
  await page.getByTestId('dashboard-credit').waitFor()
  const shown = Date.now() - answered
  console.log(`login answer → dashboard credit shown: ${shown} ms (layout and page code fetched before the answer)`)
  assert.equal(chunks.length, 2, `layout and dashboard code fetched while typing: ${JSON.stringify(chunks)}`)
  assert.ok(chunks.every((c) => c.at < answered))
  await context.close()
})
