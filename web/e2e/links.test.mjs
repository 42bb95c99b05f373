// Link tracking against the real stack: the demo account makes a tracked link (its target is
// moderated: under the default rules it waits for staff review, and the panel says so), staff
// approve it, the customer sends it with quick send (inserted from the editor's «درج لینک
// ردیابی»; the send is held like a text with the address written out, and staff release it),
// reads the recipient's own short link at the carrier simulator, opens it (302 to the target
// with UTM parameters) and sees the click count rise in the panel.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import {
  DEMO, MOBILE, PANEL_URL, SIM_URL, apiCall, apiToken, launch, openPage, randomDigits, randomMobile, shot, signInWithToken,
  staffLogin, toIntl, waitForPath,
} from './helpers.mjs'

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

/** The short link in the newest text the simulator holds for `local`, waiting for it. */
/** Approves, as staff, the pending review item of a subject in a queue (waiting for it to appear). */
async function approveItem(stok, kind, subjectId) {
  for (let i = 0; i < 60; i++) {
    const items = await apiCall('GET', `/admin/reviews/items?kind=${kind}`, undefined, stok)
    const it = items.find((x) => x.subject_id === subjectId)
    if (it) return apiCall('POST', `/admin/reviews/${it.id}/approve`, {}, stok)
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error(`${kind} ${subjectId} is not in the review queue`)
}

async function shortLinkAt(local, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs
  let last = ''
  while (Date.now() < deadline) {
    const res = await fetch(`${SIM_URL}/messages/latest?to=${toIntl(local)}`).catch(() => null)
    const body = res?.ok ? await res.json().catch(() => null) : null
    last = String((body?.data ?? body)?.text ?? '')
    const m = last.match(/https?:\/\/\S+\/l\/[0-9A-Za-z]{14}/)
    if (m) return { url: m[0], text: last }
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error(`no short link for ${local} at the simulator (last text: ${last || 'none'})`)
}

test('tracked link: insert, send, open at the handset, count rises', { timeout: 240_000 }, async () => {
  const { context, page } = await open('/links')
  const title = `لینک آزمون ${randomDigits(4)}`
  await page.getByTestId('link-new').click()
  await page.getByTestId('link-title').fill(title)
  await page.getByTestId('link-url').fill('https://shop.example/offer?ref=e2e')
  await page.getByTestId('link-save').click()
  const shown = title.replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[d])
  const row = page.locator('tr', { hasText: shown })
  await row.waitFor()
  const clicksCell = row.locator('[data-testid^="link-clicks-"]')
  const linkId = (await clicksCell.getAttribute('data-testid')).replace('link-clicks-', '')
  assert.equal(await clicksCell.textContent(), '۰')
  assert.equal(await row.getByTestId('link-status').getAttribute('data-status'), 'pending')
  await shot(page, 'links-list-pending')

  // Staff approve the link's target; the list shows it approved.
  const staff = await openPage(browser)
  await staffLogin(staff.page)
  const stok = await staff.page.evaluate(() => localStorage.getItem('admin_token'))
  await approveItem(stok, 'link', Number(linkId))
  await page.reload()
  await row.getByTestId('link-status').and(page.locator('[data-status="approved"]')).waitFor()
  await shot(page, 'links-list')

  // Quick send with the link inserted from the editor.
  await page.goto(`${PANEL_URL}/send-sms/quick/steps`)
  await page.getByTestId('quick-step-0').waitFor()
  await page.locator('[data-testid^="sender-"] input:checked').waitFor({ state: 'attached' })
  const number = randomMobile()
  const entry = page.getByTestId('recipients').locator('input[type="tel"]')
  await entry.fill(number)
  await entry.press('Enter')
  await page.getByTestId('wizard-next').click()
  await page.getByTestId('quick-step-1').waitFor()
  await page.getByTestId('message').locator('textarea').fill('تخفیف ویژه: ')
  await page.getByTestId('tracked-link-open').click()
  await page.getByTestId(`tracked-link-option-${linkId}`).click()
  await shot(page, 'links-picker')
  await page.getByTestId('tracked-link-insert').click()
  assert.match(await page.getByTestId('message').locator('textarea').inputValue(), new RegExp(`\\{link:${linkId}\\}`))
  await page.getByTestId('wizard-next').click()
  await page.getByTestId('quick-step-2').waitFor()
  await page.getByTestId('price-quote').waitFor()
  await page.getByTestId('wizard-send').click()
  await waitForPath(page, /\/send-sms\/success-send\/[^/]+$/)
  // Held exactly as a text with the address written out would be; staff release it.
  const sendId = parseInt(new URL(page.url()).pathname.split('/').pop(), 10)
  await approveItem(stok, 'send', sendId)
  await staff.context.close()

  // The handset received its own short link; opening it redirects with the UTM parameters.
  const { url, text } = await shortLinkAt(number)
  assert.ok(!text.includes('{link:'), text)
  assert.ok(url.startsWith(PANEL_URL), `short link ${url} is served by the product at ${PANEL_URL}`)
  const res = await fetch(url, { redirect: 'manual' })
  assert.equal(res.status, 302)
  const target = new URL(res.headers.get('location'))
  assert.equal(target.host, 'shop.example')
  assert.equal(target.searchParams.get('ref'), 'e2e')
  assert.equal(target.searchParams.get('utm_medium'), 'sms')
  assert.match(target.searchParams.get('utm_campaign') ?? '', /^send-\d+$/)
  assert.equal((await fetch(`${PANEL_URL}/l/00000000000000`, { redirect: 'manual' })).status, 404)

  // The count rises in the panel (clicks are written in batches).
  await page.goto(`${PANEL_URL}/links/${linkId}`)
  await page.waitForFunction(async () => {
    const el = document.querySelector('[data-testid="link-stats-clicks"]')
    return el?.textContent === '۱'
  }, null, { timeout: 30_000, polling: 1000 })
  assert.equal(await page.getByTestId('link-stats-unique').textContent(), '۱')
  await page.getByTestId('link-day-chart').waitFor()
  await page.getByTestId('link-operator-chart').waitFor()
  await shot(page, 'links-stats')
  await context.close()

  for (const [name, opts] of [['links-stats-dark', { dark: true }], ['links-stats-mobile', { viewport: MOBILE }],
    ['links-stats-mobile-dark', { viewport: MOBILE, dark: true }]]) {
    const v = await open(`/links/${linkId}`, opts)
    await v.page.getByTestId('link-stats-clicks').waitFor()
    await v.page.getByTestId('link-day-chart').waitFor()
    await shot(v.page, name)
    await v.context.close()
  }
  const m = await open('/links', { viewport: MOBILE })
  await m.page.getByText(shown).first().waitFor()
  await shot(m.page, 'links-list-mobile')
  await m.context.close()
})
