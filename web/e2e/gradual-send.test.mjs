// A gradual send (ارسال تدریجی) from the quick-send wizard against the real stack: the
// option refuses a count out of bounds, the review shows the pace and expected end, the
// report says «ارسال تدریجی: ۱۰ در ساعت، پایان تقریبی …» while the send holds back all but
// its first minute's worth, and a stop refunds the recipients it held back.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, MOBILE, PANEL_URL, apiCall, apiToken, launch, openPage, randomMobile, shot, signInWithToken, waitForPath } from './helpers.mjs'

let browser
let token
before(async () => {
  browser = await launch()
  token = await apiToken(DEMO.username, DEMO.password)
})
after(async () => { await browser?.close() })

/** Steps 1 and 2 of quick send: five numbers, a text, and «ارسال تدریجی» at `count` an hour. */
async function fillWizard(page, count) {
  await page.getByTestId('quick-step-0').waitFor()
  await page.locator('[data-testid^="sender-"] input:checked').waitFor({ state: 'attached' })
  const entry = page.getByTestId('recipients').locator('input[type="tel"]')
  for (let i = 0; i < 5; i++) {
    await entry.fill(randomMobile())
    await entry.press('Enter')
  }
  await page.getByTestId('wizard-next').click()
  await page.getByTestId('quick-step-1').waitFor()
  await page.getByTestId('message').locator('textarea').fill('ارسال تدریجی آزمایشی')
  await page.getByTestId('gradual-per_hour').click()
  await page.getByTestId('gradual-count').fill(count)
}

test('a gradual quick send: pace on the review and the report, then stopped with a refund', { timeout: 240_000 }, async () => {
  const { context, page } = await openPage(browser)
  await page.goto(`${PANEL_URL}/login`)
  await signInWithToken(page, token, '/send-sms/quick/steps')
  await fillWizard(page, '5')
  await page.getByTestId('wizard-next').click()
  assert.match(await page.getByTestId('gradual-error').textContent(), /در ساعت باید بین/)
  await page.getByTestId('gradual-count').fill('۱۰')
  await shot(page, 'gradual-send-option')
  await page.getByTestId('wizard-next').click()

  await page.getByTestId('quick-step-2').waitFor()
  await page.getByTestId('price-quote').waitFor()
  assert.match(await page.getByTestId('quote-gradual').textContent(), /ارسال تدریجی: ۱۰ در ساعت، پایان تقریبی/)
  await shot(page, 'gradual-send-review')
  await page.getByTestId('wizard-send').click()
  await waitForPath(page, /\/send-sms\/success-send\/[^/]+$/)
  const id = page.url().split('/').pop()

  await page.goto(`${PANEL_URL}/reports/${id}`)
  await page.getByTestId('report-gradual').waitFor({ timeout: 60_000 })
  assert.match(await page.getByTestId('report-gradual').textContent(), /ارسال تدریجی: ۱۰ در ساعت، پایان تقریبی/)
  const stats = await apiCall('GET', `/report/bulk_stats?id=${id}`, undefined, token)
  assert.equal(stats.pace_per_hour, 10)
  await shot(page, 'gradual-send-report')

  // One recipient goes at once (a minute's worth of 10 an hour); the other four wait.
  await page.getByTestId('stop-send').click({ timeout: 60_000 })
  await page.getByTestId('stop-confirm').click()
  await page.getByTestId('report-header').locator('[data-testid="send-status"][data-status="stopped"]').waitFor({ timeout: 60_000 })
  const stopped = await apiCall('GET', `/report/bulk_stats?id=${id}`, undefined, token)
  assert.ok(stopped.stopped >= 4 && stopped.refunded > 0, `stopped ${stopped.stopped}, refunded ${stopped.refunded}`)
  await context.close()
})

test('the gradual option on a phone, dark', { timeout: 120_000 }, async () => {
  const { context, page } = await openPage(browser, MOBILE)
  await page.goto(`${PANEL_URL}/login`)
  await page.evaluate(() => localStorage.setItem('dark', 'true'))
  await signInWithToken(page, token, '/send-sms/quick/steps')
  await fillWizard(page, '۲۰۰۰')
  await page.getByTestId('gradual').scrollIntoViewIfNeeded()
  await shot(page, 'gradual-send-option-mobile-dark')
  await context.close()
})
