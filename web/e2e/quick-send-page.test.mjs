// The one-page quick send: numbers pasted in any form (counted valid / invalid / repeated),
// text, line and the live price on one page; a test to the user's own mobile reaches the
// handset; the send is confirmed and every recipient ends final (the simulator delivers
// receipts); the reports then find one of its numbers written another way, and its text.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, MOBILE, PANEL_URL, SIM_URL, apiToken, launch, openPage, randomMobile, shot, signInWithToken, toIntl, waitForPath } from './helpers.mjs'

let browser
let token
before(async () => {
  browser = await launch()
  token = await apiToken(DEMO.username, DEMO.password)
})
after(async () => { await browser?.close() })

/** The demo user's own (verified) mobile. */
const OWN = '09120000000'
const PERSIAN = '۰۱۲۳۴۵۶۷۸۹'
const persian = (s) => s.replace(/[0-9]/g, (d) => PERSIAN[Number(d)])

/** Opens `path` signed in as demo; `dark` turns the dark theme on first. */
async function open(path, { viewport, dark = false } = {}) {
  const { context, page } = await openPage(browser, viewport)
  await page.goto(`${PANEL_URL}/login`)
  await page.evaluate((d) => (d ? localStorage.setItem('dark', 'true') : localStorage.removeItem('dark')), dark)
  await signInWithToken(page, token, path)
  return { context, page }
}

/** Waits for the simulator to hold a message to `local` (09…) containing `piece`. */
async function simReceived(local, piece, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs
  let last = ''
  while (Date.now() < deadline) {
    const res = await fetch(`${SIM_URL}/messages/latest?to=${toIntl(local)}`).catch(() => null)
    const body = res?.ok ? await res.json().catch(() => null) : null
    last = String((body?.data ?? body)?.text ?? '')
    if (last.includes(piece)) return last
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error(`no message with «${piece}» for ${local} (last: ${last || 'none'})`)
}

const count = async (page, testId) => Number(await page.getByTestId(testId).getAttribute('data-count'))

test('one page: paste, price, test to own mobile, confirm, delivered; reports find the number and the text', { timeout: 400_000 }, async () => {
  const { context, page } = await open('/dashboard')
  // The sidebar's «ارسال سریع» opens the one page.
  await page.getByRole('navigation', { name: 'منوی اصلی' }).getByRole('link', { name: 'ارسال سریع', exact: true }).click()
  await waitForPath(page, /\/send-sms\/quick$/)
  await page.getByTestId('quick-page').waitFor()
  await page.locator('[data-testid^="sender-"] input:checked').waitFor({ state: 'attached' })

  const [a, b, c] = [randomMobile(), randomMobile(), randomMobile()]
  // Three numbers in three forms and separators, one repeated, one not a mobile.
  const pasted = `${a}\n+98 ${b.slice(1, 4)} ${b.slice(4, 7)} ${b.slice(7)}، ${persian(c.slice(1))}; ${a}\n02188776655`
  await page.getByTestId('numbers-box').fill(pasted)
  await page.waitForFunction(() => document.querySelector('[data-testid="numbers-valid"]')?.getAttribute('data-count') === '3')
  assert.equal(await count(page, 'numbers-invalid'), 1)
  assert.equal(await count(page, 'numbers-duplicates'), 1)

  const tag = `آزمون${Date.now() % 1_000_000}`
  const text = `سلام، پیام ${tag} از ارسال سریع یک‌صفحه‌ای چاپار.`
  await page.getByTestId('message').locator('textarea').fill(text)
  // The price follows live.
  await page.getByTestId('price-quote').waitFor()
  await page.waitForFunction(() => document.querySelector('[data-testid="quote-recipients"]')?.textContent?.includes('۳'))
  await shot(page, 'quick-page-desktop')

  // The test goes to the demo user's own mobile only.
  await page.getByTestId('send-test').click()
  await page.getByText(`فرستاده شد به ${persian(OWN)}`).waitFor()
  assert.match(await simReceived(OWN, tag), new RegExp(tag))

  // Send: confirmed first, then the success page and the report, every recipient final.
  await page.getByTestId('quick-send').click()
  await page.getByTestId('quick-confirm-text').waitFor()
  assert.match(await page.getByTestId('quick-confirm-text').textContent(), /۳ گیرنده/)
  await shot(page, 'quick-page-confirm')
  await page.getByTestId('quick-confirm').click()
  await waitForPath(page, /\/send-sms\/success-send\/[^/]+$/)
  await page.getByTestId('send-success').waitFor()
  await page.getByTestId('goto-report').click()
  await waitForPath(page, /\/reports\/[^/]+$/)
  const sendId = page.url().split('/').pop()
  await page.waitForFunction(() => {
    const v = (k) => Number(document.querySelector(`[data-testid="seg-${k}"]`)?.getAttribute('data-value') ?? -1)
    const status = document.querySelector('[data-testid="report-header"] [data-testid="send-status"]')?.getAttribute('data-status')
    return v('pending') === 0 && v('inflight') === 0 && ['done', 'stopped', 'failed'].includes(status ?? '')
  }, null, { timeout: 240_000, polling: 1000 })
  await simReceived(b, tag)

  // The send's recipients: one number found written another way.
  await page.getByTestId('recipients-search-mobile').fill(`+98${persian(b.slice(1))}`)
  await page.waitForFunction(() => document.querySelectorAll('table[aria-label="گیرندگان"] tbody tr').length === 1, null, { timeout: 60_000 })

  // The reports list finds the send by a number in another form, with that number's status.
  await page.goto(`${PANEL_URL}/reports`)
  const rows = page.locator('table[aria-label="گزارش ارسال‌ها"] tbody tr')
  await rows.first().waitFor()
  await page.getByTestId('report-search-mobile').fill(persian(c.slice(1)))
  await waitForPath(page, /\/reports$/)
  await page.waitForFunction((id) => {
    const trs = [...document.querySelectorAll('table[aria-label="گزارش ارسال‌ها"] tbody tr')]
    return trs.length === 1 && trs[0].textContent.includes(id.replace(/[0-9]/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[d]))
  }, sendId, { timeout: 60_000 })
  assert.match(await page.getByTestId('report-match').textContent(), /رسیده|نرسیده|لیست سیاه|ارسال/)
  await shot(page, 'reports-search-mobile-desktop')

  // By text: the bulk send and the test send carry the tag.
  await page.getByTestId('report-search-mobile').fill('')
  await page.getByTestId('report-search-text').fill(tag)
  await page.waitForFunction(() => document.querySelectorAll('table[aria-label="گزارش ارسال‌ها"] tbody tr').length === 2, null, { timeout: 60_000 })
  await page.getByTestId('report-search-text').fill('متنی که هرگز فرستاده نشده است')
  await page.getByText('ارسالی با این جستجو یافت نشد').waitFor()
  await context.close()
})

test('screenshots: the one page and the report search, light and dark, desktop and 390 px', { timeout: 240_000 }, async () => {
  for (const dark of [false, true]) {
    for (const viewport of [undefined, MOBILE]) {
      const name = `${viewport ? 'mobile' : 'desktop'}-${dark ? 'dark' : 'light'}`
      const { context, page } = await open('/send-sms/quick', { viewport, dark })
      await page.getByTestId('quick-page').waitFor()
      await page.locator('[data-testid^="sender-"] input:checked').waitFor({ state: 'attached' })
      await page.getByTestId('numbers-box').fill(`${randomMobile()}\n${randomMobile()}, 0912\n${randomMobile()}`)
      await page.getByTestId('message').locator('textarea').fill('سلام، پیش‌نمایش ارسال سریع یک‌صفحه‌ای.')
      await page.getByTestId('price-quote').waitFor()
      await shot(page, `quick-page-${name}`)
      await page.goto(`${PANEL_URL}/reports?mobile=${OWN}`)
      await page.getByTestId('report-search').waitFor()
      await page.getByTestId('report-match').first().waitFor()
      await shot(page, `reports-search-${name}`)
      await context.close()
    }
  }
})
