// The demo account sends to three numbers with quick send and watches the report reach its
// final state live.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, PANEL_URL, launch, openPage, randomMobile, shot, waitForPath } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

test('demo: quick send to 3 numbers, report goes final without reload', { timeout: 180_000 }, async () => {
  const { context, page } = await openPage(browser)
  await page.goto(`${PANEL_URL}/login`)
  await page.getByTestId('login-username').fill(DEMO.username)
  await page.getByTestId('login-password').fill(DEMO.password)
  await page.getByTestId('login-submit').click()
  await waitForPath(page, /\/dashboard$/)
  await page.getByTestId('credit-value').waitFor()

  await page.goto(`${PANEL_URL}/send-sms`)
  await page.getByTestId('method-quick').click()
  await waitForPath(page, /\/send-sms\/quick$/)
  // The one page is the default; this test walks the three-step wizard beside it.
  await page.getByTestId('quick-wizard-link').click()
  await waitForPath(page, /\/send-sms\/quick\/steps$/)

  // Step 1: the default line is preselected; add three numbers.
  await page.getByTestId('quick-step-0').waitFor()
  await page.locator('[data-testid^="sender-"] input:checked').waitFor({ state: 'attached' })
  const numbers = [randomMobile(), randomMobile(), randomMobile()]
  const entry = page.getByTestId('recipients').locator('input[type="tel"]')
  for (const n of numbers) {
    await entry.fill(n)
    await entry.press('Enter')
  }
  await shot(page, 'quick-send-1')
  await page.getByTestId('wizard-next').click()

  // Step 2: the text.
  await page.getByTestId('quick-step-1').waitFor()
  await page.getByTestId('message').locator('textarea').fill('سلام، این یک پیام آزمایشی از چاپار است.')
  await shot(page, 'quick-send-2')
  await page.getByTestId('wizard-next').click()

  // Step 3: review with the price.
  await page.getByTestId('quick-step-2').waitFor()
  await page.getByTestId('price-quote').waitFor()
  assert.equal(await page.getByTestId('quote-recipients').textContent(), '۳')
  await shot(page, 'quick-send-3')
  await page.getByTestId('wizard-send').click()

  await waitForPath(page, /\/send-sms\/success-send\/[^/]+$/)
  await page.getByTestId('send-success').waitFor()
  await page.getByTestId('goto-report').click()
  await waitForPath(page, /\/reports\/[^/]+$/)
  const reportUrl = page.url()

  // Final: no recipient pending or awaiting a receipt, and a final status badge — live.
  await page.waitForFunction(() => {
    const v = (k) => Number(document.querySelector(`[data-testid="seg-${k}"]`)?.getAttribute('data-value') ?? -1)
    const status = document.querySelector('[data-testid="report-header"] [data-testid="send-status"]')?.getAttribute('data-status')
    return v('pending') === 0 && v('inflight') === 0 && ['done', 'stopped', 'failed'].includes(status ?? '')
  }, null, { timeout: 150_000, polling: 500 })
  assert.equal(page.url(), reportUrl, 'the report updated without navigation')
  // The recipients table follows: every row ends delivered, undelivered or blacklisted.
  const finalNames = ['رسیده به گوشی', 'نرسیده به گوشی', 'لیست سیاه']
  await page.waitForFunction((names) => {
    const rows = [...document.querySelectorAll('table[aria-label="گیرندگان"] tbody tr')]
    return rows.length === 3 && rows.every((r) => names.some((n) => r.textContent?.includes(n)))
  }, finalNames, { timeout: 30_000, polling: 500 })
  const total = await page.getByTestId('send-progress').getAttribute('data-total')
  assert.equal(total, '3')
  await shot(page, 'report')
  await context.close()
})
