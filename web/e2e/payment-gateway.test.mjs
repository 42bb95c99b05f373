// The back office's «درگاه پرداخت» against the real stack: staff enter SEP's terminal id
// (the sandbox bank stays the active gateway, as other tests top up through it); the
// page then shows the id masked — after a reload too — and the API never answers it in
// full. Light and dark, desktop and 390 px.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { PANEL_URL, latinDigits, launch, openPage, randomDigits, staffLogin, themeShots } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

async function openGateway(page) {
  await page.goto(`${PANEL_URL}/admin/payment-gateway`)
  await page.getByRole('heading', { name: 'درگاه پرداخت آنلاین' }).waitFor()
  await page.getByTestId('gateway-form').waitFor()
}

test('staff enter a terminal id and see it only masked', { timeout: 180_000 }, async () => {
  const terminal = `7${randomDigits(7)}`
  const { page } = await openPage(browser)
  await staffLogin(page)
  await openGateway(page)
  assert.equal(await page.getByTestId('gateway-sandbox').getAttribute('aria-checked'), 'true')
  await page.getByTestId('gateway-sep-id').fill(terminal)
  const answer = page.waitForResponse((r) => r.url().endsWith('/admin/payment-gateway') && r.request().method() === 'POST')
  await page.getByTestId('gateway-save').click()
  const body = await (await answer).text()
  assert.ok(!body.includes(terminal), `the answer holds the id in full: ${body}`)
  await page.getByTestId('gateway-saved').waitFor()
  const masked = `••••${terminal.slice(-4)}`
  await page.reload()
  await page.getByTestId('gateway-form').waitFor()
  const text = latinDigits(await page.getByTestId('gateway-form').innerText()).replace(/[\u2066-\u2069]/g, '')
  assert.ok(text.includes(`ثبت‌شده: ${masked}`), text)
  assert.ok(!text.includes(terminal), text)
  assert.equal(await page.getByTestId('gateway-sep-id').inputValue(), '')
  assert.equal(await page.getByTestId('gateway-sandbox').getAttribute('aria-checked'), 'true')
  await themeShots(page, 'admin-payment-gateway', page.getByTestId('gateway-save'))
  await page.context().close()
})
