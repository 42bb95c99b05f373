// Bulk sends from the panel against the real stack: a file upload with a throttled (visible)
// progress bar → pre-flight → send → live report; keyword and peer-to-peer texts arriving
// rendered at the simulator; a phonebook send; scheduling and cancelling, recurring
// campaigns; pause and stop on the report page.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import {
  API, DEMO, MOBILE, PANEL_URL, SIM_URL, apiCall, apiToken, jalaliInput, launch, openPage, randomMobile, shot, signInWithToken,
  toIntl, waitForPath,
} from './helpers.mjs'

let browser
let token
before(async () => {
  browser = await launch()
  token = await apiToken(DEMO.username, DEMO.password)
})
after(async () => { await browser?.close() })

const FINAL = ['done', 'stopped', 'failed']

/** Opens `path` signed in as demo; `dark` turns the dark theme on first. */
async function open(path, { viewport, dark = false } = {}) {
  const { context, page } = await openPage(browser, viewport)
  await page.goto(`${PANEL_URL}/login`)
  await page.evaluate((d) => (d ? localStorage.setItem('dark', 'true') : localStorage.removeItem('dark')), dark)
  await signInWithToken(page, token, path)
  return { context, page }
}

const numberOf = async (page, testId) => Number(await page.getByTestId(testId).getAttribute('data-value'))

/** What the report page shows: its status and the count of each segment. */
const shown = (page) =>
  page.evaluate(() => ({
    url: location.pathname,
    status: document.querySelector('[data-testid="report-header"] [data-testid="send-status"]')?.getAttribute('data-status'),
    stale: !!document.querySelector('[data-testid="report-stale"]'),
    segments: Object.fromEntries([...document.querySelectorAll('[data-testid^="seg-"]')].map((e) => [e.dataset.testid, e.dataset.value])),
  }))

/**
 * Waits for the report page to show every recipient in a final state and a final status.
 * On a timeout the failure names what the page shows and what the API answers for the
 * same send, so a slow page and a send that never closed can be told apart.
 */
async function waitReportFinal(page, total) {
  try {
    await page.waitForFunction(({ final }) => {
      const v = (k) => Number(document.querySelector(`[data-testid="seg-${k}"]`)?.getAttribute('data-value') ?? -1)
      const status = document.querySelector('[data-testid="report-header"] [data-testid="send-status"]')?.getAttribute('data-status')
      return v('pending') === 0 && v('inflight') === 0 && final.includes(status ?? '')
    }, { final: FINAL }, { timeout: 150_000, polling: 500 })
  } catch (err) {
    const page_ = await shown(page).catch((e) => String(e))
    const id = page.url().split('/').pop()
    const api = await apiCall('GET', `/report/bulk_stats?id=${id}`, undefined, token).catch((e) => String(e))
    throw new Error(`${err.message}\npage: ${JSON.stringify(page_)}\napi: ${JSON.stringify(api)}`, { cause: err })
  }
  assert.equal(await page.getByTestId('send-progress').getAttribute('data-total'), String(total))
}

/** The newest text the simulator delivered to `local` (09…) after `since`, waiting for it. */
async function simText(local, since, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const res = await fetch(`${SIM_URL}/messages/latest?to=${toIntl(local)}`).catch(() => null)
    const body = res?.ok ? await res.json().catch(() => null) : null
    const msg = body?.data ?? body
    const at = Date.parse(msg?.last_submit ?? msg?.first_submit ?? '') || 0
    if (msg?.text && at >= since) return String(msg.text)
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error(`no message for ${local} from the simulator`)
}

async function uploadViaApi(name, content, purpose = 'send') {
  const form = new FormData()
  form.append('file', new Blob([content]), name)
  form.append('purpose', purpose)
  const res = await fetch(`${API}/user/files`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form })
  const json = await res.json()
  assert.equal(res.status, 201, JSON.stringify(json.meta))
  for (let i = 0; i < 120; i++) {
    const f = await apiCall('GET', `/user/files/${json.data.id}`, undefined, token)
    if (f.status !== 'parsing') return f
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error('file did not parse')
}

/** Step 2 of a text wizard: the text, then «مرحله بعد» to the review with its price. */
async function textThenReview(page, kind, text) {
  await page.getByTestId(`${kind}-step-1`).waitFor()
  await page.getByTestId('message').locator('textarea').fill(text)
  await page.getByTestId('wizard-next').click()
  await page.getByTestId(`${kind}-step-2`).waitFor()
  await page.getByTestId('price-quote').waitFor()
}

test('file: upload with progress → pre-flight → send → live report', { timeout: 240_000 }, async () => {
  const [a, b, c, bl] = [randomMobile(), randomMobile(), randomMobile(), randomMobile()]
  await apiCall('POST', '/phonebooks/blacklist', { numbers: [bl], kind: 'send' }, token)
  // Six rows: three good numbers, a duplicate, a malformed number and a blacklisted one. A wide
  // third column makes the file big enough for a throttled upload to show its progress.
  const pad = 'x'.repeat(12_000)
  const csv = ['شماره موبایل,نام,توضیحات', ...[a, b, c, a, '0912123', bl].map((n, i) => `${n},مشتری ${i + 1},${pad}`)].join('\n')
  const bytes = Buffer.from(csv)

  const { context, page } = await open('/send-sms')
  await page.getByTestId('method-file').click()
  await waitForPath(page, /\/send-sms\/file$/)
  await page.getByTestId('file-step-0').waitFor()
  await page.locator('[data-testid^="sender-"] input:checked').waitFor({ state: 'attached' })

  const cdp = await context.newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 20 * 1024 })
  // Every value the progress bar renders is recorded in the page as it happens (not sampled
  // from here, which a busy machine can make miss the whole upload).
  await page.evaluate(() => {
    window.__uploadLoaded = []
    new MutationObserver(() => {
      const v = document.querySelector('[data-testid="upload-progress"]')?.getAttribute('data-loaded')
      if (v != null && window.__uploadLoaded.at(-1) !== v) window.__uploadLoaded.push(v)
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-loaded'] })
  })
  await page.getByTestId('file-input').setInputFiles({ name: 'numbers.csv', mimeType: 'text/csv', buffer: bytes })
  const partway = (total) => window.__uploadLoaded.some((v) => Number(v) > 0 && Number(v) < total)
  await page.waitForFunction(partway, bytes.length, { timeout: 60_000 })
  await shot(page, 'bulk-file-uploading')
  await page.getByTestId('upload-progress').waitFor({ state: 'detached', timeout: 120_000 })
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
  const seen = new Set((await page.evaluate(() => window.__uploadLoaded)).map(Number).filter((v) => v > 0 && v < bytes.length))
  assert.ok(seen.size >= 2, `the progress bar moved through intermediate values (saw ${[...seen].join(', ')})`)

  await page.getByTestId('preflight').waitFor({ timeout: 60_000 })
  assert.equal(await numberOf(page, 'preflight-records'), 6)
  assert.equal(await numberOf(page, 'preflight-valid'), 4)
  assert.equal(await numberOf(page, 'preflight-invalid'), 1)
  assert.equal(await numberOf(page, 'preflight-duplicates'), 1)
  assert.equal(await numberOf(page, 'preflight-blacklisted'), 1)
  assert.equal(await numberOf(page, 'preflight-sendable'), 3)
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('errors-download').click()])
  assert.match(download.suggestedFilename(), /\.xlsx$/)
  await shot(page, 'bulk-file-preflight')
  await page.getByTestId('wizard-next').click()

  await textThenReview(page, 'file', 'سلام، این یک ارسال آزمایشی از فایل است.')
  assert.equal(await page.getByTestId('quote-recipients').textContent(), '۳')
  await page.getByTestId('quote-operators').waitFor()
  await shot(page, 'bulk-file-review')
  const since = Date.now()
  await page.getByTestId('wizard-send').click()

  await waitForPath(page, /\/send-sms\/success-send\/[^/]+$/)
  await page.getByTestId('goto-report').click()
  await waitForPath(page, /\/reports\/[^/]+$/)
  // The blacklisted number is a recipient of the report with status «لیست سیاه», not charged.
  await waitReportFinal(page, 4)
  assert.equal(await numberOf(page, 'seg-blacklisted'), 1)
  for (const n of [a, b, c]) assert.match(await simText(n, since), /ارسال آزمایشی از فایل/)
  await shot(page, 'bulk-file-report')
  await context.close()
})

test('keyword (mobile, dark): column tags arrive rendered per row', { timeout: 180_000 }, async () => {
  const rows = [[randomMobile(), 'زهرا'], [randomMobile(), 'کامران']]
  const csv = ['شماره موبایل,نام', ...rows.map((r) => r.join(','))].join('\n')
  const { context, page } = await open('/send-sms/keyword', { viewport: MOBILE, dark: true })
  await page.getByTestId('keyword-step-0').waitFor()
  await page.locator('[data-testid^="sender-"] input:checked').waitFor({ state: 'attached' })
  await page.getByTestId('file-input').setInputFiles({ name: 'names.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
  await page.getByTestId('preflight').waitFor({ timeout: 60_000 })
  assert.equal(await numberOf(page, 'preflight-sendable'), 2)
  await shot(page, 'bulk-keyword-mobile-dark-1')
  await page.getByTestId('wizard-next').click()

  await page.getByTestId('keyword-step-1').waitFor()
  const editor = page.getByTestId('message').locator('textarea')
  await editor.fill('سلام ')
  await editor.press('End')
  await page.getByRole('button', { name: 'درج برچسب ex_B' }).click()
  await editor.press('End')
  await editor.type(' عزیز، خوش آمدید.')
  assert.equal(await editor.inputValue(), 'سلام {ex_B} عزیز، خوش آمدید.')
  await shot(page, 'bulk-keyword-mobile-dark-2')
  await page.getByTestId('wizard-next').click()

  await page.getByTestId('keyword-step-2').waitFor()
  assert.match(await page.getByTestId('review-text').textContent(), /سلام «نام» عزیز/)
  await page.getByTestId('price-quote').waitFor()
  await shot(page, 'bulk-keyword-mobile-dark-3')
  const since = Date.now()
  await page.getByTestId('wizard-send').click()
  await waitForPath(page, /\/send-sms\/success-send\/[^/]+$/)
  for (const [n, name] of rows) assert.match(await simText(n, since), new RegExp(`^سلام ${name} عزیز، خوش آمدید\\.`))
  await context.close()
})

test('peer-to-peer (dark): the sample file downloaded and sent, each row its own text', { timeout: 180_000 }, async () => {
  const { context, page } = await open('/send-sms/peer-to-peer', { dark: true })
  await page.getByTestId('peer_to_peer-step-0').waitFor()
  await page.locator('[data-testid^="sender-"] input:checked').waitFor({ state: 'attached' })
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('sample-download').click()])
  const sample = await download.path()
  await page.getByTestId('file-input').setInputFiles({ name: 'p2p.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: readFileSync(sample) })
  await page.getByTestId('preflight').waitFor({ timeout: 60_000 })
  assert.equal(await numberOf(page, 'preflight-sendable'), 2)
  await page.getByTestId('wizard-next').click()

  await page.getByTestId('peer_to_peer-step-1').waitFor()
  assert.equal(await page.getByTestId('message').count(), 0, 'no text editor for peer-to-peer')
  await page.getByTestId('price-quote').waitFor()
  await shot(page, 'bulk-p2p-dark-settings')
  await page.getByTestId('wizard-next').click()
  await page.getByTestId('peer_to_peer-step-2').waitFor()
  await page.getByTestId('price-quote').waitFor()
  const since = Date.now()
  await page.getByTestId('wizard-send').click()
  await waitForPath(page, /\/send-sms\/success-send\/[^/]+$/)
  assert.match(await simText('09121234567', since), /سلام علی عزیز، سفارش شما ارسال شد\./)
  assert.match(await simText('09351234567', since), /سلام مریم عزیز، سفارش شما آماده تحویل است\./)
  await context.close()
})

test('phonebook: choose a phonebook, see its counts, send, report goes final', { timeout: 180_000 }, async () => {
  const name = `دفترچه آزمایشی ${Date.now() % 100000}`
  const book = await apiCall('POST', '/phonebooks', { name }, token)
  const numbers = [randomMobile(), randomMobile()]
  await apiCall('POST', '/phonebooks/numbers/add-list-new', { phonebook_id: book.id, contacts: numbers.map((number) => ({ number })) }, token)

  const { context, page } = await open('/send-sms/phonebook')
  await page.getByTestId('phonebook-step-0').waitFor()
  await page.locator('[data-testid^="sender-"] input:checked').waitFor({ state: 'attached' })
  await page.getByTestId('wizard-next').click()
  await page.getByText('لطفا دفترچه تلفن را انتخاب کنید').first().waitFor()
  await page.getByTestId('phonebooks').getByRole('combobox').click()
  await page.getByRole('option', { name }).click()
  await page.keyboard.press('Escape')
  await page.getByTestId('phonebook-count').waitFor()
  assert.equal(await page.getByTestId('phonebook-recipients').textContent(), '۲')
  await shot(page, 'bulk-phonebook-1')
  await page.getByTestId('wizard-next').click()
  await textThenReview(page, 'phonebook', 'سلام از دفترچه تلفن')
  assert.equal(await page.getByTestId('quote-recipients').textContent(), '۲')
  await page.getByTestId('wizard-send').click()
  await waitForPath(page, /\/send-sms\/success-send\/[^/]+$/)
  await page.getByTestId('goto-report').click()
  await waitReportFinal(page, 2)
  await context.close()
})

test('scheduling: a later send is listed and cancelled with a full refund; a recurring campaign is made, paused and deleted', { timeout: 180_000 }, async () => {
  // A phonebook send scheduled for tomorrow.
  const name = `زمان‌بندی ${Date.now() % 100000}`
  const book = await apiCall('POST', '/phonebooks', { name }, token)
  await apiCall('POST', '/phonebooks/numbers/add-list-new', { phonebook_id: book.id, contacts: [{ number: randomMobile() }] }, token)
  const { context, page } = await open('/send-sms/phonebook')
  await page.getByTestId('phonebook-step-0').waitFor()
  await page.locator('[data-testid^="sender-"] input:checked').waitFor({ state: 'attached' })
  // «گروه جدید» inside the picker: the new phonebook is selected 1000 ms after it is made (spec §9).
  const fresh = `تازه ${Date.now() % 100000}`
  await page.getByTestId('new-phonebook').click()
  await page.getByTestId('new-phonebook-name').fill(fresh)
  const madeAt = Date.now()
  await page.getByRole('button', { name: 'ساخت گروه' }).click()
  await page.getByTestId('phonebooks').getByText(fresh).waitFor()
  assert.ok(Date.now() - madeAt >= 950, `selected ${Date.now() - madeAt} ms after the click`)
  await page.getByTestId('phonebooks').getByRole('combobox').click()
  await page.getByRole('option', { name }).click()
  await page.keyboard.press('Escape')
  await page.getByTestId('wizard-next').click()
  await page.getByTestId('phonebook-step-1').waitFor()
  await page.getByTestId('message').locator('textarea').fill('یادآوری فردا')
  await page.getByTestId('schedule-later').click()
  const at = new Date(Date.now() + 86_400_000)
  const input = page.getByTestId('send-at').locator('input')
  await input.fill(jalaliInput(at))
  await input.press('Enter')
  await shot(page, 'bulk-schedule-step')
  await page.getByTestId('wizard-next').click()
  await page.getByTestId('price-quote').waitFor()
  await page.getByTestId('wizard-send').click()
  await waitForPath(page, /\/send-sms\/success-send\/[^/]+$/)
  const sendId = page.url().split('/').pop()
  const held = await apiCall('GET', `/report/bulk_stats?id=${sendId}`, undefined, token)
  assert.equal(held.status, 'scheduled')
  // «ارسال جدید» goes back to the method used.
  assert.equal(await page.getByTestId('new-send').getAttribute('href'), '/send-sms/phonebook')

  await page.goto(`${PANEL_URL}/send-sms`)
  await page.getByTestId('goto-campaigns').click()
  await waitForPath(page, /\/send-sms\/campaigns$/)
  await page.getByTestId(`scheduled-cancel-${sendId}`).waitFor()
  await shot(page, 'bulk-campaigns-scheduled')
  await page.getByTestId(`scheduled-cancel-${sendId}`).click()
  await page.getByTestId('scheduled-cancel-confirm').click()
  await page.getByTestId(`scheduled-cancel-${sendId}`).waitFor({ state: 'detached' })
  const cancelled = await apiCall('GET', `/report/bulk_stats?id=${sendId}`, undefined, token)
  assert.equal(cancelled.status, 'stopped')
  assert.equal(cancelled.refunded, cancelled.price, 'the whole price came back')

  // A weekly recurring campaign to typed numbers.
  await page.getByTestId('campaigns-tab-1').click()
  await page.getByTestId('campaign-new').click()
  await page.getByTestId('campaign-form').waitFor()
  const title = `خبرنامه ${Date.now() % 100000}`
  await page.getByTestId('campaign-title').fill(title)
  await page.getByRole('combobox', { name: 'خط ارسال' }).click()
  await page.getByRole('option').first().click()
  const phone = page.getByTestId('campaign-form').locator('input[type="tel"]')
  await phone.fill(randomMobile())
  await phone.press('Enter')
  await page.getByTestId('campaign-form').getByRole('textbox', { name: 'متن پیامک' }).fill('خبر تازه هفته')
  await page.getByTestId('campaign-kind-weekly').click()
  await page.getByRole('button', { name: 'شنبه', exact: true }).click()
  await page.getByRole('button', { name: 'چهارشنبه' }).click()
  await shot(page, 'bulk-campaign-form')
  await page.getByTestId('campaign-save').click()
  const row = page.getByRole('row', { name: new RegExp(title) })
  await row.waitFor()
  assert.match(await row.textContent(), /هر هفته شنبه و چهارشنبه ساعت ۰۹:۰۰/)
  const list = await apiCall('GET', '/send/campaigns?page=1&limit=50', undefined, token)
  const created = list.find((c) => c.title === title)
  assert.ok(created?.enabled && created.next_run_at, 'enabled with a next run')
  await shot(page, 'bulk-campaigns-recurring')
  // The rest on a phone: the rows become cards with the same controls.
  await page.setViewportSize(MOBILE)
  await page.getByTestId(`campaign-toggle-${created.id}`).waitFor()
  await shot(page, 'bulk-campaigns-mobile')
  await page.getByTestId(`campaign-toggle-${created.id}`).click()
  await page.waitForFunction(async ({ api, t, id }) => {
    const res = await fetch(`${api}/send/campaigns?page=1&limit=50`, { headers: { Authorization: `Bearer ${t}` } })
    return (await res.json()).data.find((c) => c.id === id)?.enabled === false
  }, { api: API, t: token, id: created.id }, { timeout: 60_000, polling: 300 })
  await page.getByTestId(`campaign-delete-${created.id}`).click()
  await page.getByTestId('campaign-delete-confirm').click()
  await page.getByTestId(`campaign-toggle-${created.id}`).waitFor({ state: 'detached' })
  await context.close()
})

/** Sets the simulated carrier's conditions for every operator ({} clears them). */
async function carrier(conditions) {
  const res = await fetch(`${SIM_URL}/control/carrier`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ operator: '*', ...conditions }),
  })
  assert.equal(res.status, 200, `simulator conditions: ${await res.text()}`)
}

test('report: pause holds the progress, the history names who paused, stop refunds the rest', { timeout: 180_000 }, async (t) => {
  // The carrier accepts 10 submit_sm a second per operator during this test, so the
  // 3,000 recipients take minutes and the send is still running when the pause button
  // is clicked, however fast or slow the machine. (At 100 a second they were all sent in
  // about 10 s; on a CI machine busy with the Go tests the page took longer than that to
  // take the first click, and the button left the page with the finished send.)
  await carrier({ rate: 10 })
  t.after(() => carrier({}))
  const numbers = Array.from({ length: 3000 }, () => randomMobile())
  const file = await uploadViaApi('many.csv', ['mobile', ...numbers].join('\n'))
  assert.equal(file.status, 'ready')
  const lines = await apiCall('GET', '/number/numbers', undefined, token)
  const service = lines.find((l) => l.kind === 'service')
  const sent = await apiCall('POST', '/send', { type: 'file', file_id: file.id, sender: service.number, text: 'ارسال انبوه آزمایشی', cancel11: false }, token)

  const { context, page } = await open(`/reports/${sent.id}`)
  await page.getByTestId('send-progress').waitFor()
  // make test runs the Go tests beside this browser: on two busy cores the first click
  // on a page taking live updates has waited over 15 s to scroll the button into view.
  await page.getByTestId('pause-send').click({ timeout: 60_000 })
  await page.getByTestId('pause-confirm').click({ timeout: 30_000 })
  const header = page.getByTestId('report-header')
  await header.locator('[data-testid="send-status"][data-status="paused"]').waitFor({ timeout: 60_000 })
  await page.getByTestId('resume-send').waitFor()
  await page.getByTestId('controls-history').waitFor()
  const entry = page.getByTestId('control-entry').first()
  assert.equal(await entry.getAttribute('data-action'), 'pause')
  assert.match(await entry.textContent(), /توقف موقت/)
  // While paused, nothing more is submitted once the grants in hand are used
  // (receipts of what was already sent may still land, so read the sent count).
  // The grants in hand (at least 16 recipients a handler, at 10 a second) are used
  // when the count has stood still over three reads 2 s apart: a busy machine only
  // makes that take longer (the deadline is a safety net), never pass early.
  const sentNow = async () => (await apiCall('GET', `/report/bulk_stats?id=${sent.id}`, undefined, token)).sent
  let before = await sentNow()
  for (let still = 0, deadline = Date.now() + 120_000; still < 3;) {
    assert.ok(Date.now() < deadline, `the sent count kept moving after the pause (now ${before})`)
    await page.waitForTimeout(2000)
    const now = await sentNow()
    still = now === before ? still + 1 : 0
    before = now
  }
  await page.waitForTimeout(3000)
  const held = await apiCall('GET', `/report/bulk_stats?id=${sent.id}`, undefined, token)
  assert.equal(held.sent, before, 'nothing is submitted while paused')
  assert.ok(held.sent < held.recipients, 'paused before the end')
  await shot(page, 'bulk-report-paused')

  // A refresh the API fails keeps the report and its controls on screen, with a note.
  await page.route('**/report/bulk_stats**', (route) => route.fulfill({
    status: 503, contentType: 'application/json', body: JSON.stringify({ data: null, meta: { status: 503, message: 'unavailable' } }),
  }))
  await header.getByRole('button', { name: 'به‌روزرسانی' }).click()
  await page.getByTestId('report-stale').waitFor()
  assert.ok(await page.getByTestId('resume-send').isVisible(), 'the controls stay while a refresh fails')
  await page.unroute('**/report/bulk_stats**')
  await header.getByRole('button', { name: 'به‌روزرسانی' }).click()
  await page.getByTestId('report-stale').waitFor({ state: 'detached' })

  await page.getByTestId('stop-send').click()
  await page.getByTestId('stop-confirm').click()
  await header.locator('[data-testid="send-status"][data-status="stopped"]').waitFor({ timeout: 60_000 })
  const stats = await apiCall('GET', `/report/bulk_stats?id=${sent.id}`, undefined, token)
  assert.ok(stats.refunded > 0, 'the unsent recipients were refunded')
  // The recipients the stop left unsent are their own «متوقف‌شده» segment, out of «نرسیده».
  assert.ok(stats.stopped > 0 && stats.stopped <= stats.rejected, `stopped ${stats.stopped}, rejected ${stats.rejected}`)
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid="seg-stopped"]')?.getAttribute('data-value')) === n,
    stats.stopped, { timeout: 60_000 })
  assert.match(await page.getByTestId('seg-stopped').innerText(), /متوقف‌شده/)
  await page.getByTestId('control-entry').nth(1).waitFor()
  assert.equal(await page.getByTestId('control-entry').nth(1).getAttribute('data-action'), 'stop')
  await shot(page, 'bulk-report-stopped')
  await context.close()
})
