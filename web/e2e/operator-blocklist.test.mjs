// The back office's operator advertising block lists («لیست سیاه اپراتورها») against the
// real stack: staff import a small csv (MCI and Irancell numbers, a header, a repeat),
// see the counts per operator grow, search a number and remove it; a file that is not
// a csv is refused with the Persian reason under the file field. Desktop, mobile, dark.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { MOBILE, PANEL_URL, latinDigits, launch, openPage, randomDigits, shot, staffLogin } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

const count = async (page, op) => Number(latinDigits(await page.getByTestId(`blocklist-count-${op}`).innerText()).replace(/[^0-9]/g, ''))

async function openList(page) {
  await page.goto(`${PANEL_URL}/admin/operator-blocklist`)
  await page.getByRole('heading', { name: 'لیست سیاه اپراتورها' }).waitFor()
  await page.getByTestId('blocklist-count-mci').waitFor()
}

test('staff import a csv, see the counts, search a number and remove it', { timeout: 180_000 }, async () => {
  const tail = randomDigits(6)
  const mci = [`09121${tail}`, `09122${tail}`]
  const irancell = `09351${tail}`
  const { page } = await openPage(browser)
  await staffLogin(page)
  await openList(page)
  const before = { mci: await count(page, 'mci'), irancell: await count(page, 'irancell'), total: await count(page, 'total') }

  const csv = `شماره موبایل\n${mci[0]}\n${mci[1]}\n${irancell}\n${mci[0]}\n`
  await page.getByTestId('blocklist-file').setInputFiles({ name: 'blocked.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
  await page.getByTestId('blocklist-file-name').getByText('blocked.csv').waitFor()
  await page.getByTestId('blocklist-import').click()
  const result = page.getByTestId('blocklist-import-result')
  await result.waitFor()
  const text = latinDigits(await result.innerText())
  assert.match(text, /5 ردیف خوانده شد/)
  assert.match(text, /3 شماره تازه افزوده شد/)
  assert.match(text, /1 شماره از پیش در لیست بود/)
  await page.waitForFunction(
    ([want]) => document.querySelector('[data-testid="blocklist-count-total"]')?.textContent?.replace(/[۰-۹]/g, (d) => String('۰۱۲۳۴۵۶۷۸۹'.indexOf(d))).replace(/[^0-9]/g, '') === String(want),
    [before.total + 3],
  )
  assert.equal(await count(page, 'mci'), before.mci + 2)
  assert.equal(await count(page, 'irancell'), before.irancell + 1)
  await shot(page, 'admin-operator-blocklist')

  await page.getByTestId('blocklist-search-input').fill(irancell)
  await page.getByTestId('blocklist-search').click()
  const row = page.getByRole('row').filter({ hasText: 'ایرانسل' })
  await row.waitFor()
  assert.match(await row.innerText(), /بارگذاری پشتیبانی/)
  await page.getByTestId('blocklist-remove-irancell').click()
  await page.getByText('این شماره در لیست سیاه هیچ اپراتوری نیست').waitFor()
  await page.waitForFunction(
    ([want]) => document.querySelector('[data-testid="blocklist-count-irancell"]')?.textContent?.replace(/[۰-۹]/g, (d) => String('۰۱۲۳۴۵۶۷۸۹'.indexOf(d))).replace(/[^0-9]/g, '') === String(want),
    [before.irancell],
  )

  // A picture named .csv: refused, nothing listed.
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')
  await page.getByTestId('blocklist-file').setInputFiles({ name: 'photo.csv', mimeType: 'text/csv', buffer: png })
  await page.getByTestId('blocklist-import').click()
  await page.getByText('فرمت فایل نامعتبر است').first().waitFor()
  assert.equal(await count(page, 'mci'), before.mci + 2)
  await page.context().close()
})

test('the page on a phone and in dark mode', { timeout: 120_000 }, async () => {
  for (const [viewport, name, dark] of [[MOBILE, 'admin-operator-blocklist-mobile', false], [undefined, 'admin-operator-blocklist-dark', true]]) {
    const { page } = await openPage(browser, viewport)
    await staffLogin(page)
    if (dark) await page.evaluate(() => localStorage.setItem('dark', 'true'))
    await openList(page)
    await page.getByTestId('blocklist-search-input').fill('09120000001')
    await page.getByTestId('blocklist-search').click()
    await page.getByText('این شماره در لیست سیاه هیچ اپراتوری نیست').waitFor()
    await shot(page, name)
    await page.context().close()
  }
})
