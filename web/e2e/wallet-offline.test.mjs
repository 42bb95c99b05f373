// Offline payment: the owner reports a card-to-card transfer on /wallet/credit (the
// destination card and its owner, the 10% tax shown before submitting, a wrong card
// refused client-side, the receipt uploaded with progress), the request is listed as
// under review; staff open it in the back office, see the receipt image and approve it;
// the wallet is credited the amount less tax once and the transaction appears.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { deflateSync } from 'node:zlib'
import { DEMO, MOBILE, PANEL_URL, apiCall, apiToken, launch, openPage, randomDigits, shot, signInWithToken, staffLogin, waitForPath } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
const crc32 = (buf) => {
  let c = 0xffffffff
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
function chunk(type, data) {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([len, body, crc])
}
/** A real w×h RGB PNG receipt: a teal band on white, so the back office shows a visible image. */
function receiptPng(w = 320, h = 180) {
  const rows = []
  for (let y = 0; y < h; y++) {
    const row = Buffer.alloc(1 + w * 3, 255)
    row[0] = 0
    if (y > h / 3 && y < (2 * h) / 3) for (let x = 0; x < w; x++) row.set([0, 128, 128], 1 + x * 3)
    rows.push(row)
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(w, 0)
  ihdr.writeUInt32BE(h, 4)
  ihdr.set([8, 2, 0, 0, 0], 8)
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))])
}
const PNG = receiptPng()

/** An hour ago as the Jalali date-time input takes it (Tehran): YYYY/MM/DD HH:mm in Latin digits. */
function jalaliHourAgo() {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US-u-ca-persian-nu-latn', {
    timeZone: 'Asia/Tehran', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
  }).formatToParts(new Date(Date.now() - 3600_000)).map((p) => [p.type, p.value]))
  return `${parts.year}/${parts.month}/${parts.day} ${parts.hour}:${parts.minute}`
}

test('card-to-card report with a receipt, approved by staff, credits the wallet once', { timeout: 180_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const before = (await apiCall('GET', '/payment/credit/mine', undefined, token)).credit
  const tracking = randomDigits(10)

  const { context, page } = await openPage(browser)
  await signInWithToken(page, token, '/wallet/credit')
  const tab = page.getByTestId('tab-card')
  await page.waitForFunction(() => !document.querySelector('[data-testid="tab-card"]')?.hasAttribute('disabled'))
  await tab.click()
  await page.getByTestId('dest-owner').waitFor()
  await page.getByTestId('offline-amount').fill('۲۰۰۰۰۰۰')
  await page.getByTestId('offline-tax').getByText('۲۰۰٬۰۰۰ ریال').waitFor()
  await page.getByTestId('offline-credit').getByText('۱٬۸۰۰٬۰۰۰ ریال').waitFor()
  await page.getByTestId('offline-source').fill('6037991234567894')
  await page.getByTestId('offline-submit').click()
  await page.getByText('شماره کارت اشتباه است').waitFor()
  await page.getByTestId('offline-source').fill('6037-9912-3456-7893')
  await page.getByTestId('offline-tracking').fill(tracking)
  const when = page.getByRole('textbox', { name: 'تاریخ و ساعت واریز' })
  await when.fill(jalaliHourAgo())
  await when.press('Tab')
  await page.getByTestId('offline-receipt').setInputFiles({ name: 'رسید.png', mimeType: 'image/png', buffer: PNG })
  await page.getByTestId('offline-receipt-name').getByText('رسید.png').waitFor()
  await page.getByTestId('offline-destination').click() // an outside click closes the date picker typing opened
  await shot(page, 'wallet-offline-form')
  await page.getByTestId('offline-submit').click()

  // Listed as under review; nothing credited yet.
  const mine = await apiCall('GET', '/payment/offline/list', undefined, token)
  let report = mine.find((r) => r.tracking_number === tracking)
  for (let i = 0; !report && i < 30; i++) {
    await new Promise((r) => setTimeout(r, 300))
    report = (await apiCall('GET', '/payment/offline/list', undefined, token)).find((r) => r.tracking_number === tracking)
  }
  assert.ok(report, 'the report was not stored')
  assert.equal(report.credit, 1_800_000)
  await page.locator(`[data-testid="offline-state-${report.id}"]`).getByText('در انتظار بررسی').waitFor()
  await shot(page, 'wallet-offline-pending')
  assert.equal((await apiCall('GET', '/payment/credit/mine', undefined, token)).credit, before)

  // Staff open it, see the receipt and approve.
  const staff = await openPage(browser)
  await staffLogin(staff.page)
  await staff.page.getByTestId(`offline-detail-${report.id}`).click()
  const img = staff.page.getByTestId('offline-receipt-image')
  await img.waitFor()
  await staff.page.waitForFunction(() => document.querySelector('[data-testid="offline-receipt-image"]')?.naturalWidth === 320)
  await staff.page.getByTestId('offline-detail').getByText(tracking.replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[d])).waitFor()
  await shot(staff.page, 'admin-offline-receipt')
  await staff.page.keyboard.press('Escape')
  await staff.page.getByTestId(`offline-detail-${report.id}`).waitFor()
  // Only the offline payment queue: approve-<id> names the subject, and held sends have ids too.
  await staff.page.goto(`${PANEL_URL}/admin/reviews?kind=offline_payment`)
  await staff.page.getByTestId(`approve-${report.id}`).click()
  await staff.page.getByTestId(`offline-detail-${report.id}`).waitFor({ state: 'detached' })
  await staff.context.close()

  // Credited once, the amount less tax; the transaction appears and the request shows approved.
  assert.equal((await apiCall('GET', '/payment/credit/mine', undefined, token)).credit, before + 1_800_000)
  await page.reload()
  await page.waitForFunction(() => !document.querySelector('[data-testid="tab-card"]')?.hasAttribute('disabled'))
  await page.getByTestId('tab-card').click()
  await page.locator(`[data-testid="offline-state-${report.id}"]`).getByText('تایید و شارژ شد').waitFor()
  await page.goto(`${PANEL_URL}/wallet/transactions`)
  await waitForPath(page, /^\/wallet\/transactions$/)
  await page.getByText('شارژ کارت به کارت (پس از کسر ۱۰٪ مالیات)').first().waitFor()
  await shot(page, 'wallet-offline-transaction')
  await context.close()

  // The card tab on a phone, dark.
  const phone = await openPage(browser, MOBILE)
  await phone.page.goto(`${PANEL_URL}/login`)
  await phone.page.evaluate(() => localStorage.setItem('dark', 'true'))
  await signInWithToken(phone.page, token, '/wallet/credit')
  await phone.page.waitForFunction(() => !document.querySelector('[data-testid="tab-card"]')?.hasAttribute('disabled'))
  await phone.page.getByTestId('tab-card').click()
  await phone.page.getByTestId('offline-requests').waitFor()
  await shot(phone.page, 'wallet-offline-mobile-dark')
  await phone.context.close()
})
