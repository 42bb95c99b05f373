// The owner logs in, sends, and finds both in the audit log; a filter by action
// narrows the table; the page is checked on desktop and on mobile in dark mode.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, MOBILE, PANEL_URL, apiCall, apiToken, launch, openPage, randomMobile, shot, signInWithToken } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

const rows = (page) => page.locator('table[aria-label="گزارش فعالیت‌ها"] tbody tr')

test('audit log: a login and a send appear, the action filter narrows them', { timeout: 120_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const sendAt = new Date(Date.now() + 3 * 3600_000).toISOString()
  const sent = await apiCall('POST', '/send', { text: 'آزمایش گزارش فعالیت', numbers: [randomMobile()], send_at: sendAt }, token)
  assert.ok(sent?.id, 'the send was accepted')

  const { context, page } = await openPage(browser)
  await signInWithToken(page, token, '/audit-log')
  await rows(page).first().waitFor()
  const table = page.locator('table[aria-label="گزارش فعالیت‌ها"]')
  await table.getByText('ورود به حساب').first().waitFor()
  await table.getByText('ثبت ارسال').first().waitFor()
  await shot(page, 'audit-log')

  await page.getByRole('combobox', { name: 'رویداد' }).click()
  await page.getByRole('option', { name: 'ثبت ارسال' }).click()
  await page.waitForURL(/action=send\.create/)
  await page.waitForFunction(() => {
    const trs = [...document.querySelectorAll('table[aria-label="گزارش فعالیت‌ها"] tbody tr')]
    return trs.length > 0 && trs.every((r) => r.textContent?.includes('ثبت ارسال'))
  }, null, { timeout: 60_000, polling: 300 })
  assert.equal(await table.getByText('ورود به حساب').count(), 0, 'logins are filtered out')
  await shot(page, 'audit-log-filtered')
  await context.close()

  const mobile = await openPage(browser, MOBILE)
  await mobile.page.goto(`${PANEL_URL}/login`)
  await mobile.page.evaluate(() => localStorage.setItem('dark', 'true'))
  await signInWithToken(mobile.page, token, '/audit-log')
  await mobile.page.waitForFunction(() => document.documentElement.classList.contains('dark'))
  await mobile.page.getByText('ثبت ارسال').first().waitFor()
  await shot(mobile.page, 'audit-log-mobile-dark')
  await mobile.context.close()
})
