// The back office's quarantined inbound entries against the real stack: the carrier
// simulator sends an MO whose handset holds bytes that are not UTF-8 beside a valid
// one; the worker stores the valid one and quarantines the other, and staff see it at
// /admin/inbound-quarantine with its reason and raw bytes in hex (desktop and mobile).
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { MOBILE, SIM_URL, launch, openPage, shot, staffLogin } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

test('staff see a quarantined inbound entry with its raw bytes', { timeout: 120_000 }, async () => {
  const from = `98912${String(Date.now()).slice(-7)}`
  const res = await fetch(`${SIM_URL}/mo`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ operator: 'mci', from, to: '30001234', text: 'quarantine me', poison: 'source' }),
  })
  assert.equal(res.status < 300, true, `inject MO: ${res.status}`)
  // The entry's raw bytes hold the handset as sent ("mobile=98912…" then 0xff).
  const hexFrom = Buffer.from(`mobile=${from}`).toString('hex').match(/.{2}/g).join(' ')

  for (const viewport of [undefined, MOBILE]) {
    const { page } = await openPage(browser, viewport)
    await staffLogin(page)
    const cell = page.getByText(`${hexFrom} ff`, { exact: false }).first()
    for (let i = 0; i < 30 && !(await cell.isVisible()); i++) {
      await page.goto(page.url().replace(/\/admin.*$/, '/admin/inbound-quarantine'))
      await page.getByRole('heading', { name: 'ورودی‌های قرنطینه‌شده' }).waitFor()
      if (await cell.isVisible()) break
      await page.waitForTimeout(1000)
    }
    await cell.waitFor()
    await page.getByText('not valid UTF-8').first().waitFor()
    await shot(page, viewport ? 'admin-quarantine-mobile' : 'admin-quarantine')
    await page.context().close()
  }
})
