// The back office against the real stack: the demo account's send with a sensitive word
// is held («در حال بررسی»); the seeded staff user logs in at /admin/login with the code
// texted to its mobile (read at the carrier simulator), approves the send in the review
// queue, and the customer's report shows it going out.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, MOBILE, PANEL_URL, apiCall, apiToken, launch, openPage, randomMobile, shot, signInWithToken, staffLogin, waitForPath } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

test('staff approve a held send and the customer sees it sending', { timeout: 300_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const sent = await apiCall('POST', '/send', { text: 'افتتاح کازینو آنلاین', numbers: [randomMobile()] }, token)
  assert.equal(sent.status, 'held')

  // The customer sees it under review.
  const customer = await openPage(browser)
  await signInWithToken(customer.page, token, `/reports/${sent.id}`)
  await customer.page.locator('[data-testid="send-status"][data-status="held"]').first().waitFor()
  await customer.page.getByTestId('report-held').waitFor()

  // A customer token does not open the back office.
  await customer.page.goto(`${PANEL_URL}/admin/reviews`)
  await waitForPath(customer.page, /^\/admin\/login$/)

  const staff = await openPage(browser)
  await staffLogin(staff.page)
  const approve = staff.page.getByTestId(`approve-${sent.id}`)
  await approve.waitFor()
  await shot(staff.page, 'admin-reviews')
  await approve.click()
  await approve.waitFor({ state: 'detached' })
  // The rules that held it are data staff can read and edit.
  await staff.page.getByTestId('moderation-open').click()
  await staff.page.getByTestId('moderation-words').waitFor()
  assert.match(await staff.page.getByTestId('moderation-words').inputValue(), /کازینو/)
  await shot(staff.page, 'admin-moderation-rules')
  await staff.page.keyboard.press('Escape')

  await customer.page.goto(`${PANEL_URL}/reports/${sent.id}`)
  await customer.page.locator('[data-testid="send-status"]:is([data-status="queued"], [data-status="sending"], [data-status="done"])').first().waitFor()
  // Delivered: the API says so, and the report shows it.
  let stats
  for (let i = 0; i < 120; i++) {
    stats = await apiCall('GET', `/report/bulk_stats?id=${sent.id}`, undefined, token)
    if (stats.status === 'done' && stats.delivered === 1) break
    await new Promise((r) => setTimeout(r, 1000))
  }
  assert.equal(stats.status, 'done', JSON.stringify(stats))
  await customer.page.reload()
  await customer.page.locator('[data-testid="send-status"][data-status="done"]').first().waitFor()
  await customer.context.close()

  // The accounts page, dark and on a phone.
  await staff.page.goto(`${PANEL_URL}/admin/accounts`)
  await staff.page.getByText('حساب‌های کاربری').first().waitFor()
  await staff.page.getByTestId('theme-toggle').click()
  await shot(staff.page, 'admin-accounts-dark')

  // Content customers see: a news item saved here is live for the customer.
  await staff.page.goto(`${PANEL_URL}/admin/content`)
  await staff.page.getByTestId('content-new').click()
  await staff.page.getByTestId('content-title').fill('خبر آزمون پشتیبانی')
  await staff.page.getByTestId('content-save').click()
  await staff.page.getByText('خبر آزمون پشتیبانی').first().waitFor()
  await shot(staff.page, 'admin-content-dark')
  const news = await apiCall('GET', '/content/news', undefined, token)
  assert.ok(news.some((n) => n.title === 'خبر آزمون پشتیبانی'))
  await staff.context.close()

  const phone = await openPage(browser, MOBILE)
  await staffLogin(phone.page)
  await shot(phone.page, 'admin-reviews-mobile')
  await phone.context.close()
})

test('a blocked send shows the reason and is refunded', { timeout: 120_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const before = (await apiCall('GET', '/payment/credit/mine', undefined, token)).credit
  const sent = await apiCall('POST', '/send', { text: 'کازینو ۲', numbers: [randomMobile()] }, token)
  const staff = await openPage(browser)
  await staffLogin(staff.page)
  await staff.page.getByTestId(`reject-${sent.id}`).click()
  await staff.page.getByTestId('reject-reason').fill('محتوای غیرمجاز')
  await staff.page.getByTestId('reject-submit').click()
  await staff.page.getByTestId(`reject-${sent.id}`).waitFor({ state: 'detached' })
  await staff.context.close()
  assert.equal((await apiCall('GET', '/payment/credit/mine', undefined, token)).credit, before)
  const customer = await openPage(browser)
  await signInWithToken(customer.page, token, `/reports/${sent.id}`)
  await customer.page.getByTestId('report-blocked').filter({ hasText: 'محتوای غیرمجاز' }).waitFor()
  await shot(customer.page, 'report-blocked')
  await customer.context.close()
})
