// Colleagues against the real stack: the owner creates a role and invites a colleague
// (national-id checksum checked in the form); the colleague sets a password with the
// invitation code read at the carrier simulator, logs in with two-step login, sees a
// menu limited to the role, and the 403-8 access message on a page the role lacks.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, MOBILE, PANEL_URL, apiToken, launch, openPage, randomDigits, randomMobile, readOtp, shot, signInWithToken, toIntl, waitForPath } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

const persian = (s) => s.replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[d])
const ACCESS_LIMITED = 'دسترسی شما محدود است؛ برای افزایش سطح دسترسی با مدیر خود هماهنگ کنید'

/** A valid national id: nine digits and their check digit. */
function nationalId() {
  const nine = randomDigits(9)
  let sum = 0
  for (let i = 0; i < 9; i++) sum += Number(nine[i]) * (10 - i)
  const r = sum % 11
  return nine + String(r < 2 ? r : 11 - r)
}

/** The newest code to a number that differs from `previous`. */
async function nextOtp(intl, previous, after) {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    const code = await readOtp(intl, { after })
    if (code !== previous) return code
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error(`no new code for ${intl}`)
}

test('owner creates a role and invites a colleague, who sees a limited menu and 403-8', async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const { context, page } = await openPage(browser)
  const roleName = `گزارش‌گیر ${randomDigits(4)}`
  await signInWithToken(page, token, '/colleagues/create-access')
  await page.getByTestId('role-name').fill(roleName)
  await page.getByTestId('perm-report.view').click()
  await shot(page, 'colleagues-role-form')
  await page.getByTestId('role-save').click()
  await waitForPath(page, /\/colleagues$/)
  await page.getByText(persian(roleName)).first().waitFor()

  const mobile = randomMobile()
  await page.goto(`${PANEL_URL}/colleagues/create`)
  await page.getByTestId('colleague-name').fill('همکار آزمون')
  await page.getByTestId('colleague-mobile').fill(mobile)
  await page.getByTestId('colleague-national-id').fill('0012345678') // wrong check digit
  await page.getByTestId('colleague-role').selectOption({ label: persian(roleName) })
  await page.getByTestId('colleague-save').click()
  await page.getByText('کد ملی معتبر نیست').waitFor()
  await page.getByTestId('colleague-national-id').fill(nationalId())
  const invited = Date.now() - 2000
  await page.getByTestId('colleague-save').click()
  await page.getByTestId('status-pending').waitFor()
  await shot(page, 'colleagues-details')
  await page.goto(`${PANEL_URL}/colleagues`)
  await page.getByTestId('status-pending').first().waitFor()
  await shot(page, 'colleagues-list')
  await context.close()
  const m = await openPage(browser, MOBILE)
  await signInWithToken(m.page, token, '/colleagues')
  await m.page.getByTestId('status-pending').first().waitFor()
  await shot(m.page, 'colleagues-list-mobile')
  await m.context.close()

  // The colleague accepts with the texted code, then logs in (two-step).
  const code = await readOtp(toIntl(mobile), { after: invited })
  const password = `Pw${randomDigits(6)}x@A`
  const c = await openPage(browser)
  await c.page.goto(`${PANEL_URL}/accept-invite?username=${mobile}`)
  await c.page.getByTestId('accept-code').fill(code)
  await c.page.getByTestId('accept-password').fill(password)
  await c.page.getByTestId('accept-password2').fill(password)
  await c.page.getByTestId('accept-submit').click()
  await waitForPath(c.page, /\/login$/)
  await c.page.getByTestId('login-username').fill(mobile)
  await c.page.getByTestId('login-password').fill(password)
  const started = Date.now() - 2000
  await c.page.getByTestId('login-submit').click()
  await c.page.getByTestId('otp-code').waitFor()
  await c.page.getByTestId('otp-code').fill(await nextOtp(toIntl(mobile), code, started))
  await c.page.getByTestId('otp-submit').click()
  await waitForPath(c.page, /\/dashboard$/)

  const menu = c.page.getByRole('navigation', { name: 'منوی اصلی' })
  await menu.getByText('گزارش‌ها').waitFor()
  assert.equal(await menu.getByText('همکاران').count(), 0)
  assert.equal(await menu.getByText('ارسال پیامک').count(), 0)
  await shot(c.page, 'colleague-limited-menu')
  await c.page.goto(`${PANEL_URL}/colleagues`)
  await c.page.getByTestId('access-limited').getByText(ACCESS_LIMITED).waitFor()
  await shot(c.page, 'colleague-403-8')
  await c.context.close()
})
