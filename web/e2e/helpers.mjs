// Shared helpers for the panel's end-to-end tests (playwright-core + Debian Chromium).
import { chromium } from 'playwright-core'
import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const PANEL_URL = (process.env.PANEL_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '')
export const SIM_URL = (process.env.SIM_URL ?? 'http://127.0.0.1:2780').replace(/\/$/, '')
export const API = `${PANEL_URL}/v1/api`
export const DEMO = { username: 'demo', password: 'Demo@12345' }
export const SHOTS = join(dirname(fileURLToPath(import.meta.url)), 'screenshots')
mkdirSync(SHOTS, { recursive: true })

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync']

export const DESKTOP = { width: 1440, height: 900 }
export const MOBILE = { width: 390, height: 844 }

export async function launch() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS })
}

/** A fresh context (own localStorage) and page in Persian / Tehran. */
export async function openPage(browser, viewport = DESKTOP, extra = {}) {
  const context = await browser.newContext({
    locale: 'fa-IR', timezoneId: 'Asia/Tehran', viewport,
    isMobile: viewport.width < 768, hasTouch: viewport.width < 768, ...extra,
  })
  await watchCsp(context)
  const page = await context.newPage()
  // A safety net, not a speed goal: on a busy machine a whole-stack step can take a while.
  page.setDefaultTimeout(60_000)
  return { context, page }
}

const violations = new WeakMap()

/** The Content-Security-Policy violations seen so far in a context's pages. */
export const cspViolations = (context) => violations.get(context) ?? []

/**
 * Records every CSP violation in the context (securitypolicyviolation events and
 * "Refused to …" console errors); closing the context throws when there were any,
 * so every test that closes its context fails on a violation.
 */
async function watchCsp(context) {
  const seen = []
  violations.set(context, seen)
  await context.exposeBinding('__chaparCspViolation', (_source, text) => { seen.push(text) })
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__chaparCspViolation?.(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`)
    })
  })
  const listen = (page) => page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy|^Refused to /.test(msg.text())) seen.push(msg.text())
  })
  context.on('page', listen)
  const close = context.close.bind(context)
  context.close = async (...args) => {
    await close(...args)
    if (seen.length && !context.allowCspViolations) throw new Error(`CSP violations:\n${seen.join('\n')}`)
  }
}

export async function shot(page, name) {
  await page.waitForTimeout(300) // let transitions settle
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false })
}

/**
 * Scrolls `focus` (a locator) into view. A live update may replace the element while
 * Playwright scrolls it ("not attached to the DOM"): the locator then finds the new
 * one, and the scroll is tried again, a few times.
 */
export async function scrollTo(focus) {
  for (let i = 0; ; i++) {
    try {
      await focus.scrollIntoViewIfNeeded()
      return
    } catch (e) {
      if (i >= 5 || !/not attached/i.test(String(e))) throw e
      await focus.waitFor()
    }
  }
}

/**
 * Light and dark, desktop and 390 px shots of the page as it is, with `focus` (a
 * locator) scrolled into view in each; the theme ends light. A dialog (`reopen`
 * given) is closed to reach the theme switch and opened again.
 */
export async function themeShots(page, name, focus, reopen) {
  const at = async (size, suffix) => {
    await page.setViewportSize(size)
    if (focus) await scrollTo(focus)
    await shot(page, `${name}-${suffix}`)
  }
  const toggle = async () => {
    if (reopen) await page.keyboard.press('Escape')
    await page.setViewportSize(DESKTOP)
    await page.getByTestId('theme-toggle').first().click()
    if (reopen) await reopen()
  }
  await at(DESKTOP, 'light')
  await at(MOBILE, 'light-390')
  await toggle()
  await at(DESKTOP, 'dark')
  await at(MOBILE, 'dark-390')
  await toggle()
}

/** Calls the API directly and unwraps the envelope; throws with the status on failure. */
export async function apiCall(method, path, body, token) {
  const res = await fetch(`${API}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = await res.json().catch(() => null)
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json?.meta ?? json)}`)
  return json?.data
}

export async function apiToken(username, password) {
  const data = await apiCall('POST', '/acl/auth/login', { username, password })
  if (!data?.token) throw new Error(`login of ${username} needs a second step`)
  return data.token
}

/** Puts a token in localStorage the way the login page does, then opens `path`. */
export async function signInWithToken(page, token, path = '/dashboard') {
  await page.goto(`${PANEL_URL}/login`)
  await page.evaluate((t) => localStorage.setItem('token', t), token)
  await page.goto(`${PANEL_URL}${path}`)
}

/** A fresh context signed in with `token` on `path`; `dark` turns the dark theme on first. */
export async function openSignedIn(browser, token, path, { viewport, dark = false } = {}) {
  const { context, page } = await openPage(browser, viewport)
  await page.goto(`${PANEL_URL}/login`)
  await page.evaluate((d) => (d ? localStorage.setItem('dark', 'true') : localStorage.removeItem('dark')), dark)
  await signInWithToken(page, token, path)
  return { context, page }
}

export const randomDigits = (n) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join('')
/** A random mobile 0912xxxxxxx (the simulator accepts any number). */
export const randomMobile = () => `0912${randomDigits(7)}`
export const toIntl = (local) => `98${local.slice(1)}`

const PERSIAN = '۰۱۲۳۴۵۶۷۸۹'
const ARABIC = '٠١٢٣٤٥٦٧٨٩'
export const latinDigits = (s) =>
  s.replace(/[۰-۹٠-٩]/g, (d) => String(PERSIAN.includes(d) ? PERSIAN.indexOf(d) : ARABIC.indexOf(d)))

/** Polls the carrier simulator for the newest message to `intl` (98…) and returns its code. */
export async function readOtp(intl, { after = 0, timeoutMs = 30_000 } = {}) {
  const deadline = Date.now() + timeoutMs
  let last = ''
  while (Date.now() < deadline) {
    const res = await fetch(`${SIM_URL}/messages/latest?to=${intl}`).catch(() => null)
    if (res?.ok) {
      const msg = await res.json().catch(() => null)
      const body = msg?.data ?? msg
      const at = Date.parse(body?.last_submit ?? body?.first_submit ?? '') || Date.now()
      const code = latinDigits(String(body?.text ?? '')).match(/\b\d{4,8}\b/)?.[0]
      last = String(body?.text ?? '')
      if (code && at >= after) return code
    }
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error(`no OTP for ${intl} from the simulator (last text: ${last || 'none'})`)
}

/** A Jalali «yyyy/mm/dd hh:mm» in Tehran, as typed into a schedule field. */
export function jalaliInput(date) {
  const parts = new Intl.DateTimeFormat('en-u-ca-persian-nu-latn', {
    timeZone: 'Asia/Tehran', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
  }).formatToParts(date)
  const p = Object.fromEntries(parts.map((x) => [x.type, x.value]))
  return `${p.year}/${p.month}/${p.day} ${p.hour}:${p.minute}`
}

/** Waits until the page's path matches (client-side redirects included). */
export async function waitForPath(page, re, timeout = 60_000) {
  await page.waitForFunction((src) => new RegExp(src).test(location.pathname), re.source, { timeout, polling: 100 })
}

/** The seeded staff user (make run / the e2e stack). */
export const STAFF = { username: 'admin', password: 'Admin@12345', mobile: '989120000099' }
let lastStaffCode = ''

// Staff sessions already opened in this test file, by username: a later staffLogin of
// the same user resumes one instead of texting another code (every login texts one,
// and one mobile gets at most RATE_OTP_NUMBER_PER_DAY a day).
const staffSessions = new Map()

/**
 * Logs a staff user in at /admin/login with the code texted to its mobile (read at the
 * simulator). `fresh` forces the whole two-step login even when a session of the user
 * is still valid (tests of the login itself).
 */
export async function staffLogin(page, staff = STAFF, { fresh = false } = {}) {
  if (!fresh && (await resumeStaff(page, staffSessions.get(staff.username)))) return
  await twoStepStaffLogin(page, staff)
  staffSessions.set(staff.username, await page.evaluate(() => localStorage.getItem('admin_token')))
}

/** Opens the back office with a staff token that still answers; false when it does not. */
async function resumeStaff(page, token) {
  if (!token) return false
  try {
    await apiCall('GET', '/admin/content?kind=news', undefined, token)
  } catch {
    return false
  }
  await page.goto(`${PANEL_URL}/admin/login`)
  await page.evaluate((t) => localStorage.setItem('admin_token', t), token)
  await page.goto(`${PANEL_URL}/admin/reviews`)
  await waitForPath(page, /^\/admin\/reviews$/)
  return true
}

async function twoStepStaffLogin(page, staff) {
  await page.goto(`${PANEL_URL}/admin/login`)
  await page.getByTestId('admin-username').fill(staff.username)
  await page.getByTestId('admin-password').fill(staff.password)
  const started = Date.now() - 2000
  await page.getByTestId('admin-login-submit').click()
  await page.getByTestId('admin-otp').waitFor()
  if (!/\/admin\/login$/.test(page.url())) throw new Error('a staff session before the second step')
  // Each login texts a new code: never reuse the previous login's (it may be newer than `started`).
  let code = await readOtp(staff.mobile, { after: started })
  for (let i = 0; code === lastStaffCode && i < 60; i++) {
    await new Promise((r) => setTimeout(r, 500))
    code = await readOtp(staff.mobile, { after: started })
  }
  lastStaffCode = code
  await page.getByTestId('admin-otp').fill(code)
  await page.getByTestId('admin-otp-submit').click()
  await waitForPath(page, /^\/admin\/reviews$/)
}

/** A complete form of the invoice seller's details (the back office's «فروشنده فاکتور»). */
export const INVOICE_SELLER = {
  name: 'شرکت پیام‌رسان چاپار', national_id: '14006392517', economic_code: '411345678912', registration_number: '54321',
  postal_code: '1459812345', phone: '02188776655', address: 'تهران، خیابان آزادی، پلاک ۱۰',
}

/**
 * Sets the invoice seller's details through the back office's page, as staff do
 * before the first invoice can be issued (no invoice is issued without them).
 * Returns after «ذخیره شد»; the page is left on /admin/invoice-seller.
 */
export async function setInvoiceSeller(page, shotName) {
  await staffLogin(page)
  await page.goto(`${PANEL_URL}/admin/invoice-seller`)
  await page.getByTestId('seller-form').waitFor()
  for (const [key, value] of Object.entries(INVOICE_SELLER)) await page.getByTestId(`seller-${key}`).fill(value)
  await page.getByTestId('seller-save').click()
  await page.getByTestId('seller-saved').waitFor()
  if (shotName) await shot(page, shotName)
}
