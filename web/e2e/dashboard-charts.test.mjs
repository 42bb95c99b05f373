// Dashboard charts and send analytics against the real stack: the demo account sends
// through the API (engine, gateway, simulator, receipts), two inbound messages arrive
// from the simulator, the worker's rollup job rolls them up, and the dashboard draws
// the charts with that data; the report page shows the send's analysis and the
// systemic tab the login codes (hidden). Screenshots: desktop and phone, light and dark.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, MOBILE, PANEL_URL, SIM_URL, apiCall, apiToken, launch, openPage, randomDigits, signInWithToken, toIntl } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

async function poll(fn, what, timeoutMs = 90_000) {
  const end = Date.now() + timeoutMs
  for (;;) {
    const v = await fn()
    if (v) return v
    if (Date.now() > end) assert.fail(`timed out: ${what}`)
    await sleep(1000)
  }
}

/** The number of drawn marks (bars, area and line paths) inside a chart. */
const marks = (page, id) => page.getByTestId(id).locator('.recharts-bar-rectangle path, .recharts-area-area, .recharts-line-curve').count()

test('a real send shows in the dashboard charts and the report analysis', { timeout: 300_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const before = await apiCall('GET', '/panel/dashboard_charts', undefined, token)
  const numbers = ['0912', '0935', '0921', '0912', '0935', '0919'].map((p) => `${p}${randomDigits(7)}`)
  const sent = await apiCall('POST', '/send', { type: 'quick', sender: '300012345', text: 'آزمایش نمودار پیشخوان', numbers }, token)
  await poll(async () => {
    const s = await apiCall('GET', `/report/bulk_stats?id=${sent.id}`, undefined, token)
    return ['done', 'stopped'].includes(s.status) && s.pending === 0 && s.delivered + s.undelivered >= s.sent && s.sent > 0
  }, 'the send to be final')
  for (const from of [numbers[0], numbers[1]]) {
    const res = await fetch(`${SIM_URL}/mo`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ operator: from.startsWith('0935') ? 'irancell' : 'mci', from: toIntl(from), to: '300012345', text: 'سلام' }) })
    assert.ok(res.ok, `inject MO: ${res.status}`)
  }
  // The worker rolls up every 30 s: the totals grow by this send and the two inbound messages.
  const after = await poll(async () => {
    const c = await apiCall('GET', '/panel/dashboard_charts', undefined, token)
    const t = c.totals
    return t.sends >= before.totals.sends + 1 && t.recipients >= before.totals.recipients + 6 && t.inbound >= before.totals.inbound + 2 &&
      t.delivered + t.undelivered >= before.totals.delivered + before.totals.undelivered + 6 ? c : null
  }, 'the rollups to include the send')
  assert.equal(after.days.length, 30)
  assert.ok(after.operators.length >= 2, 'operators')

  const { context, page } = await openPage(browser)
  await signInWithToken(page, token)
  await page.getByTestId('dashboard-charts').waitFor({ timeout: 60_000 }).catch(async (err) => {
    await page.screenshot({ path: '/tmp/dashboard-charts-failed.png', fullPage: true })
    throw err
  })
  for (const id of ['chart-sends', 'chart-operators', 'chart-spend', 'chart-inbound']) {
    await page.getByTestId(id).locator('.recharts-surface').first().waitFor()
    assert.ok((await marks(page, id)) > 0, `${id} draws no data`)
  }
  // Persian digits and Jalali month names on the axes; no Latin digit anywhere in a chart.
  const text = await page.getByTestId('chart-sends').innerText()
  assert.match(text, /(فروردین|اردیبهشت|خرداد|تیر|مرداد|شهریور|مهر|آبان|آذر|دی|بهمن|اسفند)/)
  assert.doesNotMatch(await page.getByTestId('dashboard-charts').innerText(), /[0-9]/)
  // The tooltip of today's bar names the day in Jalali with Persian digits.
  // The mouse goes over the bar's day in the plot (a short bar sits under the axis
  // line, which would take a hover aimed at the bar itself).
  const bars = page.getByTestId('chart-sends').locator('.recharts-bar-rectangle')
  await bars.last().scrollIntoViewIfNeeded()
  const bar = await bars.last().boundingBox()
  const plot = await page.getByTestId('chart-sends').locator('.recharts-wrapper').first().boundingBox()
  await page.mouse.move(plot.x + plot.width / 2, plot.y + plot.height / 3)
  await page.mouse.move(bar.x + bar.width / 2, plot.y + plot.height / 3, { steps: 5 })
  const tip = page.getByTestId('chart-sends').locator('.recharts-tooltip-wrapper')
  await poll(async () => /[۰-۹]/.test(await tip.innerText().catch(() => '')), 'the tooltip', 10_000)
  await page.getByTestId('dashboard-charts').scrollIntoViewIfNeeded()
  await page.getByTestId('dashboard-charts').screenshot({ path: '/tmp/dashboard-charts-light.png' })

  // The send's report: the analysis with its curve, operators and reasons.
  await page.goto(`${PANEL_URL}/reports/${sent.id}`)
  await page.getByTestId('send-analytics').waitFor()
  await page.getByTestId('chart-send-operators').locator('.recharts-surface').waitFor()
  assert.ok((await marks(page, 'chart-send-operators')) > 0, 'no operator bars')
  await page.getByTestId('send-analytics').screenshot({ path: '/tmp/report-analytics-light.png' })

  // Systemic tab: the demo account's login codes are not listed (two-step is off), the list renders.
  await page.goto(`${PANEL_URL}/reports?tab=1`)
  await page.getByRole('table', { name: 'پیامک‌های سیستمی' }).or(page.getByText('پیامک سیستمی‌ای در ۳۰ روز گذشته')).first().waitFor()
  await page.goto(`${PANEL_URL}/reports?tab=2`)
  await page.getByText(/ارسالی قدیمی‌تر از ۳۰ روز یافت نشد|بایگانی ارسال‌ها/).first().waitFor()

  // Dark mode.
  await page.evaluate(() => localStorage.setItem('dark', 'true'))
  await page.goto(`${PANEL_URL}/dashboard`)
  await page.getByTestId('dashboard-charts').waitFor()
  await page.getByTestId('chart-spend').locator('.recharts-area-area').first().waitFor()
  await page.getByTestId('dashboard-charts').screenshot({ path: '/tmp/dashboard-charts-dark.png' })
  await page.goto(`${PANEL_URL}/reports/${sent.id}`)
  await page.getByTestId('chart-send-operators').locator('.recharts-surface').waitFor()
  await page.getByTestId('send-analytics').screenshot({ path: '/tmp/report-analytics-dark.png' })
  await context.close()

  // A phone, light and dark: the charts fit the width.
  for (const dark of [false, true]) {
    const phone = await openPage(browser, MOBILE)
    await signInWithToken(phone.page, token)
    if (dark) {
      await phone.page.evaluate(() => localStorage.setItem('dark', 'true'))
      await phone.page.reload()
    }
    await phone.page.getByTestId('chart-inbound').locator('.recharts-surface').waitFor()
    await phone.page.getByTestId('dashboard-charts').screenshot({ path: `/tmp/dashboard-charts-mobile-${dark ? 'dark' : 'light'}.png` })
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    assert.ok(overflow <= 0, `the phone dashboard scrolls sideways by ${overflow} px`)
    await phone.context.close()
  }
})
