// Support against the real stack: the demo customer opens a ticket with an attachment,
// the seeded staff user answers it in the back office with a file of their own, the
// answer reaches the customer's open page live and the owner's handset at the carrier
// simulator, and the customer rates the answer, closes the request and rates it.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, MOBILE, PANEL_URL, SIM_URL, apiCall, apiToken, latinDigits, launch, openPage, shot, signInWithToken, staffLogin, waitForPath } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

// A 1×1 PNG and a tiny PDF, as real files are.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n')

test('a ticket with an attachment is answered in the back office and rated', { timeout: 240_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const customer = await openPage(browser)
  const { page } = customer
  await signInWithToken(page, token, '/support')
  await page.getByTestId('support-summary').waitFor()
  await page.getByTestId('faq-search').fill('لغو۱۱')
  await page.getByText('لغو۱۱ چیست؟').waitFor()
  await page.getByTestId('contact-info').waitFor()
  await shot(page, 'support-hub')

  await page.getByTestId('hub-new-ticket').click()
  await waitForPath(page, /^\/support\/create-ticket$/)
  await page.getByRole('combobox', { name: 'دسته‌بندی' }).click()
  await page.getByRole('option', { name: 'فنی' }).click()
  await page.getByRole('combobox', { name: 'زیرمجموعه' }).click()
  await page.getByRole('option', { name: 'ارسال نشدن پیامک' }).click()
  const title = `نرسیدن پیامک ${Date.now()}`
  await page.getByTestId('ticket-title').fill(title)
  await page.getByTestId('ticket-text').fill('پیامک‌های ارسال امروز به برخی مشترکان نرسیده است؛ تصویر گزارش پیوست است.')
  // A renamed program is refused before upload; the picture is taken.
  await page.getByTestId('ticket-files').setInputFiles({ name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') })
  await page.getByText(/setup\.exe.*مجاز نیست/).waitFor()
  await page.getByTestId('ticket-files').setInputFiles({ name: 'report.png', mimeType: 'image/png', buffer: PNG })
  await page.getByText('report.png').waitFor()
  await page.getByTestId('ticket-submit').click()
  await waitForPath(page, /^\/support\/tickets\/\d+$/)
  const id = Number(new URL(page.url()).pathname.split('/').pop())
  await page.locator('[data-testid="ticket-state"][data-state="2"]').waitFor()
  await page.getByTestId('ticket-attachment').filter({ hasText: 'report.png' }).waitFor()
  const created = await apiCall('GET', `/ticket/show/${id}`, undefined, token)
  assert.equal(created.title, title)
  assert.equal(created.interactions[0].attachments[0].content_type, 'image/png')

  // Staff answer it with a file.
  const staff = await openPage(browser)
  await staffLogin(staff.page)
  await staff.page.goto(`${PANEL_URL}/admin/support/tickets`)
  await staff.page.getByText(title).waitFor()
  await shot(staff.page, 'admin-support-queue')
  await staff.page.getByText(title).click()
  await waitForPath(staff.page, new RegExp(`^/admin/support/tickets/${id}$`))
  await staff.page.getByTestId('ticket-attachment').filter({ hasText: 'report.png' }).waitFor()
  await staff.page.getByTestId('admin-answer-text').fill('سلام؛ مشکل مسیر ارسال برطرف شد. گزارش فنی پیوست است.')
  await staff.page.getByTestId('admin-answer-files').setInputFiles({ name: 'trace.pdf', mimeType: 'application/pdf', buffer: PDF })
  await staff.page.getByTestId('admin-answer-send').click()
  await staff.page.getByTestId('interaction-staff').waitFor()
  await staff.page.locator('[data-testid="ticket-state"][data-state="3"]').waitFor()
  await shot(staff.page, 'admin-support-ticket')
  await staff.context.close()

  // The customer's open page shows the answer live (ticket.updated), with its file.
  const answer = page.getByTestId('interaction-staff')
  await answer.waitFor({ timeout: 20_000 })
  await page.locator('[data-testid="ticket-state"][data-state="3"]').waitFor()
  await answer.getByTestId('ticket-attachment').filter({ hasText: 'trace.pdf' }).waitFor()

  // The owner's handset got the SMS with the request number.
  let text = ''
  for (let i = 0; i < 180 && !text.includes('پشتیبانی'); i++) {
    const res = await fetch(`${SIM_URL}/messages/latest?to=989120000000`).catch(() => null)
    const body = res?.ok ? await res.json().catch(() => null) : null
    text = String((body?.data ?? body)?.text ?? '')
    if (!text.includes('پشتیبانی')) await new Promise((r) => setTimeout(r, 500))
  }
  assert.match(latinDigits(text), new RegExp(`شماره ${created.number} پاسخ داده شد`))

  // Rate the answer, close, rate the request.
  await answer.locator('[data-testid$="-5"]').click()
  await answer.getByText('امتیاز شما:').waitFor()
  await page.getByTestId('ticket-close').click()
  await page.getByTestId('ticket-closed-notice').getByText('این درخواست حل شده است؛ برای مشکل جدید درخواست تازه ثبت کنید').waitFor()
  await page.getByTestId('rate-ticket-4').click()
  await page.getByTestId('rate-ticket-send').click()
  await page.getByTestId('ticket-rating').waitFor()
  await shot(page, 'support-ticket-closed')
  const rated = await apiCall('GET', `/ticket/show/${id}`, undefined, token)
  assert.equal(rated.state, 4)
  assert.equal(rated.rating, 4)
  assert.equal(rated.interactions[1].rating, 5)
  await customer.context.close()

  // On a phone: the request, then the hub in dark.
  const phone = await openPage(browser, MOBILE)
  await signInWithToken(phone.page, token, `/support/tickets/${id}`)
  await phone.page.getByTestId('ticket-closed-notice').waitFor()
  await shot(phone.page, 'support-ticket-mobile')
  await phone.page.goto(`${PANEL_URL}/support/tickets`)
  await phone.page.getByText(title).first().waitFor()
  await shot(phone.page, 'support-tickets-mobile')
  await phone.page.goto(`${PANEL_URL}/support/create-suggestion-request`)
  await phone.page.getByTestId('ticket-title').waitFor()
  await shot(phone.page, 'support-create-suggestion-mobile')
  await phone.page.goto(`${PANEL_URL}/support`)
  await phone.page.getByTestId('support-summary').waitFor()
  await phone.page.evaluate(() => localStorage.setItem('dark', 'true'))
  await phone.page.reload()
  await phone.page.getByTestId('support-summary').waitFor()
  await shot(phone.page, 'support-hub-mobile-dark')
  await phone.context.close()
})
