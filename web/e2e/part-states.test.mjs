// A 4-part message whose parts 3 and 4 the carrier refuses for one number
// (SIM_SUBMIT_FAULTS in scripts/e2e.sh): the report shows that recipient's parts
// one by one, counts it as partial, and refunds the refused parts.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, MOBILE, apiCall, apiToken, launch, openPage, randomMobile, shot, signInWithToken } from './helpers.mjs'

const CUT = '09121130003' // parts 3 and 4 refused by the simulator

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

test('report: per-part states of a partly refused recipient', { timeout: 180_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const text = 'x'.repeat(153 * 3 + 10)
  const sent = await apiCall('POST', '/send', { text, numbers: [CUT, randomMobile()] }, token)
  const deadline = Date.now() + 120_000
  let stats
  while (Date.now() < deadline) {
    stats = await apiCall('GET', `/report/bulk_stats?id=${sent.id}`, undefined, token)
    if (stats?.status === 'done' && stats.pending === 0) break
    await new Promise((r) => setTimeout(r, 1000))
  }
  assert.equal(stats?.status, 'done', `send did not finish: ${JSON.stringify(stats)}`)
  assert.equal(stats.partial, 1)
  assert.ok(stats.refunded > 0, 'the refused parts are refunded')

  const { context, page } = await openPage(browser)
  await signInWithToken(page, token, `/reports/${sent.id}`)
  const cell = page.locator('[data-testid="part-states"][data-partial="true"]')
  await cell.first().waitFor()
  const label = await cell.first().locator('[role="img"]').getAttribute('aria-label')
  assert.match(label ?? '', /ردشده/)
  await cell.first().scrollIntoViewIfNeeded()
  await shot(page, 'report-part-states')
  await context.close()

  const m = await openPage(browser, MOBILE)
  await signInWithToken(m.page, token, `/reports/${sent.id}`)
  await m.page.locator('[data-testid="part-states"]').first().waitFor()
  await m.page.locator('[data-testid="part-states"]').first().scrollIntoViewIfNeeded()
  await shot(m.page, 'report-part-states-mobile')
  await m.context.close()
})
