// A customer's first week, the data side: the recipients export reads 09… numbers and
// Jalali dates, the province list is in Persian alphabetical order, the offline map names
// its places in Persian with Persian zoom titles, the audit log has no raw keys, and the
// developer docs' examples send from the customer's own line.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { DEMO, MOBILE, PANEL_URL, apiCall, apiToken, launch, openPage, randomMobile, shot, signInWithToken, toIntl } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

/** Every text of an xlsx file: its shared strings and the inline strings of its first sheet. */
function xlsxText(path) {
  const part = (name) => {
    try {
      return execFileSync('unzip', ['-p', path, name], { encoding: 'utf8' })
    } catch {
      return ''
    }
  }
  return (part('xl/sharedStrings.xml') + part('xl/worksheets/sheet1.xml')).replace(/<[^>]+>/g, '\n')
}

/** Dark mode on for the page's origin, then the path reloaded. */
async function dark(page) {
  await page.evaluate(() => localStorage.setItem('dark', 'true'))
  await page.reload()
  await page.waitForFunction(() => document.documentElement.classList.contains('dark'))
}

test('the recipients export has 0912… numbers, Jalali dates, the send id and text', { timeout: 240_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const local = randomMobile()
  const sent = await apiCall('POST', '/send', { type: 'quick', sender: '300012345', text: 'خوش آمدید به هفته اول', numbers: [local] }, token)
  assert.ok(sent?.id, 'the send was accepted')
  const { context, page } = await openPage(browser)
  await signInWithToken(page, token, `/reports/${sent.id}`)
  // The recipients table shows the number as 09…, never 98…
  const persianLocal = local.replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)])
  await page.getByText(persianLocal).first().waitFor({ timeout: 120_000 })
  assert.equal(await page.getByText(toIntl(local).replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)])).count(), 0, 'a 98… number is shown')
  await shot(page, 'firstweek-report-light')
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-recipients').click()])
  const text = xlsxText(await download.path())
  assert.ok(text.includes(local), `the export has ${local}`)
  assert.ok(!text.includes(toIntl(local)), 'the export has the 98… form')
  assert.match(text, /\b14\d\d\/\d\d\/\d\d \d\d:\d\d\b/, 'the export has Jalali dates')
  assert.ok(text.includes('خوش آمدید به هفته اول'), 'the export has the text')
  assert.ok(text.includes('شناسه پیام اپراتور') && text.includes('علت نرسیدن'), 'the export has the carrier id and reason columns')
  assert.ok(text.includes(String(sent.id)), 'the export has the send id')
  await dark(page)
  await page.getByText(persianLocal).first().waitFor()
  await shot(page, 'firstweek-report-dark')
  await context.close()
})

test('provinces in Persian alphabetical order; the map names places in Persian', { timeout: 180_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const provinces = await apiCall('GET', '/send/banks/provinces', undefined, token)
  const names = provinces.map((p) => p.name)
  const sorted = [...names].sort(new Intl.Collator('fa').compare)
  assert.deepEqual(names, sorted, 'the API lists the provinces in Persian order')
  const at = (n) => names.findIndex((x) => x.startsWith(n))
  assert.ok(at('چهارمحال') < at('هرمزگان') && at('کرمان') < at('هرمزگان') && at('گیلان') < at('هرمزگان'), 'چ ک گ come before ه')

  const { context, page } = await openPage(browser)
  await signInWithToken(page, token, '/send-sms/city-province')
  await page.getByTestId('targeted-city_province-step-0').waitFor()
  await page.locator('#bank-provinces').click()
  const options = (await page.getByRole('option').allTextContents()).map((t) => t.replace(/\s*\(.*$/, '').trim())
  assert.deepEqual(options, [...options].sort(new Intl.Collator('fa').compare), 'the picker lists the provinces in Persian order')
  assert.ok(options.indexOf('گیلان') < options.indexOf('هرمزگان'), `گیلان before هرمزگان: ${options.join('، ')}`)
  await page.keyboard.press('Escape')

  await page.goto(`${PANEL_URL}/send-sms/map`)
  await page.getByTestId('targeted-map-step-0').waitFor()
  const map = page.getByTestId('bank-map')
  await map.locator('.chapar-label', { hasText: 'تهران' }).first().waitFor()
  assert.equal(await map.getAttribute('data-labels'), 'provinces')
  assert.ok(await map.locator('.chapar-label[data-kind="province"]').count() >= 15, 'the provinces are named')
  assert.ok(await map.locator('.chapar-label', { hasText: 'سیستان و بلوچستان' }).first().isVisible())
  assert.equal(await map.locator('.leaflet-control-zoom-in').getAttribute('title'), 'بزرگ‌نمایی')
  assert.equal(await map.locator('.leaflet-control-zoom-out').getAttribute('title'), 'کوچک‌نمایی')
  await shot(page, 'firstweek-map-light')
  // Zoomed in, the counties of the view are named instead. One step at a time, each
  // zoom let finish: Leaflet drops a click made during a zoom's animation, so six quick
  // clicks ended at a zoom that depended on the machine's speed (at the deepest, a view
  // of the central desert with no county's centre in it).
  const zoomDone = () => page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() =>
    r(!document.querySelector('[data-testid="bank-map"] .leaflet-zoom-anim'))))), null, { timeout: 60_000 })
  for (let i = 0; i < 8 && (await map.getAttribute('data-labels')) !== 'counties'; i++) {
    await map.locator('.leaflet-control-zoom-in').click()
    await zoomDone()
  }
  await page.waitForFunction(() => document.querySelector('[data-testid="bank-map"]')?.dataset.labels === 'counties', null, { timeout: 60_000 })
  assert.ok(await map.locator('.chapar-label[data-kind="county"]').count() > 0, 'counties are named once zoomed in')
  await dark(page)
  await page.getByTestId('bank-map').locator('.chapar-label').first().waitFor()
  await shot(page, 'firstweek-map-dark')
  await context.close()

  const phone = await openPage(browser, MOBILE)
  await signInWithToken(phone.page, token, '/send-sms/map')
  await phone.page.getByTestId('bank-map').locator('.chapar-label').first().waitFor()
  await shot(phone.page, 'firstweek-map-mobile')
  await phone.context.close()
})

test('the audit log has Persian labels only; the docs send from the account\'s own line', { timeout: 180_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const { context, page } = await openPage(browser)
  await signInWithToken(page, token, '/audit-log')
  const table = page.locator('table[aria-label="گزارش فعالیت‌ها"]')
  await table.locator('tbody tr').first().waitFor()
  const raw = await table.locator('tbody').evaluate((b) => b.textContent ?? '')
  for (const key of ['partner.invite_accepted', 'held:', 'role_id', 'send.create', 'auth.login']) {
    assert.ok(!raw.includes(key), `the audit log shows the raw key ${key}`)
  }
  await shot(page, 'firstweek-audit-light')

  const lines = await apiCall('GET', '/number/numbers', undefined, token)
  const own = (lines.find((l) => l.is_default) ?? lines[0]).number
  await page.goto(`${PANEL_URL}/developers/documents`)
  await page.getByTestId('docs-lang-curl').click()
  const sample = page.getByTestId('docs-example-createSend')
  await sample.waitFor()
  const code = (await sample.textContent()) ?? ''
  assert.ok(code.includes(`"sender": "${own}"`), `the example sends from the account's line ${own}: ${code}`)
  assert.ok(!code.includes('30001234"'), 'the example keeps the sample line')
  await shot(page, 'firstweek-docs-light')
  await dark(page)
  await page.getByTestId('docs-example-createSend').waitFor()
  await shot(page, 'firstweek-docs-dark')
  await context.close()

  const phone = await openPage(browser, MOBILE)
  await signInWithToken(phone.page, token, '/audit-log')
  await phone.page.getByText('ورود به حساب').first().waitFor()
  await shot(phone.page, 'firstweek-audit-mobile')
  await phone.context.close()
})
