// Targeted sends: on /send-sms/map the demo account goes to Tehran province, draws a circle,
// watches the live count change as a second circle replaces it, and sends to it; the success
// page follows; a saved map draft resumes with its circle, count and random count. Screens
// of the audience step in light and dark, desktop and mobile.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, MOBILE, PANEL_URL, apiCall, apiToken, launch, latinDigits, openPage, shot, signInWithToken, waitForPath } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

/** Draws a circle with Geoman: its button, a click at the centre, a click at the rim. The rim
 * is clicked once two frames have passed after the last move, so that the map has drawn it.
 * (Once, under make test's load, a circle meant to be 170 px showed about 105 px and held too
 * few numbers; the cause was not found, and the failure did not come back under three busy
 * loops with or without the wait.) */
async function drawCircle(page, dx, dy, r) {
  const box = await page.getByTestId('bank-map').boundingBox()
  const cx = box.x + box.width / 2 + dx
  const cy = box.y + box.height / 2 + dy
  await page.locator('.leaflet-pm-icon-circle').click()
  await page.mouse.click(cx, cy)
  await page.mouse.move(cx + r / 2, cy, { steps: 4 })
  await page.mouse.move(cx + r, cy, { steps: 4 })
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
  await page.mouse.click(cx + r, cy)
}

const total = async (page) => Number(latinDigits((await page.getByTestId('bank-total').textContent()) ?? '').replace(/\D/g, ''))

test('map: draw a circle, see the count change, send to it', { timeout: 240_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const { context, page } = await openPage(browser)
  page.on('console', (m) => { if (m.type() === 'error') console.log('console:', m.text()) })
  await signInWithToken(page, token, '/send-sms/map')
  await page.getByTestId('targeted-map-step-0').waitFor()
  await page.locator('.leaflet-pm-icon-circle').waitFor()
  await page.getByTestId('bank-counts-idle').waitFor()

  await page.locator('#bank-map-focus').click()
  await page.getByRole('option', { name: /^تهران/ }).click()
  // The circles below are drawn in pixels: only once the map has flown to the province.
  await page.locator('[data-testid="bank-map"][data-focus]').waitFor({ timeout: 30_000 })

  await drawCircle(page, 0, 0, 60)
  await page.getByTestId('bank-total').waitFor({ timeout: 60_000 })
  await page.locator('[data-testid="bank-counts"][data-state="ready"]').waitFor({ timeout: 60_000 })
  const first = await total(page)
  const firstZoom = await page.getByTestId('bank-map').getAttribute('data-zoom')
  assert.ok(first > 0, `the circle holds numbers (${first})`)

  // A bigger circle replaces it: the count follows, past the 5,000 a send needs.
  await drawCircle(page, 0, 0, 170)
  await page.waitForFunction((n) => {
    const t = document.querySelector('[data-testid="bank-total"]')?.textContent ?? ''
    const v = Number(t.replace(/[۰-۹]/g, (c) => String(c.charCodeAt(0) - 0x06f0)).replace(/\D/g, ''))
    return v >= 5000 && v > n
  }, first, { timeout: 60_000, polling: 300 }).catch(async (err) => {
    const map = await page.getByTestId('bank-map').evaluate((el) => ({ ...el.dataset }))
    await shot(page, 'targeted-map-failed')
    throw new Error(`the count stayed at ${await total(page)} (the small circle: ${first} at zoom ${firstZoom}; map ${JSON.stringify(map)}): ${err.message}`)
  })
  const second = await total(page)
  assert.ok(second > first, `a bigger circle holds more numbers (${second} > ${first})`)
  await shot(page, 'targeted-map-desktop-light')
  await page.getByTestId('wizard-next').click()
  await page.getByTestId('targeted-map-step-1').waitFor()
  await page.getByTestId('message').locator('textarea').fill('حراج پاییزه فروشگاه ما در محله شما')
  await page.getByTestId('wizard-next').click()
  await page.getByTestId('targeted-map-step-2').waitFor()
  await page.getByTestId('price-quote').waitFor({ timeout: 60_000 })
  const recipients = Number(latinDigits((await page.getByTestId('quote-recipients').textContent()) ?? '').replace(/\D/g, ''))
  assert.ok(recipients >= 5000, `the quote reaches the circle's numbers (${recipients})`)
  assert.match(await page.getByTestId('quote-lists-note').textContent() ?? '', /روی شماره‌های بانک اعمال نمی‌شود/,
    'a bank quote says the account lists do not apply')
  await shot(page, 'targeted-map-review')
  await page.getByTestId('wizard-send').click()
  await waitForPath(page, /\/send-sms\/success-send\/[^/]+$/, 60_000)
  await page.getByTestId('send-success').waitFor()
  await context.close()
})

test('the other targeted wizards open with their pickers, light and dark, desktop and mobile', { timeout: 180_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  for (const [viewport, tag] of [[undefined, 'desktop'], [MOBILE, 'mobile']]) {
    const { context, page } = await openPage(browser, viewport)
    await signInWithToken(page, token, '/send-sms/city-province')
    await page.getByTestId('targeted-city_province-step-0').waitFor()
    await page.locator('#bank-provinces').click()
    await page.getByRole('option', { name: /^تهران/ }).click()
    await page.keyboard.press('Escape')
    await page.getByTestId('bank-total').waitFor({ timeout: 30_000 })
    assert.ok((await total(page)) >= 5000)
    await shot(page, `targeted-city-${tag}-light`)
    await page.evaluate(() => { localStorage.setItem('dark', '1'); document.documentElement.classList.add('dark') })
    await shot(page, `targeted-city-${tag}-dark`)
    for (const path of ['business', 'postalcode', 'tower-irancell']) {
      await page.goto(`${PANEL_URL}/send-sms/${path}`)
      await page.locator('[data-testid$="-step-0"]').waitFor()
      await shot(page, `targeted-${path}-${tag}`)
    }
    await context.close()
  }
})

test('map: a saved draft resumes with its circle and count', { timeout: 120_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const data = await apiCall('POST', '/user/draft',
    { type: 'map', text: 'حراج محله', target: { circle: { lat: 35.6892, lon: 51.389, radius: 4000 }, count: 5000 } }, token)
  const { context, page } = await openPage(browser)
  await signInWithToken(page, token, `/send-sms/map?draft=${data.id}`)
  await page.getByTestId('targeted-map-step-0').waitFor()
  await page.getByTestId('bank-total').waitFor({ timeout: 30_000 })
  assert.ok((await total(page)) > 0, 'the resumed circle is counted')
  await page.locator('[data-testid="bank-map"][data-shape="circle"]').waitFor({ timeout: 60_000 })
  assert.equal(latinDigits(await page.getByTestId('pick-count-input').inputValue()), '5000')
  await shot(page, 'targeted-map-draft')
  await context.close()
})
