// The inbox against the real stack: a message injected at the simulator appears on
// the open page without a reload, is marked read, and is answered from the inbox
// (a quick send that reaches the sender's handset).
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, MOBILE, PANEL_URL, SIM_URL, apiToken, launch, openPage, randomDigits, shot, signInWithToken } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

const LINE = '500012345'

async function latest(to, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs
  while (Date.now() < end) {
    const res = await fetch(`${SIM_URL}/messages/latest?to=${to}`)
    if (res.ok) return (await res.json()).text
    await new Promise((r) => setTimeout(r, 300))
  }
  throw new Error(`no message at ${to}`)
}

test('a new message arrives live, is marked read and answered', { timeout: 180_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const { context, page } = await openPage(browser)
  page.setDefaultTimeout(40_000) // a busy machine: the lazy pages take their time
  // The live socket is registered at the server once the server answers a ping on it (the
  // hub registers a socket before it reads from it); any socket of the page counts, so a
  // reconnect on a busy machine is waited for too.
  let answered
  const registered = new Promise((resolve) => { answered = resolve })
  page.on('websocket', (ws) => ws.on('framereceived', (f) => { if (String(f.payload).trim() === '9') answered() }))
  await signInWithToken(page, token, '/inbox')
  await page.getByTestId('inbox-unread').waitFor()
  let timer
  await Promise.race([registered, new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('the live socket answered no ping in 60 s')), 60_000)
  })]).finally(() => clearTimeout(timer))
  const from = `98912${randomDigits(7)}`
  const text = `سلام از مشتری ${randomDigits(5)}`
  const res = await fetch(`${SIM_URL}/mo`, { method: 'POST', body: JSON.stringify({ operator: 'mci', from, to: LINE, text }) })
  assert.equal(res.status, 202)
  const row = page.getByRole('row').filter({ hasText: text })
  await row.waitFor({ timeout: 30_000 })
  await row.getByText('تازه').waitFor()
  await shot(page, 'inbox-live')

  await row.getByTestId('row-select').click()
  await page.getByTestId('inbox-mark-read').click()
  await row.getByText('تازه').waitFor({ state: 'detached' })

  await row.getByRole('button', { name: 'پاسخ' }).click()
  await page.getByTestId('inbox-reply-text').fill('پیام شما رسید، سپاس')
  await shot(page, 'inbox-reply')
  await page.getByTestId('inbox-reply-send').click()
  await page.getByText('پاسخ ارسال شد').waitFor()
  assert.equal(await latest(from), 'پیام شما رسید، سپاس')
  await context.close()

  const mobile = await openPage(browser, MOBILE)
  mobile.page.setDefaultTimeout(40_000)
  await mobile.page.goto(`${PANEL_URL}/login`)
  await mobile.page.evaluate(() => localStorage.setItem('dark', 'true'))
  await signInWithToken(mobile.page, token, '/inbox')
  await mobile.page.waitForFunction(() => document.documentElement.classList.contains('dark'))
  await mobile.page.getByText(text).first().waitFor()
  await shot(mobile.page, 'inbox-mobile-dark')
  await mobile.context.close()
})
