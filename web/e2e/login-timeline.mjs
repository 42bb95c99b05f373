// Probe (not part of the suite: run it by name) — login answer → layout → dashboard
// credit, in page time, over RUNS sign-ins (default 9): when the layout's first commit
// landed, when the credit's data was back, when the credit was on screen, and whether
// a Suspense loader («در حال بارگذاری») showed in between. Prints each run and the
// medians. `RUNS=9 bash scripts/e2e.sh e2e/login-timeline.mjs`
import { test } from 'node:test'
import { DEMO, PANEL_URL, launch, openPage } from './helpers.mjs'

const RUNS = Number(process.env.RUNS ?? 9)

/** One sign-in; times relative to the login answer's responseEnd. */
async function once(browser) {
  const { context, page } = await openPage(browser)
  await page.goto(`${PANEL_URL}/login`)
  await page.getByTestId('login-username').fill(DEMO.username)
  await page.getByTestId('login-password').fill(DEMO.password)
  await page.waitForTimeout(1500) // the layout and dashboard chunks load while typing
  await page.evaluate(() => {
    const t = (window.__probe = {})
    new MutationObserver(() => {
      const now = performance.now()
      if (!t.loader && document.body.innerText.includes('در حال بارگذاری')) t.loader = now
      if (!t.layout && document.querySelector('main')) t.layout = now
      if (!t.credit && document.querySelector('[data-testid="dashboard-credit"]')) t.credit = now
    }).observe(document.body, { childList: true, subtree: true })
  })
  await page.getByTestId('login-submit').click()
  await page.getByTestId('dashboard-credit').waitFor()
  const t = await page.evaluate(() => {
    const entry = (path) => performance.getEntriesByType('resource').find((e) => new URL(e.name).pathname.endsWith(path))
    const at = entry('/acl/auth/login').responseEnd // not /acl/auth/login_setting
    const rel = (x) => (x ? Math.round(x - at) : null)
    return { layout: rel(window.__probe.layout), loader: rel(window.__probe.loader), creditData: rel(entry('/payment/credit/mine')?.responseEnd), credit: rel(window.__probe.credit) }
  })
  await context.close()
  return t
}

test('login → dashboard timeline', { timeout: RUNS * 30_000 }, async () => {
  const browser = await launch()
  const rows = []
  for (let i = 0; i < RUNS; i++) {
    rows.push(await once(browser))
    console.log(JSON.stringify(rows.at(-1)))
  }
  await browser.close()
  const med = (k) => rows.map((r) => r[k]).filter((x) => x != null).sort((a, b) => a - b)[Math.floor(rows.length / 2)] ?? null
  console.log(`median: layout ${med('layout')} ms, credit data ${med('creditData')} ms, credit shown ${med('credit')} ms; loader shown in ${rows.filter((r) => r.loader != null).length} of ${rows.length}`)
})
