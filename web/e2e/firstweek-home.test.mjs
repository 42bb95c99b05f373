// Issue 40, a customer's first week at home: a new account's dashboard shows the
// «اولین قدم‌ها» checklist (none ticked) with the panel's own shortcuts and the top-up
// form shows the Toman equivalent and the messages the amount buys; in the inbox a
// message that arrives raises the menu's unread badge live, a reply marks it
// «پاسخ داده شد» and the conversation with the number shows both in time order.
// Screenshots: light and dark, desktop and 390 px.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import {
  DEMO, SIM_URL, apiCall, apiToken, latinDigits, launch, openPage, randomDigits, randomMobile, readOtp, shot,
  signInWithToken, toIntl,
  themeShots,
} from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

const LINE = '500012345' // the demo account's line (make run / the e2e stack)

/** A new account, signed up and logged in through the API (codes read at the simulator). */
async function newAccount() {
  const user = { username: `fw${randomDigits(8)}`, mobile: randomMobile(), password: `Pw${randomDigits(6)}x@A` }
  const intl = toIntl(user.mobile)
  let started = Date.now() - 2000
  const reg = await apiCall('POST', '/user/register', {
    name: 'مشتری تازه', username: user.username, mobile: user.mobile, password: user.password,
    password_confirmation: user.password, accept_rules: true,
  })
  const first = await readOtp(intl, { after: started })
  await apiCall('POST', '/user/register/verify', { verify_token: reg.verify_token, code: first })
  started = Date.now() - 2000
  const login = await apiCall('POST', '/acl/auth/login', { username: user.username, password: user.password })
  if (login.token) return { ...user, token: login.token }
  let code = await readOtp(intl, { after: started })
  for (let i = 0; code === first && i < 60; i++) {
    await new Promise((r) => setTimeout(r, 500))
    code = await readOtp(intl, { after: started })
  }
  const ok = await apiCall('POST', '/acl/auth/confirm_otp', { login_token: login.login_token, code })
  return { ...user, token: ok.token }
}

/** The last message the simulator delivered to a number (98…), once there is one. */
async function handset(intl, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const res = await fetch(`${SIM_URL}/messages/latest?to=${intl}`).catch(() => null)
    if (res?.ok) {
      const body = await res.json()
      return (body?.data ?? body).text
    }
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error(`no message for ${intl}`)
}

test('a new account: the first steps on the dashboard and the Toman line of the top-up form', { timeout: 240_000 }, async () => {
  const user = await newAccount()
  const steps = await apiCall('GET', '/panel/first-steps', undefined, user.token)
  assert.deepEqual(steps.steps.map((s) => [s.key, s.done]), [['credit', false], ['line', false], ['test', false], ['phonebook', false]])

  const { context, page } = await openPage(browser)
  page.setDefaultTimeout(40_000)
  await signInWithToken(page, user.token, '/dashboard')
  const card = page.getByTestId('first-steps')
  await card.waitFor()
  await card.getByText('اولین قدم‌ها').waitFor()
  await page.getByTestId('first-steps-count').getByText('۰ از ۴').waitFor()
  for (const key of ['credit', 'line', 'test', 'phonebook']) {
    assert.equal(await page.getByTestId(`first-step-${key}`).getAttribute('data-done'), 'false')
  }
  // The empty boxes offer something to do. Quick access and news are the platform's (staff
  // publish them; another test may have): the empty states are checked while there are none.
  const board = await apiCall('GET', '/content/dashboard', undefined, user.token)
  if (!board.quick_access?.length) await page.getByTestId('quick-access-defaults').getByText('ارسال سریع').waitFor()
  if (!board.news?.length) await page.getByTestId('dashboard-news').getByText('هنوز خبری منتشر نشده است').waitFor()
  await themeShots(page, 'firstweek-home-dashboard', card)

  // The test send starts at the quick send with the owner's own mobile.
  await page.getByTestId('first-step-test').getByRole('link', { name: 'ارسال آزمایشی' }).click()
  await page.waitForURL((u) => u.pathname === '/send-sms/quick' && u.searchParams.get('to') === user.mobile)
  // The one-page quick send starts with that number, counted as one valid recipient.
  await page.locator('[data-testid="numbers-valid"][data-count="1"]').waitFor()
  assert.ok((await page.getByTestId('numbers-box').inputValue()).includes(user.mobile))

  await page.goto(page.url().replace(/\/send-sms\/quick.*$/, '/wallet/credit'))
  await page.getByTestId('online-payment').waitFor()
  await page.getByTestId('amount').fill('۲۰۰۰۰۰۰')
  await page.getByTestId('amount-toman').getByText('۲۰۰٬۰۰۰ تومان').waitFor()
  await page.getByTestId('total-toman').getByText('۲۲۰٬۰۰۰ تومان').waitFor()
  const sms = await page.getByTestId('amount-sms').innerText()
  assert.match(sms, /^حدود [۰-۹٬]+( تا [۰-۹٬]+)? پیامک یک‌بخشی$/)
  // The count is the amount over the account's one-part prices (GET /user/get_tariff).
  const tariff = await apiCall('GET', '/user/get_tariff', undefined, user.token)
  const prices = tariff.operators.map((o) => o.encodings[0].one_part)
  const most = Math.floor(2_000_000 / Math.min(...prices))
  assert.ok(latinDigits(sms).replace(/٬/g, '').includes(String(most)), `${sms} lacks ${most}`)
  await themeShots(page, 'firstweek-home-wallet', page.getByTestId('payment-summary'))
  await context.close()
})

test('inbox: the unread badge rises live, a reply marks the message and the conversation shows both', { timeout: 240_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  // Start from no unread messages, so the badge's appearance is this message's.
  for (let i = 0; i < 50; i++) {
    const unread = await apiCall('GET', '/report/messages-inbox?status=unread&limit=200', undefined, token)
    const ids = (unread.rows ?? unread).map((m) => m.id)
    if (!ids.length) break
    await apiCall('POST', '/report/messages-inbox/read', { ids }, token)
  }
  const { context, page } = await openPage(browser)
  page.setDefaultTimeout(40_000)
  let answered
  const registered = new Promise((resolve) => { answered = resolve })
  page.on('websocket', (ws) => ws.on('framereceived', (f) => { if (String(f.payload).trim() === '9') answered() }))
  await signInWithToken(page, token, '/dashboard')
  await page.getByRole('navigation', { name: 'منوی اصلی' }).first().waitFor()
  let timer
  await Promise.race([registered, new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('the live socket answered no ping in 60 s')), 60_000)
  })]).finally(() => clearTimeout(timer))
  assert.equal(await page.getByTestId('menu-inbox-unread').count(), 0)

  const from = `98912${randomDigits(7)}`
  const text = `سلام، قیمت بسته ${randomDigits(4)} چند است؟`
  const res = await fetch(`${SIM_URL}/mo`, { method: 'POST', body: JSON.stringify({ operator: 'mci', from, to: LINE, text }) })
  assert.equal(res.status, 202)
  // No reload: the live inbox.received event raises the badge.
  await page.getByTestId('menu-inbox-unread').getByText('۱', { exact: true }).waitFor({ timeout: 60_000 })
  await shot(page, 'firstweek-home-badge')

  await page.getByTestId('menu-inbox-unread').click()
  const row = page.getByRole('row').filter({ hasText: text })
  await row.getByText('تازه').waitFor()
  await row.getByRole('button', { name: 'پاسخ' }).click()
  await page.getByTestId('inbox-reply-text').fill('بسته پایه ۵۰۰ هزار تومان است')
  await page.getByTestId('inbox-reply-send').click()
  await page.getByText('پاسخ ارسال شد').waitFor()
  await row.getByTestId('inbox-replied').getByText('پاسخ داده شد').waitFor()
  await row.getByText('تازه').waitFor({ state: 'detached' })
  await page.getByTestId('menu-inbox-unread').waitFor({ state: 'detached' })
  assert.equal(await handset(from), 'بسته پایه ۵۰۰ هزار تومان است')

  const openThread = async () => {
    await row.getByRole('button', { name: 'گفتگو' }).click()
    await thread.getByText(text).waitFor()
  }
  const thread = page.getByTestId('inbox-thread')
  await openThread()
  await thread.getByText('بسته پایه ۵۰۰ هزار تومان است').waitFor()
  const order = await thread.locator('[data-testid^="thread-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')))
  assert.deepEqual(order.slice(-2), ['thread-in', 'thread-out'])
  // Jalali times: a Persian year (۱۴…) in the entry's caption.
  assert.match(await thread.locator('[data-testid="thread-in"]').last().innerText(), /۱۴[۰-۹]{2}/)
  await themeShots(page, 'firstweek-home-thread', thread, openThread)
  await page.keyboard.press('Escape')
  await themeShots(page, 'firstweek-home-inbox', page.getByText(text).first())
  await context.close()
})
