// The demo account builds a phonebook in the contacts pages: creates a group, adds a contact,
// imports a CSV file through the import wizard and blacklists a number; then the mobile pages.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  DEMO, MOBILE, PANEL_URL, apiCall, apiToken, launch, openPage, randomDigits, randomMobile, shot, signInWithToken, toIntl,
  waitForPath,
} from './helpers.mjs'

let browser
const tempDirs = []
before(async () => { browser = await launch() })
after(async () => {
  await browser?.close()
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true })
})

const PERSIAN = '۰۱۲۳۴۵۶۷۸۹'
const fa = (s) => String(s).replace(/[0-9]/g, (d) => PERSIAN[Number(d)])

/** A CSV with a header, `numbers` (as 09…), one bad number and one repeated row. */
function csvFile(numbers, featureTitle) {
  const lines = [`موبایل,نام,جنسیت,${featureTitle}`]
  numbers.forEach((n, i) => lines.push(`${n},مخاطب ${i + 1},${i % 2 ? 'زن' : 'مرد'},تهران`))
  lines.push('12345,شماره خراب,مرد,تهران')
  lines.push(`${numbers[1]},تکراری,زن,تهران`)
  const dir = mkdtempSync(join(tmpdir(), 'contacts-e2e-'))
  tempDirs.push(dir)
  const path = join(dir, 'contacts.csv')
  writeFileSync(path, `${lines.join('\n')}\n`)
  return path
}

async function contactsOf(token, phonebookId) {
  return apiCall('GET', `/phonebooks/numbers/contact-list?phonebook_id=${phonebookId}&limit=100`, undefined, token)
}

test('demo: add a contact, import a file, blacklist a number', { timeout: 240_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const { context, page } = await openPage(browser)

  // A custom feature: the Latin title allows Latin letters, digits and hyphens only.
  await signInWithToken(page, token, '/contacts?tab=2')
  await page.getByTestId('feature-add').click()
  const featureForm = page.getByTestId('feature-form')
  await featureForm.getByTestId('feature-title-fa').fill('شهر')
  await featureForm.getByTestId('feature-title-en').fill('شهر')
  await featureForm.getByTestId('feature-save').click()
  await featureForm.getByText('عنوان لاتین فقط می‌تواند شامل حروف لاتین، عدد و خط تیره باشد').waitFor()
  const latin = `city-${randomDigits(4)}`
  await featureForm.getByTestId('feature-title-en').fill(latin)
  await featureForm.getByTestId('feature-save').click()
  await featureForm.waitFor({ state: 'detached' })
  await page.getByRole('table', { name: 'ویژگی‌های سفارشی' }).getByText(latin).waitFor()
  await shot(page, 'contacts-features-light')

  await page.getByTestId('tab-groups').click()

  // A new group from the groups tab, then its page.
  const groupName = `گروه آزمایشی ${randomDigits(6)}`
  await page.getByTestId('phonebook-add').click()
  await page.getByTestId('phonebook-name').fill(groupName)
  await page.getByTestId('phonebook-save').click()
  await page.getByRole('table', { name: 'گروه‌ها' }).getByText(fa(groupName)).click()
  await waitForPath(page, /\/contacts\/group\/\d+$/)
  const groupId = Number(page.url().match(/group\/(\d+)/)[1])
  assert.equal(await page.getByTestId('group-name').textContent(), fa(groupName))

  // Add one contact; the group is preselected on its page.
  const manual = randomMobile()
  await page.getByTestId('contact-add').click()
  const form = page.getByTestId('contact-form')
  await form.getByTestId('contact-number').fill(manual)
  await form.getByTestId('contact-name').fill('مریم آزمایشی')
  await form.getByText('زن', { exact: true }).click()
  await form.getByTestId(`feature-${latin}`).fill('اصفهان')
  await shot(page, 'contacts-add')
  await form.getByTestId('contact-save').click()
  await form.waitFor({ state: 'detached' })
  await page.getByRole('table', { name: 'مخاطبین' }).getByText('مریم آزمایشی').waitFor()
  let rows = await contactsOf(token, groupId)
  assert.deepEqual(rows.map((r) => [r.number, r.name, r.gender, r.features?.[latin]]), [[toIntl(manual), 'مریم آزمایشی', 'female', 'اصفهان']])

  // Import: five new numbers plus the one already in the group, a bad row and a repeated row.
  const fresh = Array.from({ length: 5 }, randomMobile)
  const file = csvFile([...fresh, manual], latin)
  await page.getByTestId('group-import').click()
  const wizard = page.getByTestId('import-wizard')
  await wizard.getByTestId('import-step-0').waitFor()
  await wizard.getByTestId('import-next').click()
  await wizard.getByTestId('import-file').setInputFiles(file)
  await wizard.getByTestId('import-next').click()
  await wizard.getByTestId('import-preflight').getByText('تعداد ردیف‌ها').waitFor({ timeout: 60_000 })
  const stat = async (label) => (await wizard.getByTestId(`stat-${label}`).locator('p').last().textContent())
  assert.equal(await stat('تعداد ردیف‌ها'), fa(8))
  assert.equal(await stat('شماره‌های معتبر'), fa(6))
  assert.equal(await stat('ردیف‌های نامعتبر'), fa(1))
  assert.equal(await stat('تکراری'), fa(1))
  await shot(page, 'contacts-import-preflight')
  await wizard.getByTestId('import-next').click()
  // Name and gender are matched from the header titles.
  await wizard.getByTestId('import-mapping').waitFor()
  assert.equal(await wizard.getByTestId('map-name').inputValue(), '1')
  assert.equal(await wizard.getByTestId('map-gender').inputValue(), '2')
  assert.equal(await wizard.getByTestId(`map-feature:${latin}`).inputValue(), '3')
  await shot(page, 'contacts-import-mapping')
  await wizard.getByTestId('import-next').click()
  await wizard.locator('[data-testid="import-progress"][data-status="done"]').waitFor({ timeout: 120_000 })
  assert.equal(await stat('افزوده شد'), fa(5))
  assert.equal(await stat('تکراری (رد شد)'), fa(1))
  await shot(page, 'contacts-import-done')
  await wizard.getByTestId('import-close').click()
  rows = await contactsOf(token, groupId)
  assert.equal(rows.length, 6)
  assert.deepEqual(new Set(rows.map((r) => r.number)), new Set([manual, ...fresh].map(toIntl)))
  assert.equal(rows.find((r) => r.number === toIntl(fresh[1]))?.gender, 'female')
  assert.equal(rows.find((r) => r.number === toIntl(fresh[2]))?.features?.[latin], 'تهران')
  // The contact already in the group was skipped, not overwritten.
  assert.equal(rows.find((r) => r.number === toIntl(manual))?.features?.[latin], 'اصفهان')
  await page.getByTestId('group-members').filter({ hasText: fa(6) }).waitFor()
  await shot(page, 'contacts-group-light')

  // Blacklist a number from the blacklist tab (send list).
  await page.goto(`${PANEL_URL}/contacts?tab=3`)
  await page.getByTestId('list-add').click()
  const entry = page.getByTestId('list-add-form').locator('input[type="tel"]')
  await entry.fill(fresh[0])
  await entry.press('Enter')
  await page.getByTestId('list-add-save').click()
  const table = page.getByRole('table', { name: 'لیست سیاه ارسال' })
  await table.getByText(fa(fresh[0])).waitFor()
  const listed = await apiCall('GET', `/phonebooks/blacklist?kind=send&search=${fresh[0].slice(1)}`, undefined, token)
  assert.deepEqual(listed.map((r) => [r.number, r.source]), [[toIntl(fresh[0]), 'manual']])
  await shot(page, 'contacts-blacklist-light')

  // The contact's page shows the date it entered the send blacklist.
  const blacklisted = rows.find((r) => r.number === toIntl(fresh[0]))
  await page.goto(`${PANEL_URL}/contacts/${blacklisted.id}`)
  await page.locator('[data-testid="contact-list-send"][data-on="true"]').waitFor()
  await page.locator('[data-testid="contact-list-receive"][data-on="false"]').waitFor()
  await page.getByTestId('contact-details').getByText('تهران').waitFor()
  await shot(page, 'contacts-details-light')

  // Dark theme.
  await page.goto(`${PANEL_URL}/contacts/group/${groupId}`)
  await page.getByRole('table', { name: 'مخاطبین' }).getByText('مریم آزمایشی').waitFor()
  await page.getByTestId('theme-toggle').click()
  await shot(page, 'contacts-group-dark')
  await page.goto(`${PANEL_URL}/contacts?tab=0`)
  await page.getByRole('table', { name: 'مخاطبین' }).waitFor()
  await shot(page, 'contacts-all-dark')
  await page.getByTestId('theme-toggle').click()

  // Bulk delete: two contacts of the group chosen on the page, then deleted together.
  await page.goto(`${PANEL_URL}/contacts/group/${groupId}`)
  const contactsTable = page.getByRole('table', { name: 'مخاطبین' })
  await contactsTable.getByText('مریم آزمایشی').waitFor()
  await contactsTable.getByTestId('row-select').nth(0).click()
  await contactsTable.getByTestId('row-select').nth(1).click()
  await page.getByText(`${fa(2)} مورد انتخاب شده`).waitFor()
  await page.getByTestId('bulk-delete').click()
  await page.getByTestId('confirm').click()
  await page.getByTestId('group-members').filter({ hasText: fa(4) }).waitFor()
  assert.equal((await contactsOf(token, groupId)).length, 4)
  await context.close()

  // Mobile: /contacts is a menu of the five pages; the pages are mobile-only.
  const mobile = await openPage(browser, MOBILE)
  await signInWithToken(mobile.page, token, '/contacts')
  await mobile.page.getByTestId('contacts-menu').waitFor()
  await shot(mobile.page, 'contacts-mobile-menu')
  await mobile.page.getByTestId('menu-groups').click()
  await waitForPath(mobile.page, /\/contacts\/all-groups$/)
  await mobile.page.getByText(fa(groupName)).waitFor()
  await shot(mobile.page, 'contacts-mobile-groups')
  await mobile.page.goto(`${PANEL_URL}/contacts/group/${groupId}`)
  await mobile.page.getByTestId('contact-card').first().waitFor()
  await shot(mobile.page, 'contacts-mobile-group')
  await mobile.page.getByTestId('group-import').click()
  await mobile.page.getByTestId('import-step-0').waitFor()
  await shot(mobile.page, 'contacts-mobile-import')
  await mobile.page.keyboard.press('Escape')
  await mobile.page.getByTestId('contact-add').click()
  await mobile.page.getByTestId('contact-form').waitFor()
  await shot(mobile.page, 'contacts-mobile-add')
  await mobile.context.close()

  // A mobile-only page on desktop goes to /404.
  const desk = await openPage(browser)
  await signInWithToken(desk.page, token, '/contacts/blacklist')
  await waitForPath(desk.page, /\/404$/)
  await desk.context.close()
})
