// The owner charges the wallet online: amount and tax on the credit page, the
// sandbox bank's page, back to the result page, and the header credit goes up; the
// invoice PDF downloads from the result page and its transactions row offers it too.
// Then a canceled payment shows the spec's failure message, and the credit page on
// mobile in dark mode.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { DEMO, MOBILE, PANEL_URL, apiCall, apiToken, latinDigits, launch, openPage, setInvoiceSeller, shot, signInWithToken, waitForPath } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

const creditOf = async (page) => Number(latinDigits(await page.getByTestId('credit-value').innerText()).replace(/\D/g, ''))

test('online payment through the sandbox bank credits the wallet once', { timeout: 120_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const before = (await apiCall('GET', '/payment/credit/mine', undefined, token)).credit

  const { context, page } = await openPage(browser)
  // Staff set the seller's details first: no invoice is issued without them.
  await setInvoiceSeller(page, 'admin-invoice-seller')
  await signInWithToken(page, token, '/wallet/credit')
  await page.getByTestId('online-payment').waitFor()
  await page.getByTestId('amount').fill('۱۲۳۴۵۶۷')
  await page.getByTestId('tax').getByText('۱۲۳٬۴۵۷ ریال').waitFor()
  await page.getByTestId('total').getByText('۱٬۳۵۸٬۰۲۴ ریال').waitFor()
  await page.getByTestId('preset-2000000').click()
  await page.getByTestId('total').getByText('۲٬۲۰۰٬۰۰۰ ریال').waitFor()
  await shot(page, 'wallet-credit')

  await page.getByTestId('pay').click()
  await waitForPath(page, /^\/sandbox-bank\/pay\//)
  await page.locator('#amount').getByText('۲٬۲۰۰٬۰۰۰ ریال').waitFor()
  await shot(page, 'sandbox-bank')
  await page.getByRole('button', { name: 'پرداخت', exact: true }).click()

  await waitForPath(page, /^\/wallet\/payment-result$/)
  const result = page.getByTestId('payment-result')
  await result.and(page.locator('[data-state="paid"]')).waitFor()
  await page.getByTestId('credited').getByText('۲٬۰۰۰٬۰۰۰ ریال').waitFor()
  await page.waitForFunction(
    (want) => Number((document.querySelector('[data-testid="credit-value"]')?.textContent ?? '')
      .replace(/[۰-۹]/g, (d) => String('۰۱۲۳۴۵۶۷۸۹'.indexOf(d))).replace(/\D/g, '')) === want,
    before + 2_000_000, { timeout: 60_000, polling: 300 })
  assert.equal(await creditOf(page), before + 2_000_000)
  await shot(page, 'wallet-payment-result')

  // Back and reload the result page: the callback is not run again.
  await page.reload()
  await result.waitFor()
  assert.equal((await apiCall('GET', '/payment/credit/mine', undefined, token)).credit, before + 2_000_000)

  // The invoice (فاکتور) of the paid payment downloads as a PDF with a Persian name.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('invoice-download').click()])
  assert.match(download.suggestedFilename(), /^فاکتور-\d+\.pdf$/)
  const pdf = await readFile(await download.path())
  assert.equal(pdf.subarray(0, 4).toString(), '%PDF')

  // Its transactions row offers the same invoice.
  await page.getByTestId('goto-transactions').click()
  await waitForPath(page, /^\/wallet\/transactions$/)
  await page.getByTestId('invoice-download').first().waitFor()
  await shot(page, 'wallet-transactions-invoice')

  // A canceled payment: the failure message of the spec.
  await page.goto(`${PANEL_URL}/wallet/credit`)
  await page.getByTestId('preset-1000000').click()
  await page.getByTestId('pay').click()
  await waitForPath(page, /^\/sandbox-bank\/pay\//)
  await page.getByRole('button', { name: 'انصراف' }).click()
  await waitForPath(page, /^\/wallet\/payment-result$/)
  await page.locator('[data-testid="payment-result"][data-state="failed"]').waitFor()
  await page.getByText('۷۲ ساعت').waitFor()
  await shot(page, 'wallet-payment-failed')
  await context.close()

  const mobile = await openPage(browser, MOBILE)
  await mobile.page.goto(`${PANEL_URL}/login`)
  await mobile.page.evaluate(() => localStorage.setItem('dark', 'true'))
  await signInWithToken(mobile.page, token, '/wallet/credit')
  await mobile.page.getByTestId('amount').fill('500000')
  await mobile.page.getByText('حداقل مبلغ پرداخت ۱٬۰۰۰٬۰۰۰ ریال است').waitFor()
  await shot(mobile.page, 'wallet-credit-mobile-dark')
  await mobile.context.close()
})
