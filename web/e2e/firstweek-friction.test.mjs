// A customer's first week, the friction fixed: a send wizard holding numbers and text asks
// before it is left (inside the panel and on reload) and keeps its draft by itself, which is
// offered on coming back; the invitation SMS carries the link to «پذیرش دعوت», the login page
// explains invitations, and an invited colleague sees only the menu their role opens, with
// «دسترسی محدود» naming what is missing. Screens light/dark, desktop and 390 px.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import {
  DEMO, DESKTOP, MOBILE, PANEL_URL, SIM_URL, apiCall, apiToken, launch, latinDigits, openPage, randomDigits, randomMobile,
  readOtp, shot, signInWithToken, toIntl, waitForPath,
} from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

/** A page in the light or dark theme (the panel reads `dark` from localStorage). */
async function themed(viewport, dark) {
  const p = await openPage(browser, viewport)
  if (dark) await p.context.addInitScript(() => localStorage.setItem('dark', 'true'))
  return p
}

/** A valid national id: nine digits and their check digit. */
function nationalId() {
  const nine = randomDigits(9)
  let sum = 0
  for (let i = 0; i < 9; i++) sum += Number(nine[i]) * (10 - i)
  const r = sum % 11
  return nine + String(r < 2 ? r : 11 - r)
}

/** The newest text the simulator holds for a number, sent at or after `after`. */
async function latestText(intl, after) {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    const res = await fetch(`${SIM_URL}/messages/latest?to=${intl}`).catch(() => null)
    if (res?.ok) {
      const body = await res.json().catch(() => null)
      const msg = body?.data ?? body
      const at = Date.parse(msg?.last_submit ?? msg?.first_submit ?? '') || Date.now()
      if (msg?.text && at >= after) return String(msg.text)
    }
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error(`no text for ${intl} at the simulator`)
}

/** Opens the quick send with the default line and one number, on its text step. */
async function toMessageStep(page, token) {
  await signInWithToken(page, token, '/send-sms/quick/steps')
  await page.locator('[data-testid^="sender-"] input:checked').waitFor({ state: 'attached' })
  const entry = page.getByTestId('recipients').locator('input[type="tel"]')
  await entry.fill(randomMobile())
  await entry.press('Enter')
  await page.getByTestId('wizard-next').click()
}

test('the login page explains invitations and leads to «پذیرش دعوت»', async () => {
  for (const [viewport, dark, name] of [[DESKTOP, false, 'desktop'], [DESKTOP, true, 'desktop-dark'], [MOBILE, false, 'mobile'], [MOBILE, true, 'mobile-dark']]) {
    const { context, page } = await themed(viewport, dark)
    await page.goto(`${PANEL_URL}/login`)
    const help = page.getByTestId('invite-help')
    await help.getByText('کد دعوت برایتان پیامک شده').waitFor()
    await shot(page, `friction-login-invite-${name}`)
    if (name === 'desktop') {
      await help.getByRole('link', { name: 'دعوت‌نامه دارید؟' }).click()
      await waitForPath(page, /\/accept-invite$/)
      await page.getByTestId('accept-form').waitFor()
    }
    await context.close()
  }
})

test('a send wizard asks before it is left, keeps the draft and offers it back', { timeout: 300_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const text = `پیش‌نویس هفته اول ${randomDigits(5)}`
  const { context, page } = await openPage(browser)
  await toMessageStep(page, token)
  await page.getByTestId('message').locator('textarea').fill(text)
  // Saved by itself once the typing pauses.
  await page.getByTestId('draft-autosaved').waitFor()
  const listed = await apiCall('GET', '/user/draft/list?type=quick', undefined, token)
  const saved = listed.find((d) => d.text === text)
  assert.ok(saved, 'the wizard saved its draft without being asked')
  assert.equal(saved.recipients, 1)

  // Leaving inside the panel asks first; «ماندن» keeps the wizard as it was.
  const menu = page.getByRole('navigation', { name: 'منوی اصلی' })
  await menu.getByRole('link', { name: 'گزارش‌ها' }).click()
  await page.getByTestId('leave-dialog').waitFor()
  await shot(page, 'friction-leave-dialog')
  await page.getByTestId('leave-stay').click()
  await page.getByTestId('leave-dialog').waitFor({ state: 'detached' })
  assert.match(new URL(page.url()).pathname, /\/send-sms\/quick\/steps$/)
  assert.equal(await page.getByTestId('message').locator('textarea').inputValue(), text)

  // A reload asks through the browser's own question.
  const asked = new Promise((resolve) => page.once('dialog', (d) => { resolve(d.type()); void d.dismiss() }))
  await page.getByTestId('message').locator('textarea').press('End')
  void page.reload().catch(() => undefined)
  assert.equal(await asked, 'beforeunload')
  assert.equal(await page.getByTestId('message').locator('textarea').inputValue(), text, 'a dismissed reload keeps the text')

  await menu.getByRole('link', { name: 'گزارش‌ها' }).click()
  await page.getByTestId('leave-confirm').click()
  await waitForPath(page, /\/reports/)

  // Coming back offers the draft; continuing reopens it filled in.
  for (const [viewport, dark, name] of [[DESKTOP, true, 'desktop-dark'], [MOBILE, false, 'mobile'], [MOBILE, true, 'mobile-dark']]) {
    const t = await themed(viewport, dark)
    await signInWithToken(t.page, token, '/send-sms/quick/steps')
    await t.page.getByTestId('draft-offer').getByText(text.split(' ').slice(0, 3).join(' ')).waitFor()
    await shot(t.page, `friction-draft-offer-${name}`)
    await t.context.close()
  }
  await page.goto(`${PANEL_URL}/send-sms/quick/steps`)
  const offer = page.getByTestId('draft-offer')
  await offer.waitFor()
  await shot(page, 'friction-draft-offer-desktop')
  await offer.getByTestId('draft-offer-resume').click()
  await page.waitForFunction((id) => new URLSearchParams(location.search).get('draft') === String(id), saved.id)
  await page.getByTestId('quick-step-0').getByTestId('recipients').waitFor()
  await page.getByTestId('wizard-next').click()
  assert.equal(await page.getByTestId('quick-step-1').getByTestId('message').locator('textarea').inputValue(), text)
  await context.close()
})

test('the invitation SMS links to «پذیرش دعوت»; the colleague sees only what the role opens', { timeout: 300_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const role = await apiCall('POST', '/acl/partner/create_role', { name: `گزارش ${randomDigits(4)}`, permissions: ['report.view'] }, token)
  const mobile = randomMobile()
  const invited = Date.now() - 2000
  await apiCall('POST', '/user/partner/create', { name: 'همکار هفته اول', mobile, national_id: nationalId(), role_id: role.id }, token)
  const sms = await latestText(toIntl(mobile), invited)
  const link = `${PANEL_URL}/accept-invite`
  assert.ok(sms.includes(link), `the invitation carries the link ${link}: ${sms}`)
  const code = latinDigits(sms).match(/\b\d{6}\b/)?.[0]
  assert.ok(code, `the invitation carries the code: ${sms}`)

  // The colleague follows the texted link.
  const password = `Pw${randomDigits(6)}x@A`
  const { context, page } = await openPage(browser)
  await page.goto(sms.slice(sms.indexOf(link)).split(/\s/)[0])
  await page.getByTestId('accept-username').fill(mobile)
  await page.getByTestId('accept-code').fill(code)
  await page.getByTestId('accept-password').fill(password)
  await page.getByTestId('accept-password2').fill(password)
  await page.getByTestId('accept-submit').click()
  await waitForPath(page, /\/login$/)
  await page.getByTestId('login-username').fill(mobile)
  await page.getByTestId('login-password').fill(password)
  const started = Date.now() - 2000
  await page.getByTestId('login-submit').click()
  await page.getByTestId('otp-code').waitFor()
  let otp = await readOtp(toIntl(mobile), { after: started })
  for (let i = 0; otp === code && i < 60; i++) {
    await new Promise((r) => setTimeout(r, 500))
    otp = await readOtp(toIntl(mobile), { after: started })
  }
  await page.getByTestId('otp-code').fill(otp)
  await page.getByTestId('otp-submit').click()
  await waitForPath(page, /\/dashboard$/)

  const menu = page.getByRole('navigation', { name: 'منوی اصلی' })
  await menu.getByText('گزارش‌ها').waitFor()
  for (const hidden of ['ارسال پیامک', 'همکاران', 'مخاطبین', 'امور مالی', 'کلیدهای API']) {
    assert.equal(await menu.getByText(hidden, { exact: true }).count(), 0, `${hidden} is not in the menu`)
  }
  assert.equal(await page.getByTestId('credit').count(), 0, 'no credit (wallet.view) in the header')
  await shot(page, 'friction-colleague-menu-desktop')
  await page.goto(`${PANEL_URL}/colleagues`)
  await page.getByTestId('missing-permission').getByText('«مدیریت همکاران و نقش‌ها»').waitFor()
  await shot(page, 'friction-access-limited-desktop')
  const colleagueToken = await page.evaluate(() => localStorage.getItem('token'))
  await context.close()

  for (const [viewport, dark, name] of [[DESKTOP, true, 'desktop-dark'], [MOBILE, false, 'mobile'], [MOBILE, true, 'mobile-dark']]) {
    const t = await themed(viewport, dark)
    await signInWithToken(t.page, colleagueToken, '/wallet/credit')
    await t.page.getByTestId('missing-permission').getByText('«مشاهده کیف پول»').waitFor()
    if (viewport === MOBILE) {
      const tabs = t.page.getByRole('navigation', { name: 'منوی پایین' })
      await tabs.getByText('گزارش‌ها').waitFor()
      assert.equal(await tabs.getByText('ارسال', { exact: true }).count(), 0, 'no send tab')
    }
    await shot(t.page, `friction-access-limited-${name}`)
    await t.context.close()
  }
})

test('the editor: ۰ for an empty text, the footer warning, the locked footer’s reason and the cut notice', { timeout: 300_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  for (const [viewport, dark, name] of [[DESKTOP, false, 'desktop'], [DESKTOP, true, 'desktop-dark'], [MOBILE, false, 'mobile'], [MOBILE, true, 'mobile-dark']]) {
    const { context, page } = await themed(viewport, dark)
    await toMessageStep(page, token)
    const editor = page.getByTestId('message')
    // The demo's default line is advertising: the footer is on, locked, and says why.
    await editor.getByText('تعداد کاراکتر: ۰ | بخش‌ها: ۰').waitFor()
    await editor.getByTestId('cancel11-locked').getByText('مقررات اپراتورها').waitFor()
    await editor.locator('textarea').fill('س'.repeat(65))
    await editor.getByTestId('cancel11-warning').getByText('افزودن «لغو۱۱» پیامک را ۲ بخشی می‌کند').waitFor()
    await editor.locator('textarea').fill('')
    await editor.locator('textarea').evaluate((el) => {
      const dt = new DataTransfer()
      dt.setData('text/plain', 'پ'.repeat(3000))
      el.focus()
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }))
    })
    await editor.getByTestId('text-cut').getByText('۳۰۰ کاراکتر از متن حذف شد؛ متن پیامک حداکثر ۲٬۷۰۰ کاراکتر است.').waitFor()
    assert.equal([...(await editor.locator('textarea').inputValue())].length, 2700)
    await editor.getByTestId('text-cut').scrollIntoViewIfNeeded()
    await shot(page, `friction-editor-${name}`)
    await context.close()
  }
})
