// Sending rules in the panel against the real stack (docs/sending-rules.md): staff close
// the advertising window for the test (the stack opens it all day) and the demo account's
// quick send outside it asks to hold the send until the window opens; a send scheduled
// outside it is refused with the next allowed time offered; the quote names the line's
// hours; a send the gateway paused outside its window says so in its report; staff edit the
// windows at /admin/send-hours and line kinds in the account drawer; the account narrows
// its own hours in the profile settings. Every setting is put back at the end.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import {
  DEMO, DESKTOP, MOBILE, PANEL_URL, apiCall, apiToken, jalaliInput, launch, openPage, randomMobile, shot, staffLogin, waitForPath,
} from './helpers.mjs'

const AD_LINE = '300012345'
const SERVICE_LINE = '500012345'

let browser
let token // the demo owner's
let staffToken
let original // the windows as the stack had them
let demoAccountId

before(async () => {
  browser = await launch()
  token = await apiToken(DEMO.username, DEMO.password)
  const { context, page } = await openPage(browser)
  await staffLogin(page)
  staffToken = await page.evaluate(() => localStorage.getItem('admin_token'))
  await context.close()
  original = (await apiCall('GET', '/admin/send-hours', undefined, staffToken)).rules
  const accounts = await apiCall('GET', '/admin/accounts?q=demo', undefined, staffToken)
  demoAccountId = (accounts.rows ?? accounts).find((a) => a.username === DEMO.username).id
})

after(async () => {
  // Put the windows, the demo's own hours and its lines' kinds back as the stack had them.
  if (staffToken && original) {
    const now = (await apiCall('GET', '/admin/send-hours', undefined, staffToken)).rules
    for (const r of now) {
      if (!original.some((o) => o.operator === r.operator && o.line_kind === r.line_kind)) {
        await apiCall('POST', '/admin/send-hours/delete', { operator: r.operator, line_kind: r.line_kind }, staffToken)
      }
    }
    for (const r of original) {
      await apiCall('POST', '/admin/send-hours', { operator: r.operator, line_kind: r.line_kind, from: r.from, to: r.to }, staffToken)
    }
  }
  if (token) await apiCall('POST', '/send/hours', { own: null }, token).catch(() => {})
  if (staffToken && demoAccountId) {
    const lines = await apiCall('GET', `/admin/accounts/${demoAccountId}/lines`, undefined, staffToken)
    const service = lines.find((l) => l.number === SERVICE_LINE)
    if (service && service.kind !== 'service') {
      await apiCall('POST', `/admin/accounts/${demoAccountId}/lines/kind`, { line_id: service.id, kind: 'service' }, staffToken)
    }
  }
  await browser?.close()
})

const PERSIAN = '۰۱۲۳۴۵۶۷۸۹'
const fa = (s) => String(s).replace(/\d/g, (d) => PERSIAN[d])
const hhmm = (mins) => `${String(Math.floor(mins / 60)).padStart(2, '0')}:${String(mins % 60).padStart(2, '0')}`

/** Minutes since midnight in Tehran now. */
function tehranMinutes(at = new Date()) {
  const p = Object.fromEntries(new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tehran', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .formatToParts(at).map((x) => [x.type, x.value]))
  return Number(p.hour) * 60 + Number(p.minute)
}

/**
 * A daily window (whole hours) that opens at least two hours after now in Tehran and
 * closed before now, so that it stays closed while the test runs (the next half hour
 * included): later today when it is morning, else from 03:00 to two hours ago (its next
 * opening is then tomorrow at 03:00).
 */
function closedWindow() {
  const now = tehranMinutes()
  if (now < 12 * 60) return { from: hhmm(Math.ceil(now / 60) * 60 + 120), to: '24:00' }
  return { from: '03:00', to: hhmm(Math.floor(now / 60) * 60 - 120) }
}

const setWindow = (w, operator = '') =>
  apiCall('POST', '/admin/send-hours', { operator, line_kind: 'advertising', ...w }, staffToken)

/** The time and the day of an instant the way the panel writes them (Tehran, Persian). */
function tehranTime(iso) {
  const d = new Date(iso)
  return {
    time: new Intl.DateTimeFormat('fa-IR', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'Asia/Tehran' }).format(d),
    day: new Intl.DateTimeFormat('fa-IR-u-ca-persian', { day: 'numeric', month: 'long', weekday: 'long', timeZone: 'Asia/Tehran' }).format(d),
  }
}

/** Opens `path` signed in as demo, light or dark. */
async function open(path, { viewport = DESKTOP, dark = false } = {}) {
  const { context, page } = await openPage(browser, viewport)
  await page.goto(`${PANEL_URL}/login`)
  await page.evaluate((d) => (d ? localStorage.setItem('dark', 'true') : localStorage.removeItem('dark')), dark)
  await page.evaluate((t) => localStorage.setItem('token', t), token)
  await page.goto(`${PANEL_URL}${path}`)
  return { context, page }
}

/** Opens the back office as staff at `path`, light or dark. */
async function openStaff(path, { viewport = DESKTOP, dark = false } = {}) {
  const { context, page } = await openPage(browser, viewport)
  await page.goto(`${PANEL_URL}/admin/login`)
  await page.evaluate(([t, d]) => {
    localStorage.setItem('admin_token', t)
    if (d) localStorage.setItem('dark', 'true')
    else localStorage.removeItem('dark')
  }, [staffToken, dark])
  await page.goto(`${PANEL_URL}${path}`)
  return { context, page }
}

/** Quick send from `line` to one number up to the review step; returns the number. */
async function quickToReview(page, line, { text = 'جشنواره تابستانه؛ تخفیف ویژه', schedule } = {}) {
  await page.getByTestId('quick-step-0').waitFor()
  await page.locator('[data-testid^="sender-"] input:checked').waitFor({ state: 'attached' })
  await page.getByTestId(`sender-${line}`).click()
  const number = randomMobile()
  const entry = page.getByTestId('recipients').locator('input[type="tel"]')
  await entry.fill(number)
  await entry.press('Enter')
  await page.getByTestId('wizard-next').click()
  await page.getByTestId('quick-step-1').waitFor()
  await page.getByTestId('message').locator('textarea').fill(text)
  if (schedule) {
    await page.getByTestId('schedule-later').click()
    const input = page.getByTestId('send-at').locator('input')
    await input.fill(jalaliInput(schedule))
    await input.press('Enter')
  }
  await page.getByTestId('wizard-next').click()
  await page.getByTestId('quick-step-2').waitFor()
  return number
}

/** How many sends the demo account has (the reports list's total). */
async function sendCount() {
  const res = await fetch(`${PANEL_URL}/v1/api/report/new_list?page=1&limit=1`, { headers: { Authorization: `Bearer ${token}` } })
  const json = await res.json()
  assert.equal(res.ok, true, JSON.stringify(json))
  return json.meta.total
}

test('a send outside the window asks to hold it; declined nothing is sent, accepted it is scheduled at the opening', { timeout: 300_000 }, async () => {
  const w = closedWindow()
  await setWindow(w)
  for (const [viewport, suffix] of [[DESKTOP, ''], [MOBILE, '-mobile']]) {
    const { context, page } = await open('/send-sms/quick/steps', { viewport })
    await quickToReview(page, AD_LINE)
    // The quote says the line is advertising, its hours, and that the send would be held.
    const note = page.getByTestId('quote-send-hours')
    await note.waitFor()
    const noteText = await note.textContent()
    assert.match(noteText, /خط تبلیغاتی/, noteText)
    assert.ok(noteText.includes(`${fa(w.from)} تا ${fa(w.to)}`), noteText)
    assert.match(noteText, /نگه داشته می‌شود/, noteText)
    await shot(page, `rules-quote-closed${suffix}`)

    // Declined: nothing is sent.
    const before = await sendCount()
    await page.getByTestId('wizard-send').click()
    const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'))
    await page.getByTestId('hold-until-window').waitFor()
    const asked = await dialog.textContent()
    assert.match(asked, /نگه داشته شود؟/, asked)
    assert.ok(asked.includes(fa(w.from)), `the opening ${w.from} in Persian digits: ${asked}`)
    await shot(page, `rules-hold-dialog${suffix}`)
    await dialog.getByRole('button', { name: 'انصراف' }).click()
    await page.getByTestId('hold-until-window').waitFor({ state: 'detached' })
    assert.equal(await sendCount(), before, 'a declined hold sends nothing')
    assert.equal(page.url().endsWith('/send-sms/quick/steps'), true)

    // Accepted: the send is scheduled for the window's opening.
    await page.getByTestId('wizard-send').click()
    await page.getByTestId('hold-until-window').click()
    await waitForPath(page, /\/send-sms\/success-send\/[^/]+$/)
    const id = page.url().split('/').pop()
    const stats = await apiCall('GET', `/report/bulk_stats?id=${id}`, undefined, token)
    assert.equal(stats.status, 'scheduled')
    const at = tehranTime(stats.send_at)
    assert.equal(at.time, fa(w.from), `scheduled at the opening: ${stats.send_at}`)
    assert.ok(asked.includes(at.time) && asked.includes(at.day), `the dialog named ${at.time} ${at.day}: ${asked}`)
    assert.ok(new Date(stats.send_at) > new Date())
    await page.getByText('ارسال زمان‌بندی شد').waitFor()
    await shot(page, `rules-held-success${suffix}`)
    // Cancelled again so the schedule list stays as it was.
    await apiCall('POST', '/send/cancel', { id: Number(id) }, token).catch(() => {})
    await context.close()
  }
})

test('a send scheduled outside the window is refused with the next allowed time offered', { timeout: 240_000 }, async () => {
  const w = closedWindow()
  await setWindow(w)
  for (const [viewport, suffix, dark] of [[DESKTOP, '', false], [MOBILE, '-mobile', true]]) {
    const { context, page } = await open('/send-sms/quick/steps', { viewport, dark })
    const later = new Date(Date.now() + 30 * 60_000) // half an hour ahead: outside the window
    await quickToReview(page, AD_LINE, { schedule: later })
    // The quote, asked for the send's time, already says so and offers the next allowed time.
    const note = await page.getByTestId('quote-send-hours').textContent()
    assert.match(note, /ارسال از خط تبلیغاتی فقط از ساعت/, note)
    assert.ok(note.includes(`${fa(w.from)} تا ${fa(w.to)}`), note)
    assert.match(note, /نزدیک‌ترین زمان مجاز/, note)
    const offer = page.getByTestId('outside-hours')
    await offer.waitFor()
    assert.ok((await offer.textContent()).includes(fa(w.from)), await offer.textContent())
    // Sent anyway: refused with the Persian message, nothing stored.
    const before = await sendCount()
    await page.getByTestId('wizard-send').click()
    const refused = page.getByTestId('send-error')
    await refused.waitFor()
    const text = await refused.textContent()
    assert.match(text, /فقط از ساعت .* به وقت تهران مجاز است؛ نزدیک‌ترین زمان مجاز/, text)
    assert.equal(await sendCount(), before)
    // Nothing on the review step makes the page scroll sideways (the bar's buttons fit in 390 px).
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no sideways scroll')
    await offer.scrollIntoViewIfNeeded()
    await shot(page, `rules-schedule-refused${suffix}${dark ? '-dark' : ''}`)
    // The offered time becomes the send's time and the quote is fine again.
    await page.getByTestId('use-next-allowed').click()
    await page.getByTestId('outside-hours').waitFor({ state: 'detached' })
    await page.getByTestId('quote-send-hours').waitFor()
    assert.match(await page.getByTestId('quote-send-hours').textContent(), /انجام می‌شود/)
    assert.equal(await sendCount(), before)
    await page.getByTestId('wizard-send').click()
    await waitForPath(page, /\/send-sms\/success-send\/[^/]+$/)
    const id = page.url().split('/').pop()
    const stats = await apiCall('GET', `/report/bulk_stats?id=${id}`, undefined, token)
    assert.equal(stats.status, 'scheduled')
    assert.equal(tehranTime(stats.send_at).time, fa(w.from))
    await apiCall('POST', '/send/cancel', { id: Number(id) }, token).catch(() => {})
    await context.close()
  }
})

test('a send the gateway paused outside its window says so in its report', { timeout: 240_000 }, async () => {
  // Accepted inside the window and held for review (a sensitive word); the window then
  // closes and staff approve it: the gateway pauses it before its first chunk.
  await setWindow({ from: '00:00', to: '24:00' })
  const sent = await apiCall('POST', '/send', { text: 'افتتاح کازینو آنلاین', sender: AD_LINE, numbers: [randomMobile()] }, token)
  assert.equal(sent.status, 'held')
  const w = closedWindow()
  await setWindow(w)
  // The gateway reads the windows again within sendrules.CacheTTL (5 s).
  await new Promise((r) => setTimeout(r, 6_000))
  const items = await apiCall('GET', '/admin/reviews/items?status=pending&limit=100', undefined, staffToken)
  const item = items.find((r) => r.subject_id === sent.id && /send/.test(r.kind))
  assert.ok(item, `the review of send ${sent.id}: ${JSON.stringify(items)}`)
  await apiCall('POST', `/admin/reviews/${item.id}/approve`, {}, staffToken)
  let stats
  for (let i = 0; i < 120; i++) {
    stats = await apiCall('GET', `/report/bulk_stats?id=${sent.id}`, undefined, token)
    if (stats.status === 'paused' || ['done', 'stopped', 'failed'].includes(stats.status)) break
    await new Promise((r) => setTimeout(r, 1000))
  }
  assert.equal(stats.status, 'paused', JSON.stringify(stats))
  assert.ok(stats.window_resume_at, JSON.stringify(stats))
  assert.equal(tehranTime(stats.window_resume_at).time, fa(w.from))
  for (const [viewport, suffix, dark] of [[DESKTOP, '', false], [DESKTOP, '-dark', true], [MOBILE, '-mobile', false]]) {
    const { context, page } = await open(`/reports/${sent.id}`, { viewport, dark })
    const note = page.getByTestId('report-window')
    await note.waitFor()
    const text = await note.textContent()
    assert.match(text, /خارج از ساعت مجاز متوقف شد/, text)
    assert.ok(text.includes(fa(w.from)), text)
    await shot(page, `rules-report-window${suffix}`)
    await context.close()
  }
  await apiCall('POST', '/send/cancel', { id: sent.id }, token)
})

test('staff edit the windows per operator at /admin/send-hours', { timeout: 240_000 }, async () => {
  for (const [viewport, suffix, dark] of [[DESKTOP, '', false], [DESKTOP, '-dark', true], [MOBILE, '-mobile', false]]) {
    const { context, page } = await openStaff('/admin/send-hours', { viewport, dark })
    await page.getByRole('heading', { name: 'ساعت مجاز ارسال' }).waitFor()
    // A table on a desktop, a list of cards on a phone.
    const table = page.locator('[aria-label="ساعت مجاز ارسال"]')
    const rowsOf = (name) => table.locator('tbody tr, li').filter({ hasText: name })
    const allRow = rowsOf('همه اپراتورها')
    await allRow.waitFor()
    // «همه اپراتورها» cannot be deleted: it has no delete button.
    assert.equal(await allRow.getByRole('button', { name: 'حذف' }).count(), 0)

    // From after to: refused with the Persian message on the field.
    await page.getByTestId('hours-operator').selectOption('irancell')
    await page.getByTestId('hours-from').fill('۲۱:۰۰')
    await page.getByTestId('hours-to').fill('۰۸:۰۰')
    await page.getByTestId('hours-save').click()
    await page.getByText('شروع باید پیش از پایان باشد').first().waitFor()
    await shot(page, `rules-admin-hours-invalid${suffix}`)
    assert.equal(await rowsOf('ایرانسل').count(), 0)

    // A window of its own for Irancell.
    await page.getByTestId('hours-from').fill('۰۸:۰۰')
    await page.getByTestId('hours-to').fill('۲۱:۳۰')
    await page.getByTestId('hours-save').click()
    const row = rowsOf('ایرانسل')
    await row.waitFor()
    assert.match(await row.textContent(), /۰۸:۰۰.*۲۱:۳۰/)
    const rules = (await apiCall('GET', '/admin/send-hours', undefined, staffToken)).rules
    assert.deepEqual(rules.filter((r) => r.operator === 'irancell').map((r) => [r.from, r.to]), [['08:00', '21:30']])
    await shot(page, `rules-admin-hours${suffix}`)

    // Deleted again.
    await row.getByRole('button', { name: 'حذف' }).click()
    await row.waitFor({ state: 'detached' })
    const left = (await apiCall('GET', '/admin/send-hours', undefined, staffToken)).rules
    assert.equal(left.some((r) => r.operator === 'irancell'), false)
    assert.equal(left.some((r) => r.operator === ''), true)
    await context.close()
  }
  // The API refuses deleting «همه اپراتورها» too.
  await assert.rejects(apiCall('POST', '/admin/send-hours/delete', { operator: '', line_kind: 'advertising' }, staffToken), /422|400/)
})

test('the account narrows its own hours in the settings and the next send follows them', { timeout: 240_000 }, async () => {
  // The operators' window 07:00–22:00; the account's own hours end two hours before now
  // (or start two hours after it), so the next send is outside them.
  await setWindow({ from: '00:00', to: '24:00' })
  const w = closedWindow()
  for (const [viewport, suffix, dark] of [[DESKTOP, '', false], [MOBILE, '-mobile', true]]) {
    await apiCall('POST', '/send/hours', { own: null }, token)
    const { context, page } = await open('/profile/settings', { viewport, dark })
    const card = page.getByText('ساعت ارسال تبلیغاتی حساب').first()
    await card.waitFor()
    await page.getByTestId('settings-send-hours-on').click()
    await page.getByTestId('settings-send-hours-from').fill(fa(w.from))
    await page.getByTestId('settings-send-hours-to').fill(fa(w.to))
    await page.getByTestId('settings-send-hours-save').click()
    await page.getByText('ساعت ارسال ذخیره شد').first().waitFor()
    await page.getByTestId('settings-send-hours-save').scrollIntoViewIfNeeded()
    await shot(page, `rules-own-hours${suffix}`)
    const own = (await apiCall('GET', '/send/hours', undefined, token)).own
    assert.deepEqual(own, { from: w.from, to: w.to })

    // The next send's quote says it is held until the account's hours open.
    await page.goto(`${PANEL_URL}/send-sms/quick/steps`)
    await quickToReview(page, AD_LINE)
    const note = page.getByTestId('quote-send-hours')
    await note.waitFor()
    assert.match(await note.textContent(), /نگه داشته می‌شود/)
    assert.ok((await note.textContent()).includes(fa(w.from)))
    const before = await sendCount()
    await page.getByTestId('wizard-send').click()
    await page.getByTestId('hold-until-window').waitFor()
    await page.getByRole('button', { name: 'انصراف' }).click()
    assert.equal(await sendCount(), before)
    await shot(page, `rules-own-hours-quote${suffix}`)
    await context.close()
  }

  // Hours that leave nothing of the operators' window are refused.
  await setWindow({ from: '07:00', to: '22:00' })
  const { context, page } = await open('/profile/settings')
  await page.getByTestId('settings-send-hours-from').waitFor()
  if (!(await page.getByTestId('settings-send-hours-from').isEnabled())) await page.getByTestId('settings-send-hours-on').click()
  await page.getByTestId('settings-send-hours-from').fill('۲۲:۳۰')
  await page.getByTestId('settings-send-hours-to').fill('۲۳:۳۰')
  await page.getByTestId('settings-send-hours-save').click()
  await page.getByText('هیچ هم‌پوشانی ندارد').first().waitFor()
  await page.getByTestId('settings-send-hours-save').scrollIntoViewIfNeeded()
  await shot(page, 'rules-own-hours-refused')
  assert.deepEqual((await apiCall('GET', '/send/hours', undefined, token)).own, { from: w.from, to: w.to })
  await context.close()
  await apiCall('POST', '/send/hours', { own: null }, token)
})

test('staff change a line kind in the account drawer; the customer sees it under the line picker', { timeout: 240_000 }, async () => {
  await setWindow({ from: '00:00', to: '24:00' })
  const { context, page } = await openStaff(`/admin/accounts?q=${DEMO.username}`)
  const row = page.getByRole('row').filter({ hasText: DEMO.username }).first()
  await row.getByRole('button', { name: 'خطوط و تعرفه' }).click()
  await page.getByText('خطوط ارسال و نوع آن‌ها').waitFor()
  const select = page.getByTestId(`line-kind-${SERVICE_LINE}`)
  assert.equal(await select.inputValue(), 'service')
  await select.selectOption('advertising')
  await page.waitForFunction(async ([id, n, t]) => {
    const r = await fetch(`/v1/api/admin/accounts/${id}/lines`, { headers: { Authorization: `Bearer ${t}` } })
    const lines = (await r.json()).data
    return lines.find((l) => l.number === n)?.kind === 'advertising'
  }, [demoAccountId, SERVICE_LINE, staffToken], { polling: 500 })
  // The drawer shows the new kind once its list is read again.
  await page.waitForFunction((n) => document.querySelector(`[data-testid="line-kind-${n}"]`)?.value === 'advertising', SERVICE_LINE, { polling: 200 })
  await shot(page, 'rules-admin-line-kind')
  await context.close()

  for (const [viewport, suffix, dark] of [[DESKTOP, '', false], [MOBILE, '-mobile', true]]) {
    const c = await open('/send-sms/quick/steps', { viewport, dark })
    await c.page.getByTestId('quick-step-0').waitFor()
    const card = c.page.getByTestId(`sender-${SERVICE_LINE}`)
    await card.getByText('تبلیغاتی').waitFor()
    await card.click()
    assert.equal(await c.page.getByTestId('footer-note').getAttribute('data-cancel11'), 'true')
    const hint = await c.page.getByTestId('line-kinds-hint').textContent()
    assert.match(hint, /خط تبلیغاتی فقط در ساعت مجاز/)
    assert.match(hint, /خط خدماتی در همه ساعات/)
    await c.page.getByTestId('line-kinds-hint').scrollIntoViewIfNeeded()
    await shot(c.page, `rules-line-picker${suffix}`)
    await c.context.close()
  }

  // And back to service, in the drawer on a phone (the accounts are cards there), dark.
  const s = await openStaff(`/admin/accounts?q=${DEMO.username}`, { viewport: MOBILE, dark: true })
  await s.page.locator('[aria-label="حساب‌ها"]').locator('tbody tr, li').filter({ hasText: DEMO.username }).first()
    .getByRole('button', { name: 'خطوط و تعرفه' }).click()
  await s.page.getByTestId(`line-kind-${SERVICE_LINE}`).scrollIntoViewIfNeeded()
  await shot(s.page, 'rules-admin-line-kind-mobile-dark')
  await s.page.getByTestId(`line-kind-${SERVICE_LINE}`).selectOption('service')
  await s.page.waitForFunction(async ([id, n, t]) => {
    const r = await fetch(`/v1/api/admin/accounts/${id}/lines`, { headers: { Authorization: `Bearer ${t}` } })
    return (await r.json()).data.find((l) => l.number === n)?.kind === 'service'
  }, [demoAccountId, SERVICE_LINE, staffToken], { polling: 500 })
  await s.context.close()
})
