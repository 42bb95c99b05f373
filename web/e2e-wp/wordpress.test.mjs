// The WordPress plugin «پیامک چاپار» in a real WordPress (Debian's 6.1 on nginx and
// php-fpm, started by scripts/wordpress-test.sh) against the real Chapar stack: the
// admin activates the plugin, saves the address and an API key made through Chapar's
// API, picks the demo's line from the select the plugin filled through the API, and
// sends a test SMS that the carrier simulator receives (and an empty one that shows
// Chapar's Persian error); a visitor registers with a mobile and gets the welcome SMS,
// then the reset SMS; the admin verifies a mobile on the [chapar_verify_mobile] page
// with the code read at the simulator; another plugin's do_action sends.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, SIM_URL, apiCall, apiToken, launch, openPage, randomDigits, randomMobile, readOtp, shot, toIntl } from '../e2e/helpers.mjs'

const WP = (process.env.WP_URL ?? '').replace(/\/$/, '')
const CHAPAR = (process.env.CHAPAR_URL ?? '').replace(/\/$/, '')
const VERIFY = process.env.WP_VERIFY_URL ?? ''
const ADMIN = { user: 'admin', password: process.env.WP_ADMIN_PASSWORD ?? '' }
const PLUGIN_ROW = 'tr[data-plugin="chapar-sms/chapar-sms.php"]'
const PERSIAN = '۰۱۲۳۴۵۶۷۸۹'

let browser
let admin // the administrator's page, signed in
let secret // the API key the plugin was given
let line // the demo line chosen in the plugin
before(async () => {
  assert.ok(WP && CHAPAR && VERIFY && ADMIN.password, 'run through scripts/wordpress-test.sh (WP_URL, CHAPAR_URL, WP_VERIFY_URL, WP_ADMIN_PASSWORD)')
  browser = await launch()
})
after(async () => {
  await admin?.context.close()
  await browser?.close()
})

/** Waits until the simulator received a message to `intl` whose text holds `part`; returns it. */
async function simulatorGot(intl, part, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs
  let seen = []
  while (Date.now() < deadline) {
    const res = await fetch(`${SIM_URL}/messages?to=${intl}`).catch(() => null)
    if (res?.ok) {
      seen = (await res.json()).messages ?? []
      const hit = seen.find((m) => String(m.text).includes(part))
      if (hit) return hit
    }
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error(`the simulator got nothing holding «${part}» for ${intl}; it got: ${seen.map((m) => m.text).join(' | ') || 'nothing'}`)
}

/** An API key of the demo owner for the plugin: send, lines and wallet, made with the texted code. */
async function pluginKey() {
  const token = await apiToken(DEMO.username, DEMO.password)
  const asked = Date.now() - 2000
  const step = await apiCall('POST', '/acl/api_key/otp', {}, token)
  const code = await readOtp('989120000000', { after: asked, timeoutMs: 60_000 })
  const key = await apiCall('POST', '/acl/api_key/create', {
    title: `وردپرس ${randomDigits(4)}`, allowed_ips: [], expires_at: null,
    scopes: ['send.create', 'number.view', 'wallet.view'], otp_token: step.otp_token, code,
  }, token)
  const lines = await apiCall('GET', '/number/numbers', undefined, token)
  return { secret: key.secret, lines }
}

test('the admin activates the plugin and saves the address, the key (masked after) and the line', { timeout: 120_000 }, async () => {
  admin = await openPage(browser)
  const { page } = admin
  await page.goto(`${WP}/wp-login.php`)
  await page.locator('#user_login').fill(ADMIN.user)
  await page.locator('#user_pass').fill(ADMIN.password)
  await page.locator('#wp-submit').click()
  await page.waitForURL(/\/wp-admin\/?/)

  await page.goto(`${WP}/wp-admin/plugins.php`)
  await page.locator(`${PLUGIN_ROW} .activate a`).click()
  await page.locator(`${PLUGIN_ROW} .deactivate a`).waitFor()

  const key = await pluginKey()
  secret = key.secret
  await page.goto(`${WP}/wp-admin/options-general.php?page=chapar-sms`)
  assert.equal(await page.locator('html').getAttribute('dir'), 'rtl')
  await page.locator('#chapar-line-note').getByText('پس از ذخیره نشانی و کلید').waitFor()
  await page.locator('#chapar-base-url').fill(CHAPAR)
  await page.locator('#chapar-api-key').fill(secret)
  await page.locator('#chapar-sms-save').click()
  await page.locator('#setting-error-settings_updated').waitFor()

  // The key is shown masked: its visible prefix and last four characters, never whole.
  const masked = await page.locator('#chapar-api-key-saved code').textContent()
  assert.ok(masked.startsWith(secret.split('_').slice(0, 3).join('_')) && masked.endsWith(secret.slice(-4)), masked)
  assert.ok(!(await page.content()).includes(secret), 'the page shows the whole key')
  await page.locator('#chapar-sms-credit').getByText('ریال').waitFor()

  // The line select holds the account's lines, read through the API.
  const options = await page.locator('#chapar-line option').evaluateAll((os) => os.map((o) => o.value))
  for (const l of key.lines) assert.ok(options.includes(l.number), `line ${l.number} not in ${options}`)
  line = (key.lines.find((l) => l.kind === 'service') ?? key.lines[0]).number
  await page.locator('#chapar-line').selectOption(line)
  await page.locator('#chapar-otp-pattern').fill('login-otp') // the platform's systemic OTP pattern
  await page.locator('#chapar-sms-save').click()
  await page.locator('#setting-error-settings_updated').waitFor()
  assert.equal(await page.locator('#chapar-line').inputValue(), line)
  assert.equal(await page.locator('#chapar-otp-pattern').inputValue(), 'login-otp')
  await shot(page, 'wordpress-settings')
})

test('«ارسال آزمایشی» reaches the handset; an empty text shows Chapar\'s Persian error', { timeout: 120_000 }, async () => {
  const { page } = admin
  const mobile = randomMobile()
  const text = `آزمایش وردپرس ${randomDigits(6)}`
  await page.locator('#chapar-test-mobile').fill(mobile)
  await page.locator('#chapar-test-text').fill(text)
  await page.locator('#chapar-test-send').click()
  await page.locator('#chapar-test-result.notice-success').getByText('پیامک آزمایشی پذیرفته شد').waitFor()
  assert.match(await page.locator('#chapar-test-result').textContent(), new RegExp(`خط: ${line}`))
  const got = await simulatorGot(toIntl(mobile), text)
  assert.equal(got.from, line)

  await page.locator('#chapar-test-mobile').fill(mobile)
  await page.locator('#chapar-test-text').fill('')
  await page.locator('#chapar-test-send').click()
  await page.locator('#chapar-test-result.notice-error').getByText('متن پیامک را وارد کنید').waitFor()
  await shot(page, 'wordpress-test-error')
})

test('a visitor registers with a mobile (checked as Iranian) and gets the welcome SMS, then the reset SMS', { timeout: 120_000 }, async () => {
  const { context, page } = await openPage(browser)
  const login = `user${randomDigits(6)}`
  const mobile = randomMobile()
  await page.goto(`${WP}/wp-login.php?action=register`)
  await page.locator('#user_login').fill(login)
  await page.locator('#user_email').fill(`${login}@example.com`)
  await page.locator('#chapar_mobile').fill('09121')
  await page.locator('#wp-submit').click()
  await page.locator('#login_error').getByText('شماره موبایل معتبر نیست').waitFor()
  await shot(page, 'wordpress-register-error')
  // Persian digits are accepted and stored as Latin.
  await page.locator('#chapar_mobile').fill([...mobile].map((d) => PERSIAN[d]).join(''))
  await page.locator('#wp-submit').click()
  await page.waitForURL(/checkemail=registered/)
  await simulatorGot(toIntl(mobile), 'خوش آمدید')

  await page.goto(`${WP}/wp-login.php?action=lostpassword`)
  await page.locator('#user_login').fill(login)
  await page.locator('#wp-submit').click()
  await page.waitForURL(/checkemail=confirm/)
  await simulatorGot(toIntl(mobile), `بازیابی رمز حساب ${login}`)
  await context.close()
})

test('the admin verifies a mobile on the [chapar_verify_mobile] page with the code sent by the pattern', { timeout: 120_000 }, async () => {
  const { page } = admin
  const mobile = randomMobile()
  await page.goto(`${WP}/wp-admin/profile.php`)
  await page.locator('#chapar_mobile').fill(mobile)
  await page.locator('#submit').click()
  await page.locator('#chapar-mobile-status').getByText('هنوز تأیید نشده است').waitFor()

  await page.goto(VERIFY)
  assert.equal(await page.locator('#chapar-verify-mobile').inputValue(), mobile)
  const asked = Date.now() - 2000
  await page.locator('#chapar-verify-send').click()
  await page.locator('#chapar-verify-notice').getByText('کد تأیید پیامک شد').waitFor()
  const code = await readOtp(toIntl(mobile), { after: asked, timeoutMs: 60_000 })
  await page.locator('#chapar-verify-code').fill(String((Number(code) + 1) % 1_000_000).padStart(6, '0'))
  await page.locator('#chapar-verify-check').click()
  await page.locator('#chapar-verify-error').getByText('کد تأیید نادرست است').waitFor()
  await shot(page, 'wordpress-verify-wrong')
  await page.locator('#chapar-verify-code').fill(code)
  await page.locator('#chapar-verify-check').click()
  await page.locator('#chapar-verify-notice').getByText('شماره موبایل شما تأیید شد').waitFor()
  await page.locator('#chapar-verify-done').getByText(mobile).waitFor()
  await shot(page, 'wordpress-verify-done')

  await page.goto(`${WP}/wp-admin/profile.php`)
  await page.locator('#chapar-mobile-status').getByText('تأیید شده با کد پیامکی').waitFor()
})

test('another plugin sends with do_action(\'chapar_send_sms\') and with the chapar_sms_send filter', { timeout: 120_000 }, async () => {
  const { page } = admin
  for (const via of ['action', 'filter']) {
    const mobile = randomMobile()
    const text = `سفارش ${randomDigits(5)} ثبت شد (${via})`
    const qs = new URLSearchParams({ action: 'chapar_fixture_send', to: mobile, text, via })
    const res = await page.request.get(`${WP}/wp-admin/admin-post.php?${qs}`)
    const body = await res.json()
    assert.ok(body.sent?.id > 0, JSON.stringify(body))
    assert.equal(body.sent.sender, line)
    await simulatorGot(toIntl(mobile), text)
  }
})
