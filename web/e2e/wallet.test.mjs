// The demo owner's transactions page shows its seed credit and a send's charge with a
// link to the send's report; a filter by withdrawal narrows the table; the Excel export
// downloads with progress; the page is checked on desktop and on mobile in dark mode.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, MOBILE, PANEL_URL, apiCall, apiToken, launch, openPage, randomMobile, shot, signInWithToken } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

const TABLE = 'table[aria-label="تراکنش‌ها"]'
const persianDigits = (n) => String(n).replace(/[0-9]/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)])

test('transactions: credit and a send appear, withdrawal filter, Excel export', { timeout: 120_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const sent = await apiCall('POST', '/send', { text: 'آزمایش تراکنش‌ها', numbers: [randomMobile()] }, token)
  assert.ok(sent?.id, 'the send was accepted')

  const { context, page } = await openPage(browser)
  // The seed credit is the demo's oldest entry: after the other suites' sends (their
  // holds and refunds) it is found by searching, not on the first page of everything.
  await signInWithToken(page, token, `/wallet/transactions?type=deposit&search=${encodeURIComponent('هدیه')}`)
  const table = page.locator(TABLE)
  await table.getByText('اعتبار هدیه حساب نمایشی').first().waitFor()
  await page.goto(`${PANEL_URL}/wallet/transactions`)
  await table.getByText(`رزرو هزینه ارسال ${persianDigits(sent.id)}`).first().waitFor()
  const link = table.locator(`a[href="/reports/${sent.id}"]`).first()
  await link.waitFor()
  await page.getByTestId('low-balance-card').waitFor()
  await shot(page, 'wallet-transactions')

  await page.getByRole('combobox', { name: 'نوع تراکنش' }).click()
  await page.getByRole('option', { name: 'برداشت' }).click()
  await page.waitForURL(/type=withdrawal/)
  await page.waitForFunction((sel) => {
    const trs = [...document.querySelectorAll(`${sel} tbody tr`)]
    return trs.length > 0 && trs.every((r) => r.textContent?.includes('برداشت'))
  }, TABLE, { timeout: 60_000, polling: 300 })
  assert.equal(await table.getByText('اعتبار هدیه حساب نمایشی').count(), 0, 'deposits are filtered out')
  await shot(page, 'wallet-transactions-withdrawals')

  // The progress bar shows while the file streams in.
  await page.evaluate(() => {
    window.__sawProgress = false
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="tx-export-progress"]')) window.__sawProgress = true
    }).observe(document.body, { childList: true, subtree: true })
  })
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('tx-export').click()])
  assert.equal(download.suggestedFilename(), 'transactions.xlsx')
  assert.ok(await page.evaluate(() => window.__sawProgress), 'the export showed its progress')

  // The low-balance alert: a threshold just under the balance, then a send crosses it
  // and the panel shows the live notice once. The demo account's alert is turned off after.
  const price = (await apiCall('POST', '/send/calculate-price', { text: 'هشدار', numbers: [randomMobile()] }, token)).price
  const { credit } = await apiCall('GET', '/payment/credit/mine', undefined, token)
  try {
    await page.reload()
    await page.getByTestId('low-balance-enabled').click()
    await page.getByTestId('low-balance-threshold').fill(String(credit - Math.floor(price / 2)))
    await page.getByTestId('low-balance-save').click()
    await page.getByText('هشدار کمبود اعتبار ذخیره شد').waitFor()
    await apiCall('POST', '/send', { text: 'هشدار', numbers: [randomMobile()] }, token)
    await page.getByText('کمبود اعتبار', { exact: true }).waitFor({ timeout: 60_000 })
    await shot(page, 'wallet-low-balance-notice')
  } finally {
    await apiCall('POST', '/user/setting/low_balance', { enabled: false }, token)
  }

  await page.locator(`${TABLE} a[href="/reports/${sent.id}"]`).first().click()
  await page.waitForURL(new RegExp(`/reports/${sent.id}$`))
  await context.close()

  const mobile = await openPage(browser, MOBILE)
  await mobile.page.goto(`${PANEL_URL}/login`)
  await mobile.page.evaluate(() => localStorage.setItem('dark', 'true'))
  await signInWithToken(mobile.page, token, '/wallet/transactions')
  await mobile.page.waitForFunction(() => document.documentElement.classList.contains('dark'))
  await mobile.page.getByText(`رزرو هزینه ارسال ${persianDigits(sent.id)}`).first().waitFor()
  await shot(mobile.page, 'wallet-transactions-mobile-dark')
  await mobile.context.close()
})
