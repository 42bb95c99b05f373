// The back office's operations page against the real stack: the seeded staff user (who
// holds staff.operations) sees every SMPP bind connected, the task queues, and the
// carriers' throughput move while the demo account sends; a new staff user is refused
// until the seeded one grants the page on «کاربران پشتیبانی».
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import {
  DEMO, MOBILE, PANEL_URL, apiCall, apiToken, latinDigits, launch, openPage, randomDigits, randomMobile, shot, staffLogin, toIntl,
} from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

const BINDS = ['mci#1', 'irancell#1', 'rightel#1', 'sandbox#1']

/**
 * Whether the page shows the demo's sends going out: at least 5 parts a second («۱۲٫۵ در ثانیه»;
 * «…» before the first read). A staff login's code alone is half a part a second.
 */
const moving = (rate) => Number(latinDigits(rate).replace(/٬/g, '').replace('٫', '.').split(' ')[0]) >= 5

test('staff with the operations permission watch binds, queues and throughput', { timeout: 240_000 }, async () => {
  const { context, page } = await openPage(browser)
  await staffLogin(page)
  await page.goto(`${PANEL_URL}/admin/operations`)
  const binds = page.getByRole('table', { name: 'اتصال‌های SMPP' })
  for (const name of BINDS) {
    await binds.getByRole('row', { name: new RegExp(name) }).getByText('متصل', { exact: true }).waitFor()
  }
  await page.getByRole('table', { name: 'صف‌های کار' }).waitFor()

  // The demo account sends small batches until the page shows the carriers accepting them
  // (a rate over the gateways' last two seconds; bounded in count and time).
  const token = await apiToken(DEMO.username, DEMO.password)
  const submits = page.getByTestId('ops-submits')
  let rate = ''
  const statuses = new Set()
  for (let i = 0; i < 60 && !moving(rate); i++) {
    const numbers = Array.from({ length: 40 }, () => randomMobile())
    const sent = await apiCall('POST', '/send', { text: 'آزمون پایش عملیات', numbers }, token)
    statuses.add(sent.status)
    for (let j = 0; j < 6 && !moving(rate); j++) {
      await page.waitForTimeout(250)
      rate = (await submits.textContent()) ?? ''
    }
  }
  assert.ok(moving(rate), `the submit rate stayed «${rate}»`)
  assert.deepEqual([...statuses], ['queued'], 'the demo sends went out at once')
  await shot(page, 'admin-operations')
  await page.getByTestId('theme-toggle').click()
  await shot(page, 'admin-operations-dark')
  await page.getByTestId('theme-toggle').click()
  await context.close()

  const phone = await openPage(browser, MOBILE)
  await staffLogin(phone.page)
  await phone.page.goto(`${PANEL_URL}/admin/operations`)
  await phone.page.getByRole('list', { name: 'اتصال‌های SMPP' }).getByText('متصل', { exact: true }).first().waitFor()
  await shot(phone.page, 'admin-operations-mobile')
  const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  assert.ok(overflow <= 0, `the phone page scrolls sideways by ${overflow} px`)
  await phone.context.close()
})

test('a staff user without the permission is refused until another grants it', { timeout: 240_000 }, async () => {
  const lead = await openPage(browser)
  await staffLogin(lead.page)
  const leadToken = await lead.page.evaluate(() => localStorage.getItem('admin_token'))
  const mobile = randomMobile()
  const agent = { username: `ops${randomDigits(6)}`, password: 'Agent@12345', mobile: toIntl(mobile) }
  await apiCall('POST', '/admin/staff', { username: agent.username, name: 'ناظر آزمایشی', mobile, password: agent.password }, leadToken)

  const other = await openPage(browser)
  await staffLogin(other.page, agent)
  await other.page.goto(`${PANEL_URL}/admin/operations`)
  await other.page.getByText('شما دسترسی پایش عملیات ندارید').waitFor()
  await shot(other.page, 'admin-operations-refused')
  const menuEntry = other.page.getByRole('navigation', { name: 'منوی پشتیبانی' }).getByRole('link', { name: 'پایش عملیات' })
  await other.page.getByRole('navigation', { name: 'منوی پشتیبانی' }).getByRole('link', { name: 'تیکت‌ها' }).waitFor()
  assert.equal(await menuEntry.count(), 0, 'the operations entry shows in the menu of staff without the permission')

  await lead.page.goto(`${PANEL_URL}/admin/staff`)
  const row = lead.page.getByRole('row', { name: new RegExp(agent.username) })
  await row.getByText('ندارد', { exact: true }).waitFor()
  await row.getByRole('button', { name: `دادن دسترسی پایش عملیات ${agent.username}` }).click()
  await row.getByText('دارد', { exact: true }).waitFor()
  await shot(lead.page, 'admin-staff-operations')

  // The grant reaches the session within its cache's lifetime (10 s): read again until it does.
  const binds = other.page.getByRole('table', { name: 'اتصال‌های SMPP' })
  const refused = other.page.getByText('شما دسترسی پایش عملیات ندارید')
  for (let i = 0; i < 30; i++) {
    await other.page.reload()
    await binds.or(refused).first().waitFor()
    if (await binds.isVisible()) break
    await other.page.waitForTimeout(1000)
  }
  await binds.getByText('متصل', { exact: true }).first().waitFor()
  // The menu reads the grant from /admin/me, whose session cache may still hold the
  // old role on the reload that first showed the page: read again until it offers it.
  for (let i = 0; i < 30 && !(await menuEntry.isVisible()); i++) {
    await other.page.reload()
    await binds.or(refused).first().waitFor()
    await other.page.waitForTimeout(1000)
  }
  await menuEntry.waitFor() // the menu offers it now
  await other.context.close()
  await lead.context.close()
})
